/**
 * Customer satisfaction, the connection's setting and the question: it reaches the customer's
 * phone after 'Resolver' (and 'Protocolo') only when the connection asks it, after the farewell.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CSAT_DEFAULT_QUESTIONS, type TCsatSettings } from '@zapdesk/shared/csat';
import { waitFor, type TestApp } from '../../test/harness.js';
import { csatKit, FAREWELL } from '../../test/csat-kit.js';

const kit = csatKit();
const { number, connection, say, ticketsOf, phone, ratings, ticketById, messagesOf, resolvedTicket, asked } = kit;
let t: TestApp;
beforeAll(() => {
  t = kit.app();
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

  it("is not sent by 'Fechar todos', nor while the phone is off", async () => {
    const w = await connection({ enabled: true });
    const from = number();
    await say(w.id, from, 'oi');
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x.length === 1,
    );
    if (!ticket) throw new Error('no ticket');
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open' } });
    expect((await t.request({ method: 'POST', url: '/api/ticketsClosed', token: t.adminToken, payload: {} })).statusCode).toBe(200);
    expect(await ticketById(ticket.id)).toMatchObject({ status: 'closed' });
    expect(await ratings(ticket.id)).toEqual([]);

    // Reopened, then resolved while the phone is off: nothing is recorded that nobody was asked.
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open' } });
    await t.request({ method: 'POST', url: `/api/simulator/${w.id}/disconnect`, token: t.adminToken });
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'closed' } });
    expect(await ticketById(ticket.id)).toMatchObject({ status: 'closed' });
    expect(await ratings(ticket.id)).toEqual([]);
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
