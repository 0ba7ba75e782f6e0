/**
 * Customer satisfaction end to end on the simulator: the question reaches the customer's phone
 * after 'Resolver' only when the connection asks it; the answer (pt/en/es digits, words, emojis,
 * with a comment) is stored with the closed ticket, which stays closed; anything else, or a late
 * reply, goes on as usual and the question expires.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSAT_DEFAULT_QUESTIONS, CSAT_THANKS, type TCsatSettings, type TTicketRating } from '@zapdesk/shared/csat';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import type { TWhatsapp } from '@zapdesk/shared/schemas';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';

let t: TestApp;
let n = 0;
const number = () => `5511${String(910000000 + (n += 1) * 7919 + Math.floor(Math.random() * 1000))}`;
const FAREWELL = 'Até logo!';

async function connection(csat?: { enabled: boolean; question?: string; language?: 'pt' | 'en' | 'es' }): Promise<TWhatsapp> {
  const res = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: `Loja ${(n += 1)}`, channel: 'simulator', farewellMessage: FAREWELL } });
  expect(res.statusCode).toBe(201);
  const w = res.json<TWhatsapp>();
  expect((await t.request({ method: 'POST', url: `/api/simulator/${w.id}/scan`, token: t.adminToken })).statusCode).toBe(200);
  if (csat) {
    const put = await t.request({ method: 'PUT', url: `/api/whatsapp/${w.id}/csat`, token: t.adminToken, payload: { question: '', language: 'pt', ...csat } });
    expect(put.statusCode).toBe(200);
  }
  return w;
}

function say(whatsappId: number, from: string, body: string) {
  return t.request({ method: 'POST', url: `/api/simulator/${whatsappId}/inbound`, token: t.adminToken, payload: { from, name: 'Cliente', body } });
}

async function ticketsOf(from: string): Promise<TTicket[]> {
  const res = await t.request({ method: 'GET', url: `/api/tickets?showAll=true&searchParam=${from}`, token: t.adminToken });
  const open = (res.json().tickets as TTicket[]).filter((x) => x.contact.number === from);
  const closed = (await t.request({ method: 'GET', url: `/api/tickets?showAll=true&searchParam=${from}&status=closed`, token: t.adminToken })).json().tickets as TTicket[];
  const all = new Map([...open, ...closed.filter((x) => x.contact.number === from)].map((x) => [x.id, x]));
  return [...all.values()];
}

async function phone(whatsappId: number, to: string): Promise<TSimulatorOutboxItem[]> {
  const items = (await t.request({ method: 'GET', url: `/api/simulator/${whatsappId}/outbox`, token: t.adminToken })).json<TSimulatorOutboxItem[]>();
  return items.filter((m) => m.to === to);
}

async function ratings(ticketId: number): Promise<TTicketRating[]> {
  const res = await t.request({ method: 'GET', url: `/api/tickets/${ticketId}/ratings`, token: t.adminToken });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function ticketById(id: number): Promise<TTicket> {
  return (await t.request({ method: 'GET', url: `/api/tickets/${id}`, token: t.adminToken })).json();
}

async function messagesOf(ticketId: number): Promise<TMessage[]> {
  return (await t.request({ method: 'GET', url: `/api/messages/${ticketId}`, token: t.adminToken })).json().messages;
}

/** A customer writes, an agent takes the ticket and resolves it. */
async function resolvedTicket(w: TWhatsapp): Promise<{ from: string; ticket: TTicket }> {
  const from = number();
  expect((await say(w.id, from, 'Olá, quero saber do meu pedido')).statusCode).toBe(200);
  const [ticket] = await waitFor(
    () => ticketsOf(from),
    (x) => x.length === 1,
  );
  if (!ticket) throw new Error('no ticket');
  expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open' } })).statusCode).toBe(200);
  const closed = await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'closed' } });
  expect(closed.json()).toMatchObject({ status: 'closed' });
  return { from, ticket };
}

