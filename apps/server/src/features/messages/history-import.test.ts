/** History import: `POST /api/zdgSyncMessageUser` and `POST /api/syncMessage` over the simulator's stored history. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import type { TQueue, TWhatsapp } from '@zapdesk/shared/schemas';
import type { DomainEvents } from '../../core/events.js';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let w: TWhatsapp;
let sales: TQueue;
let agent: { id: number; token: string };
let outsider: { id: number; token: string };
let n = 0;
const saved: DomainEvents['message.saved'][] = [];

const nextNumber = () => `55119444${String((n += 1)).padStart(5, '0')}`;
const inbound = (from: string, body: string) => t.request({ method: 'POST', url: `/api/simulator/${w.id}/inbound`, token: t.adminToken, payload: { from, name: `Cliente ${from.slice(-3)}`, body } });
const seed = (from: string, messages: { body: string; fromMe?: boolean; id?: string }[]) =>
  t.request({ method: 'POST', url: `/api/simulator/${w.id}/history`, token: t.adminToken, payload: { from, messages } });
const importUser = (payload: Record<string, unknown>, token = agent.token) => t.request({ method: 'POST', url: '/api/zdgSyncMessageUser', token, payload });
const outbox = async (): Promise<TSimulatorOutboxItem[]> => (await t.request({ method: 'GET', url: `/api/simulator/${w.id}/outbox`, token: t.adminToken })).json();
const ticketOf = async (number: string): Promise<TTicket | undefined> =>
  ((await t.request({ method: 'GET', url: '/api/tickets?showAll=true', token: t.adminToken })).json().tickets as TTicket[]).find((x) => x.contact.number === number);
const bodies = async (ticketId: number): Promise<string[]> =>
  ((await t.request({ method: 'GET', url: `/api/messages/${ticketId}`, token: t.adminToken })).json().messages as TMessage[]).map((m) => m.body);

const GREETING = 'Bem-vindo às Vendas';

/** A contact writes in; the ticket takes the only queue, whose greeting answers. */
async function liveTicket(from: string, body: string): Promise<TTicket> {
  await inbound(from, body);
  await expect.poll(async () => (await ticketOf(from))?.lastMessage, { timeout: 5000 }).toBe(GREETING);
  const ticket = await ticketOf(from);
  if (!ticket) throw new Error('no ticket');
  return ticket;
}

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  sales = await t.createQueue({ name: 'Vendas', greetingMessage: GREETING });
  const other = await t.createQueue({ name: 'Outra' });
  agent = await t.createUser({ queueIds: [sales.id] }).then((a) => ({ id: a.user.id, token: a.token }));
  outsider = await t.createUser({ queueIds: [other.id] }).then((a) => ({ id: a.user.id, token: a.token }));
  w = (await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Main', channel: 'simulator', greetingMessage: 'Olá!', queueIds: [sales.id] } })).json();
  await t.request({ method: 'POST', url: `/api/simulator/${w.id}/scan`, token: t.adminToken });
  t.ctx.events.subscribe('message.saved', (e) => saved.push(e));
});
afterAll(async () => {
  await t.close();
});

