/** 'Protocolo' (a protocol number to the contact, then closed like Resolve) and 'Spy' (a pending ticket opened without accepting it). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import type { TQueue, TWhatsapp } from '@zapdesk/shared/schemas';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';

let t: TestApp;
let w: TWhatsapp;
let sales: TQueue;
let agent: { id: number; token: string };
let outsider: { id: number; token: string };
let colleague: { id: number; token: string };

const inboundTicket = (body?: string): Promise<TTicket> => t.inboundTicket(w.id, body);

const put = (id: number, payload: Record<string, unknown>, token = t.adminToken) => t.request({ method: 'PUT', url: `/api/tickets/${id}`, token, payload });
const protocol = (id: number, token = t.adminToken) => t.request({ method: 'POST', url: `/api/tickets/${id}/protocol`, token });
const outbox = async (): Promise<TSimulatorOutboxItem[]> => (await t.request({ method: 'GET', url: `/api/simulator/${w.id}/outbox`, token: t.adminToken })).json();
const getTicket = async (id: number): Promise<TTicket> => (await t.request({ method: 'GET', url: `/api/tickets/${id}`, token: t.adminToken })).json();

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  sales = await t.createQueue({ name: 'Vendas' });
  const other = await t.createQueue({ name: 'Outra' });
  const a = await t.createUser({ name: 'Ana Agente', queueIds: [sales.id] });
  const b = await t.createUser({ name: 'Bruno Fora', queueIds: [other.id] });
  const c = await t.createUser({ name: 'Carla Colega', queueIds: [sales.id] });
  agent = { id: a.user.id, token: a.token };
  outsider = { id: b.user.id, token: b.token };
  colleague = { id: c.user.id, token: c.token };
  w = (
    await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Main', channel: 'simulator', farewellMessage: 'Até logo, {{name}}!', queueIds: [sales.id] } })
  ).json();
  await t.request({ method: 'POST', url: `/api/simulator/${w.id}/scan`, token: t.adminToken });
});
afterAll(async () => {
  await t.close();
});

describe("'Protocolo'", () => {
  it('sends a timestamp-based protocol number to the contact, then the farewell, and closes the ticket as the caller', async () => {
    const ticket = await inboundTicket();
    await put(ticket.id, { status: 'open' }, agent.token);
    const before = new Date();
    const res = await protocol(ticket.id, agent.token);
    expect(res.statusCode).toBe(200);
    const { protocol: number, ticket: closed } = res.json<{ protocol: string; ticket: TTicket }>();
    expect(closed).toMatchObject({ id: ticket.id, status: 'closed', userId: agent.id });
    // yyyyMMddHHmmss in the server's time zone, then the ticket id.
    expect(number).toMatch(new RegExp(`^\\d{14}${ticket.id}$`));
    const local = new Date(before.getTime() - before.getTimezoneOffset() * 60_000).toISOString().slice(0, 10).replaceAll('-', '');
    expect(number.slice(0, 8)).toBe(local);
    // The farewell goes out after the answer (queued outbound work): wait for it.
    const sent = (await waitFor(outbox, (items) => items.filter((m) => m.to === ticket.contact.number).length >= 2)).filter((m) => m.to === ticket.contact.number).map((m) => m.body);
    expect(sent.slice(-2)).toEqual([`Seu atendimento foi encerrado. O número de protocolo do seu atendimento é *${number}*. Guarde-o para futuras consultas.`, `Até logo, ${ticket.contact.name}!`]);
    // Both are stored in the chat, as sent by the agent side.
    const messages = (await t.request({ method: 'GET', url: `/api/messages/${ticket.id}`, token: t.adminToken })).json().messages as { body: string; fromMe: boolean }[];
    expect(messages.filter((m) => m.fromMe).map((m) => m.body)).toContain(sent.at(-2));
    expect((await getTicket(ticket.id)).status).toBe('closed');
  });

  it('refuses a pending or closed ticket, and a ticket the caller may not see', async () => {
    const pending = await inboundTicket();
    const refused = await protocol(pending.id, agent.token);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'ERR_TICKET_NOT_OPEN' });
    await put(pending.id, { status: 'open' }, agent.token);
    expect((await protocol(pending.id, outsider.token)).json()).toMatchObject({ error: 'ERR_NO_TICKET_FOUND' });
    expect((await protocol(pending.id, colleague.token)).json()).toMatchObject({ error: 'ERR_NO_TICKET_FOUND' });
    await put(pending.id, { status: 'closed' }, agent.token);
    expect((await protocol(pending.id, agent.token)).json()).toMatchObject({ error: 'ERR_TICKET_NOT_OPEN' });
    expect((await protocol(999999)).json()).toMatchObject({ error: 'ERR_NO_TICKET_FOUND' });
    expect((await t.request({ method: 'POST', url: '/api/tickets/abc/protocol', token: t.adminToken })).statusCode).toBe(400);
    expect((await t.request({ method: 'POST', url: `/api/tickets/${pending.id}/protocol` })).statusCode).toBe(401);
  });

  it('leaves the ticket open when the protocol cannot reach the contact', async () => {
    const ticket = await inboundTicket();
    await put(ticket.id, { status: 'open' }, agent.token);
    await t.request({ method: 'POST', url: `/api/simulator/${w.id}/disconnect`, token: t.adminToken });
    const res = await protocol(ticket.id, agent.token);
    expect(res.json()).toMatchObject({ error: 'ERR_WAPP_NOT_INITIALIZED' });
    expect((await getTicket(ticket.id)).status).toBe('open');
    const restarted = await t.request({ method: 'POST', url: `/api/whatsappsession/${w.id}`, token: t.adminToken });
    expect(restarted.json()).toMatchObject({ status: 'CONNECTED' });
  });
});

describe("'Spy'", () => {
  it('opens a pending ticket in the chat without accepting it and without reading it; accepting reads it', async () => {
    const ticket = await inboundTicket('primeira');
    expect(ticket).toMatchObject({ status: 'pending', unreadMessages: 1 });
    const shown = await t.request({ method: 'GET', url: `/api/tickets/${ticket.id}`, token: agent.token });
    expect(shown.json()).toMatchObject({ id: ticket.id, status: 'pending', userId: null });
    const page = await t.request({ method: 'GET', url: `/api/messages/${ticket.id}`, token: agent.token });
    expect(page.statusCode).toBe(200);
    expect(page.json().messages.map((m: { body: string }) => m.body)).toEqual(['primeira']);
    expect(page.json().ticket).toMatchObject({ status: 'pending', unreadMessages: 1 });
    expect(await getTicket(ticket.id)).toMatchObject({ status: 'pending', userId: null, unreadMessages: 1 });
    // 'Spy' on the status table: pending stays pending.
    expect((await put(ticket.id, { status: 'pending' }, agent.token)).json()).toMatchObject({ status: 'pending', userId: null, unreadMessages: 1 });
    // Someone outside the ticket's queue cannot look in.
    expect((await t.request({ method: 'GET', url: `/api/messages/${ticket.id}`, token: outsider.token })).json()).toMatchObject({ error: 'ERR_NO_TICKET_FOUND' });
    expect((await put(ticket.id, { status: 'open' }, agent.token)).json()).toMatchObject({ status: 'open', userId: agent.id, unreadMessages: 0 });
  });

  it('reads an open ticket only for its agent: an admin looking in leaves it unread', async () => {
    const ticket = await inboundTicket('um');
    await put(ticket.id, { status: 'open' }, agent.token);
    await t.request({ method: 'POST', url: `/api/simulator/${w.id}/inbound`, token: t.adminToken, payload: { from: ticket.contact.number, body: 'dois' } });
    await expect.poll(async () => (await getTicket(ticket.id)).unreadMessages).toBe(1);
    await t.request({ method: 'GET', url: `/api/messages/${ticket.id}`, token: t.adminToken });
    expect((await getTicket(ticket.id)).unreadMessages).toBe(1);
    const page = await t.request({ method: 'GET', url: `/api/messages/${ticket.id}`, token: agent.token });
    expect(page.json().ticket).toMatchObject({ unreadMessages: 0 });
    expect((await getTicket(ticket.id)).unreadMessages).toBe(0);
  });
});
