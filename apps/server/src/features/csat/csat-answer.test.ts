/**
 * Customer satisfaction, the customer's answer on the simulator: pt/en/es digits, words, emojis,
 * with a comment, stored with the closed ticket, which stays closed; anything else, or a late
 * reply, goes on as usual and the question expires.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CSAT_DEFAULT_QUESTIONS, CSAT_THANKS } from '@zapdesk/shared/csat';
import { waitFor, type TestApp } from '../../test/harness.js';
import { csatKit } from '../../test/csat-kit.js';

const kit = csatKit();
const { connection, say, ticketsOf, phone, ratings, ticketById, messagesOf, asked } = kit;
let t: TestApp;
beforeAll(() => {
  t = kit.app();
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

  it('a redelivered answer is stored once', async () => {
    const w = await connection({ enabled: true });
    const { from, ticket } = await asked(w);
    const answer = { from, name: 'Cliente', body: '4 tudo certo', id: `redelivered-${from}` };
    expect((await t.request({ method: 'POST', url: `/api/simulator/${w.id}/inbound`, token: t.adminToken, payload: answer })).statusCode).toBe(200);
    await waitFor(
      () => ratings(ticket.id),
      (x) => x[0]?.score === 4,
    );
    expect((await t.request({ method: 'POST', url: `/api/simulator/${w.id}/inbound`, token: t.adminToken, payload: answer })).statusCode).toBe(200);
    // The copy changes nothing: one message, one answer, one thank-you, the ticket still closed.
    await waitFor(
      () => phone(w.id, from),
      (items) => items.some((m) => m.body === CSAT_THANKS.pt.withComment),
    );
    expect((await messagesOf(ticket.id)).filter((m) => m.body === '4 tudo certo')).toHaveLength(1);
    expect(await ratings(ticket.id)).toMatchObject([{ score: 4, comment: 'tudo certo' }]);
    expect((await phone(w.id, from)).filter((m) => m.body === CSAT_THANKS.pt.withComment)).toHaveLength(1);
    expect(await ticketsOf(from)).toMatchObject([{ id: ticket.id, status: 'closed' }]);
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