describe('POST /api/zdgSyncMessageUser', () => {
  it("imports up to `limit` older messages into the contact's ticket, once, quietly", async () => {
    const from = nextNumber();
    const ticket = await liveTicket(from, 'mensagem de agora');
    expect(ticket).toMatchObject({ status: 'pending', queueId: sales.id, unreadMessages: 1 });
    await seed(from, [{ body: 'antiga 1' }, { body: 'resposta antiga', fromMe: true }, { body: 'antiga 3' }]);
    const sentBefore = (await outbox()).length;
    saved.length = 0;

    const first = await importUser({ user: from, limit: 2, ticketwhatsappId: w.id });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ imported: 2 });
    expect(await bodies(ticket.id)).toEqual(['resposta antiga', 'antiga 3', 'mensagem de agora', GREETING]);
    // The rest on a second call; nothing more on a third: stored messages are never duplicated.
    expect((await importUser({ user: from, limit: 50, ticketwhatsappId: String(w.id) })).json()).toEqual({ imported: 1 });
    expect((await importUser({ user: from, limit: 50, ticketwhatsappId: w.id })).json()).toEqual({ imported: 0 });
    expect(await bodies(ticket.id)).toEqual(['antiga 1', 'resposta antiga', 'antiga 3', 'mensagem de agora', GREETING]);

    const messages = (await t.request({ method: 'GET', url: `/api/messages/${ticket.id}`, token: t.adminToken })).json().messages as TMessage[];
    expect(messages.find((m) => m.body === 'resposta antiga')).toMatchObject({ fromMe: true });
    expect(messages.find((m) => m.body === 'antiga 1')).toMatchObject({ fromMe: false, read: true });
    // No greeting, no menu, no unread, same status and queue; live updates (not creations, so no bell).
    expect((await outbox()).length).toBe(sentBefore);
    expect(await ticketOf(from)).toMatchObject({ status: 'pending', queueId: sales.id, unreadMessages: 1, lastMessage: GREETING });
    expect(saved.filter((e) => e.ticket.id === ticket.id && e.message.body !== GREETING).map((e) => [e.message.body, e.created])).toEqual([
      ['resposta antiga', false],
      ['antiga 3', false],
      ['antiga 1', false],
    ]);
  });

  it('gives a contact without a ticket one by the normal rules, without greeting it', async () => {
    const contact = await t.createContact({ name: 'Sem Ticket' });
    await seed(contact.number, [{ body: 'oi, lembra de mim?' }, { body: 'claro!', fromMe: true }]);
    const sentBefore = (await outbox()).length;
    expect((await importUser({ user: contact.number, limit: 10, ticketwhatsappId: w.id }, t.adminToken)).json()).toEqual({ imported: 2 });
    const ticket = await ticketOf(contact.number);
    expect(ticket).toMatchObject({ status: 'pending', userId: null, unreadMessages: 0, lastMessage: 'claro!' });
    expect(await bodies(ticket?.id ?? 0)).toEqual(['oi, lembra de mim?', 'claro!']);
    expect((await outbox()).length).toBe(sentBefore);
  });

  it('validates the body and refuses what the caller may not touch', async () => {
    const from = nextNumber();
    await liveTicket(from, 'oi');
    const bad = async (payload: Record<string, unknown>, field: string) => {
      const res = await importUser(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { [field]: expect.any(String) } });
    };
    await bad({ user: from, limit: 0, ticketwhatsappId: w.id }, 'limit');
    await bad({ user: from, limit: 201, ticketwhatsappId: w.id }, 'limit');
    await bad({ user: from, limit: 'many', ticketwhatsappId: w.id }, 'limit');
    await bad({ user: 'abc', limit: 5, ticketwhatsappId: w.id }, 'user');
    await bad({ user: from, limit: 5 }, 'ticketwhatsappId');
    expect((await t.request({ method: 'POST', url: '/api/zdgSyncMessageUser', payload: { user: from, limit: 5, ticketwhatsappId: w.id, token: 'x' } })).statusCode).toBe(401);
    expect((await importUser({ user: from, limit: 5, ticketwhatsappId: 999999 })).json()).toMatchObject({ error: 'ERR_NO_WAPP_FOUND' });
    expect((await importUser({ user: '5511000000999', limit: 5, ticketwhatsappId: w.id })).json()).toMatchObject({ error: 'ERR_NO_CONTACT_FOUND' });
    // A contact the caller may not see is a number with no contact, to them.
    const refused = await importUser({ user: from, limit: 5, ticketwhatsappId: w.id }, outsider.token);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ error: 'ERR_NO_CONTACT_FOUND' });
    // Seeding the simulated phone's history is for admins.
    expect((await t.request({ method: 'POST', url: `/api/simulator/${w.id}/history`, token: agent.token, payload: { from, messages: [{ body: 'x' }] } })).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: `/api/simulator/${w.id}/history`, token: t.adminToken, payload: { from, messages: [] } })).json()).toMatchObject({ error: 'ERR_VALIDATION' });
    // A token in the body (the spec's userApiToken) is accepted and ignored: the session decides.
    expect((await importUser({ user: from, limit: 5, ticketwhatsappId: w.id, token: 'anything' })).json()).toEqual({ imported: 0 });
  });
});