/** Resolved, and the question has reached the customer's phone. */
async function asked(w: TWhatsapp, question = CSAT_DEFAULT_QUESTIONS.pt): Promise<{ from: string; ticket: TTicket }> {
  const resolved = await resolvedTicket(w);
  await waitFor(
    () => phone(w.id, resolved.from),
    (items) => items.some((m) => m.body === question),
  );
  return resolved;
}

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
});
afterAll(async () => {
  await t.close();
});

describe('the connection setting', () => {
  it('is off by default, with the default question of its language', async () => {
    const w = await connection();
    const res = await t.request({ method: 'GET', url: `/api/whatsapp/${w.id}/csat`, token: t.adminToken });
    expect(res.json<TCsatSettings>()).toEqual({ enabled: false, question: '', language: 'pt', effectiveQuestion: CSAT_DEFAULT_QUESTIONS.pt });
    const saved = await t.request({ method: 'PUT', url: `/api/whatsapp/${w.id}/csat`, token: t.adminToken, payload: { enabled: true, question: '  ', language: 'es' } });
    expect(saved.json<TCsatSettings>()).toEqual({ enabled: true, question: '', language: 'es', effectiveQuestion: CSAT_DEFAULT_QUESTIONS.es });
  });

  it('refuses bad settings with 400 and an ERR_ code, and changes nothing', async () => {
    const w = await connection({ enabled: true, question: 'Nota de 1 a 5?' });
    const bad = [
      { enabled: 'sim', question: '', language: 'pt' },
      { enabled: true, question: '', language: 'fr' },
      { enabled: true, question: 'x'.repeat(1001), language: 'pt' },
      { enabled: true, question: 'a\u0000b', language: 'pt' },
      { enabled: true, language: 'pt' },
      { enabled: true, question: '', language: 'pt', extra: 1 },
    ];
    for (const payload of bad) {
      const res = await t.request({ method: 'PUT', url: `/api/whatsapp/${w.id}/csat`, token: t.adminToken, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
    const missing = await t.request({ method: 'PUT', url: '/api/whatsapp/999999/csat', token: t.adminToken, payload: { enabled: true, question: '', language: 'pt' } });
    expect(missing.json().error).toBe('ERR_NO_WAPP_FOUND');
    const { token } = await t.createUser();
    const agent = await t.request({ method: 'PUT', url: `/api/whatsapp/${w.id}/csat`, token, payload: { enabled: false, question: '', language: 'pt' } });
    expect(agent.statusCode).toBe(403);
    const kept = await t.request({ method: 'GET', url: `/api/whatsapp/${w.id}/csat`, token: t.adminToken });
    expect(kept.json()).toMatchObject({ enabled: true, question: 'Nota de 1 a 5?', language: 'pt' });
  });
});

describe('the question', () => {
  it('is not sent when the connection does not ask it', async () => {
    const w = await connection();
    const { from, ticket } = await resolvedTicket(w);
    await waitFor(
      () => phone(w.id, from),
      (items) => items.some((m) => m.body === FAREWELL),
    );
    // The farewell went and nothing after it: the question would have been queued with it.
    expect((await phone(w.id, from)).map((m) => m.body)).toEqual([FAREWELL]);
    expect(await ratings(ticket.id)).toEqual([]);
  });

  it('reaches the phone after the farewell when the connection asks it, in its own words', async () => {
    const w = await connection({ enabled: true, question: 'De 1 a 5, como foi nosso atendimento?' });
    const { from, ticket } = await asked(w, 'De 1 a 5, como foi nosso atendimento?');
    expect((await phone(w.id, from)).map((m) => m.body)).toEqual([FAREWELL, 'De 1 a 5, como foi nosso atendimento?']);
    expect(await ratings(ticket.id)).toMatchObject([{ ticketId: ticket.id, score: null, comment: null, state: 'waiting', userId: expect.any(Number) }]);
    // The question is in the ticket's history, as the product's own message.
    expect((await messagesOf(ticket.id)).some((m) => m.fromMe && m.body === 'De 1 a 5, como foi nosso atendimento?')).toBe(true);
  });

  it('is not sent for a waiting ticket closed without being served', async () => {
    const w = await connection({ enabled: true });
    const from = number();
    await say(w.id, from, 'spam');
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x.length === 1,
    );
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket?.id}`, token: t.adminToken, payload: { status: 'closed' } });
    await waitFor(
      () => phone(w.id, from),
      (items) => items.some((m) => m.body === FAREWELL),
    );
    expect((await phone(w.id, from)).map((m) => m.body)).toEqual([FAREWELL]);
  });

  it("is sent after 'Protocolo' too", async () => {
    const w = await connection({ enabled: true });
    const from = number();
    await say(w.id, from, 'oi');
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x.length === 1,
    );
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket?.id}`, token: t.adminToken, payload: { status: 'open' } });
    expect((await t.request({ method: 'POST', url: `/api/tickets/${ticket?.id}/protocol`, token: t.adminToken })).statusCode).toBe(200);
    const items = await waitFor(
      () => phone(w.id, from),
      (x) => x.some((m) => m.body === CSAT_DEFAULT_QUESTIONS.pt),
    );
    expect(items.map((m) => m.body).slice(-2)).toEqual([FAREWELL, CSAT_DEFAULT_QUESTIONS.pt]);
  });
});