describe('history import and visibility', () => {
  it('keeps a closed ticket closed, even one closed a moment ago, and imports into it as it is', async () => {
    const from = nextNumber();
    const ticket = await liveTicket(from, 'oi');
    expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: agent.token, payload: { status: 'open' } })).statusCode).toBe(200);
    expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: agent.token, payload: { status: 'closed' } })).statusCode).toBe(200);
    await seed(from, [{ body: 'bem antiga' }]);
    const res = await importUser({ user: from, limit: 10, ticketwhatsappId: w.id });
    expect(res.json()).toEqual({ imported: 1 });
    expect(await ticketOf(from)).toMatchObject({ id: ticket.id, status: 'closed', userId: agent.id });
    expect((await bodies(ticket.id))[0]).toBe('bem antiga');
    const tickets = (await t.request({ method: 'GET', url: `/api/tickets?showAll=true&searchParam=${from}`, token: t.adminToken })).json<{ tickets: TTicket[] }>().tickets;
    expect(tickets.map((x) => x.id)).toEqual([ticket.id]);
  });

  it("refuses, as for an unknown number, and changes nothing, when the contact's only ticket is one the caller may not see", async () => {
    const from = nextNumber();
    const ticket = await liveTicket(from, 'oi');
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: agent.token, payload: { status: 'open' } });
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: agent.token, payload: { status: 'closed' } });
    await seed(from, [{ body: 'não é sua' }]);
    const refused = await importUser({ user: from, limit: 10, ticketwhatsappId: w.id }, outsider.token);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ error: 'ERR_NO_CONTACT_FOUND' });
    expect(await ticketOf(from)).toMatchObject({ id: ticket.id, status: 'closed', userId: agent.id });
    expect(await bodies(ticket.id)).not.toContain('não é sua');
  });

  it('creates no ticket for a caller who would not see it (a user in no queue)', async () => {
    const loner = await t.createUser();
    const contact = await t.createContact({ name: 'Sem Conversa' });
    await seed(contact.number, [{ body: 'olá' }]);
    const refused = await importUser({ user: contact.number, limit: 10, ticketwhatsappId: w.id }, loner.token);
    expect(refused.statusCode).toBe(403);
    expect(await ticketOf(contact.number)).toBeUndefined();
    // An agent of a queue sees a new waiting ticket without a queue: it is made for the import.
    expect((await importUser({ user: contact.number, limit: 10, ticketwhatsappId: w.id })).json()).toEqual({ imported: 1 });
    expect(await ticketOf(contact.number)).toMatchObject({ status: 'pending', userId: null, queueId: null });
  });
});

describe('POST /api/syncMessage', () => {
  it("imports the history of the connection's open and pending chats the caller may see", async () => {
    const a = nextNumber();
    const b = nextNumber();
    const ta = await liveTicket(a, 'agora A');
    const tb = await liveTicket(b, 'agora B');
    await seed(a, [{ body: 'A1' }, { body: 'A2' }, { body: 'A3' }]);
    await seed(b, [{ body: 'B1' }]);
    // B's ticket moves to a queue the agent is not in: the agent's sync leaves it alone.
    const other = await t.createQueue({ name: `Fora ${n}` });
    await t.request({ method: 'PUT', url: `/api/tickets/${tb.id}`, token: t.adminToken, payload: { queueId: other.id } });
    const res = await t.request({ method: 'POST', url: '/api/syncMessage', token: agent.token, payload: { limit: 2, ticketwhatsappId: w.id } });
    expect(res.statusCode).toBe(200);
    expect(res.json().imported).toBeGreaterThanOrEqual(2);
    expect(await bodies(ta.id)).toEqual(['A2', 'A3', 'agora A', GREETING]);
    expect(await bodies(tb.id)).not.toContain('B1');
    expect((await t.request({ method: 'POST', url: '/api/syncMessage', token: t.adminToken, payload: { limit: 5, ticketwhatsappId: w.id, token: 'ignored' } })).json().imported).toBeGreaterThanOrEqual(
      2,
    );
    expect((await bodies(tb.id))[0]).toBe('B1');
    expect(await bodies(ta.id)).toEqual(['A1', 'A2', 'A3', 'agora A', GREETING]);
  });

  it('takes the userApiToken (body or bearer) with admin rights, and a named token only with the history permission', async () => {
    const a = nextNumber();
    const ta = await liveTicket(a, 'agora token');
    await seed(a, [{ body: 'T1' }, { body: 'T2' }]);
    // Out of every agent's queues: only admin rights reach it.
    const hidden = await t.createQueue({ name: `Escondida ${n}` });
    await t.request({ method: 'PUT', url: `/api/tickets/${ta.id}`, token: t.adminToken, payload: { queueId: hidden.id } });
    const settings = (await t.request({ method: 'GET', url: '/api/settings', token: t.adminToken })).json<{ key: string; value: string }[]>();
    const apiToken = settings.find((s) => s.key === 'userApiToken')?.value ?? '';
    expect(apiToken.length).toBeGreaterThan(10);
    const byBody = await t.request({ method: 'POST', url: '/api/syncMessage', payload: { limit: 1, ticketwhatsappId: w.id, token: apiToken } });
    expect(byBody.statusCode).toBe(200);
    expect((await bodies(ta.id)).slice(0, 2)).toEqual(['T2', 'agora token']);
    const byBearer = await t.request({ method: 'POST', url: '/api/syncMessage', token: apiToken, payload: { limit: 1, ticketwhatsappId: w.id } });
    expect(byBearer.statusCode).toBe(200);
    expect((await bodies(ta.id)).slice(0, 3)).toEqual(['T1', 'T2', 'agora token']);

    const wrong = await t.request({ method: 'POST', url: '/api/syncMessage', payload: { limit: 1, ticketwhatsappId: w.id, token: 'not-the-token' } });
    expect(wrong.statusCode).toBe(401);
    const named = async (permissions: string[]) =>
      (await t.request({ method: 'POST', url: '/api/api-tokens', token: t.adminToken, payload: { name: `Sync ${(n += 1)}`, permissions } })).json<{ token: string }>().token;
    const withoutHistory = await t.request({ method: 'POST', url: '/api/syncMessage', token: await named(['groups']), payload: { limit: 1, ticketwhatsappId: w.id } });
    expect(withoutHistory.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    const withHistory = await t.request({ method: 'POST', url: '/api/syncMessage', token: await named(['history']), payload: { limit: 1, ticketwhatsappId: w.id } });
    expect(withHistory.statusCode).toBe(200);
  });

  it('answers ERR_VALIDATION, ERR_NO_WAPP_FOUND and, when the phone is offline, ERR_WAPP_NOT_INITIALIZED', async () => {
    const sync = (payload: Record<string, unknown>) => t.request({ method: 'POST', url: '/api/syncMessage', token: agent.token, payload });
    expect((await sync({ limit: -1, ticketwhatsappId: w.id })).json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { limit: 'INVALID' } });
    expect((await sync({ limit: 5, ticketwhatsappId: 999999 })).json()).toMatchObject({ error: 'ERR_NO_WAPP_FOUND' });
    expect((await t.request({ method: 'POST', url: '/api/syncMessage', payload: { limit: 5, ticketwhatsappId: w.id } })).statusCode).toBe(401);
    const contact = await t.createContact();
    await t.request({ method: 'POST', url: `/api/simulator/${w.id}/disconnect`, token: t.adminToken });
    expect((await sync({ limit: 5, ticketwhatsappId: w.id })).json()).toMatchObject({ error: 'ERR_WAPP_NOT_INITIALIZED' });
    expect((await importUser({ user: contact.number, limit: 5, ticketwhatsappId: w.id }, t.adminToken)).json()).toMatchObject({ error: 'ERR_WAPP_NOT_INITIALIZED' });
  });
});