describe('the answer', () => {
  const answers: [string, number, string | null][] = [
    ['5 ótimo atendimento', 5, 'ótimo atendimento'],
    ['péssimo', 1, null],
    ['regular', 3, null],
    ['good', 4, null],
    ['terrible, nobody answered', 1, 'terrible, nobody answered'],
    ['excelente', 5, null],
    ['malo', 2, null],
    ['⭐⭐⭐⭐', 4, null],
    ['👍', 4, null],
    ['2', 2, null],
  ];
  it.each(answers)('%j is stored as %i, the ticket stays closed and no ticket is opened', async (body, score, comment) => {
    const w = await connection({ enabled: true });
    const { from, ticket } = await asked(w);
    expect((await say(w.id, from, body)).statusCode).toBe(200);
    const [rating] = await waitFor(
      () => ratings(ticket.id),
      (x) => x[0]?.score !== null,
    );
    expect(rating).toMatchObject({ score, comment, state: 'answered', answeredAt: expect.any(String) });
    expect(await ticketsOf(from)).toMatchObject([{ id: ticket.id, status: 'closed' }]);
    // The answer stays visible in the closed ticket's history.
    expect((await messagesOf(ticket.id)).some((m) => !m.fromMe && m.body === body)).toBe(true);
    // A thank-you, inviting a comment only when there was none.
    const thanks = comment === null ? CSAT_THANKS.pt.withoutComment : CSAT_THANKS.pt.withComment;
    await waitFor(
      () => phone(w.id, from),
      (items) => items.some((m) => m.body === thanks),
    );
  });

  it('thanks in the language of the connection', async () => {
    const w = await connection({ enabled: true, language: 'en' });
    const { from, ticket } = await asked(w, CSAT_DEFAULT_QUESTIONS.en);
    await say(w.id, from, 'great');
    await waitFor(
      () => phone(w.id, from),
      (items) => items.some((m) => m.body === CSAT_THANKS.en.withoutComment),
    );
    expect((await ratings(ticket.id))[0]).toMatchObject({ score: 5 });
  });

  it('keeps the message that follows as its comment, still without reopening; the next one reopens as usual', async () => {
    const w = await connection({ enabled: true });
    const { from, ticket } = await asked(w);
    await say(w.id, from, '4');
    await waitFor(
      () => ratings(ticket.id),
      (x) => x[0]?.score === 4,
    );
    await say(w.id, from, 'Demorou um pouco, mas resolveram.');
    const [rating] = await waitFor(
      () => ratings(ticket.id),
      (x) => x[0]?.comment !== null,
    );
    expect(rating).toMatchObject({ score: 4, comment: 'Demorou um pouco, mas resolveram.', commentAt: expect.any(String) });
    expect(await ticketsOf(from)).toMatchObject([{ id: ticket.id, status: 'closed' }]);
    // Now a new conversation: the ticket reopens as any reply within the setting's window does.
    await say(w.id, from, 'Outra dúvida: vocês entregam no sábado?');
    await waitFor(
      () => ticketById(ticket.id),
      (x) => x.status === 'pending',
    );
    expect((await ratings(ticket.id))[0]).toMatchObject({ score: 4, comment: 'Demorou um pouco, mas resolveram.' });
  });

  it('a reply that is not an answer reopens as today, and the question expires', async () => {
    const w = await connection({ enabled: true });
    const { from, ticket } = await asked(w);
    await say(w.id, from, 'Bom dia, meu pedido ainda não chegou');
    await waitFor(
      () => ticketById(ticket.id),
      (x) => x.status === 'pending',
    );
    expect((await ratings(ticket.id))[0]).toMatchObject({ score: null, state: 'expired' });
    // A digit now is an ordinary message of the reopened ticket (a queue option, say), not a score.
    await say(w.id, from, '5');
    await waitFor(
      () => messagesOf(ticket.id),
      (x) => x.some((m) => !m.fromMe && m.body === '5'),
    );
    expect((await ratings(ticket.id))[0]).toMatchObject({ score: null, state: 'expired' });
  });

  it('a question older than 24 hours takes no answer: the reply is a new conversation', async () => {
    const w = await connection({ enabled: true });
    const { from, ticket } = await asked(w);
    const longAgo = new Date(Date.now() - 25 * 3600_000).toISOString();
    await t.ctx.db.updateTable('ticketRatings').set({ askedAt: longAgo }).where('ticketId', '=', ticket.id).execute();
    await t.ctx.db.updateTable('tickets').set({ updatedAt: longAgo }).where('id', '=', ticket.id).execute();
    expect((await ratings(ticket.id))[0]).toMatchObject({ state: 'expired' });
    await say(w.id, from, '5');
    const all = await waitFor(
      () => ticketsOf(from),
      (x) => x.length === 2,
    );
    expect(all.find((x) => x.id !== ticket.id)).toMatchObject({ status: 'pending' });
    expect(await ticketById(ticket.id)).toMatchObject({ status: 'closed' });
    expect((await ratings(ticket.id))[0]).toMatchObject({ score: null, state: 'expired' });
  });

  it('a comment after 10 minutes is a new conversation', async () => {
    const w = await connection({ enabled: true });
    const { from, ticket } = await asked(w);
    await say(w.id, from, '3');
    await waitFor(
      () => ratings(ticket.id),
      (x) => x[0]?.score === 3,
    );
    await t.ctx.db
      .updateTable('ticketRatings')
      .set({ answeredAt: new Date(Date.now() - 11 * 60_000).toISOString() })
      .where('ticketId', '=', ticket.id)
      .execute();
    await say(w.id, from, 'Esqueci de perguntar uma coisa');
    await waitFor(
      () => ticketById(ticket.id),
      (x) => x.status === 'pending',
    );
    expect((await ratings(ticket.id))[0]).toMatchObject({ score: 3, comment: null });
  });

  it('a ticket resolved twice is asked twice; each answer goes to its own question', async () => {
    const w = await connection({ enabled: true });
    const { from, ticket } = await asked(w);
    await say(w.id, from, '2');
    await waitFor(
      () => ratings(ticket.id),
      (x) => x[0]?.score === 2,
    );
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open' } });
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'closed' } });
    await waitFor(
      () => ratings(ticket.id),
      (x) => x.length === 2,
    );
    await say(w.id, from, '5');
    const both = await waitFor(
      () => ratings(ticket.id),
      (x) => x[1]?.score === 5,
    );
    expect(both.map((r) => r.score)).toEqual([2, 5]);
  });

  it('a ticket the user may not see has no ratings for them', async () => {
    const w = await connection({ enabled: true });
    const { ticket } = await asked(w);
    const queue = await t.createQueue();
    const { token } = await t.createUser({ queueIds: [queue.id] });
    const res = await t.request({ method: 'GET', url: `/api/tickets/${ticket.id}/ratings`, token });
    expect(res.json().error).toBe('ERR_NO_TICKET_FOUND');
  });
});
