/** The ticket status table, transfers, creation, deletion and close-all. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import type { TQueue, TWhatsapp } from '@zapdesk/shared/schemas';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';

let t: TestApp;
let w: TWhatsapp;
let other: TWhatsapp;
let sales: TQueue;
let support: TQueue;
let agent: { id: number; name: string; token: string };

const inboundTicket = (body?: string): Promise<TTicket> => t.inboundTicket(w.id, body);

const put = (id: number, payload: Record<string, unknown>, token = t.adminToken) => t.request({ method: 'PUT', url: `/api/tickets/${id}`, token, payload });
const outbox = async (): Promise<TSimulatorOutboxItem[]> => (await t.request({ method: 'GET', url: `/api/simulator/${w.id}/outbox`, token: t.adminToken })).json();

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  sales = await t.createQueue({ name: 'Vendas' });
  support = await t.createQueue({ name: 'Suporte' });
  const created = await t.createUser({ name: 'Ana Agente', queueIds: [sales.id, support.id] });
  agent = { id: created.user.id, name: created.user.name, token: created.token };
  w = (await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Main', channel: 'simulator' } })).json();
  other = (await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Second', channel: 'simulator' } })).json();
  await t.request({ method: 'POST', url: `/api/simulator/${w.id}/scan`, token: t.adminToken });
});
afterAll(async () => {
  await t.close();
});

describe('status table', () => {
  it('accept, return, resolve and reopen record the acting user', async () => {
    const ticket = await inboundTicket();
    expect(ticket).toMatchObject({ status: 'pending', userId: null });
    expect((await put(ticket.id, { status: 'open' }, agent.token)).json()).toMatchObject({ status: 'open', userId: agent.id });
    expect((await put(ticket.id, { status: 'pending' }, agent.token)).json()).toMatchObject({ status: 'pending', userId: null });
    await put(ticket.id, { status: 'open' }, agent.token);
    expect((await put(ticket.id, { status: 'closed' }, agent.token)).json()).toMatchObject({ status: 'closed', userId: agent.id });
    expect((await put(ticket.id, { status: 'open' })).json()).toMatchObject({ status: 'open', user: { name: 'Admin' } });
  });
  it('refuses to reopen a ticket while the contact has another active one: ERR_OTHER_OPEN_TICKET, nothing changed', async () => {
    const ticket = await inboundTicket();
    await put(ticket.id, { status: 'open' }, agent.token);
    await put(ticket.id, { status: 'closed' }, agent.token);
    const created = await t.request({ method: 'POST', url: '/api/tickets', token: t.adminToken, payload: { contactId: ticket.contact.id, status: 'open' } });
    expect(created.statusCode).toBe(201);
    const reopen = await put(ticket.id, { status: 'open' }, agent.token);
    expect(reopen.statusCode).toBe(409);
    expect(reopen.json()).toMatchObject({ error: 'ERR_OTHER_OPEN_TICKET' });
    expect((await t.request({ method: 'GET', url: `/api/tickets/${ticket.id}`, token: t.adminToken })).json()).toMatchObject({ status: 'closed', userId: agent.id });
  });
});

describe('transfer', () => {
  it('to a queue without a user: pending and unassigned, and the contact is told the sector', async () => {
    const ticket = await inboundTicket();
    await put(ticket.id, { status: 'open' }, agent.token);
    const res = await put(ticket.id, { queueId: support.id, userId: null }, agent.token);
    expect(res.json()).toMatchObject({ status: 'pending', userId: null, queueId: support.id });
    // The notice goes out after the answer (queued outbound work): wait for it.
    await waitFor(outbox, (items) => items.some((m) => m.to === ticket.contact.number && m.body === 'Seu atendimento foi transferido para o setor *Suporte*.'));
  });

  it('to a user: open and theirs, and the contact is told who will serve', async () => {
    const ticket = await inboundTicket();
    const res = await put(ticket.id, { queueId: sales.id, userId: agent.id });
    expect(res.json()).toMatchObject({ status: 'open', userId: agent.id, queueId: sales.id });
    const notice = `Seu atendimento foi transferido para o setor *Vendas*. Quem vai te atender: *${agent.name}*.`;
    await waitFor(outbox, (items) => items.some((m) => m.to === ticket.contact.number && m.body === notice));
  });

  it('to another connection: admins only', async () => {
    const ticket = await inboundTicket();
    await put(ticket.id, { status: 'open' }, agent.token);
    const refused = await put(ticket.id, { whatsappId: other.id }, agent.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    expect((await put(ticket.id, { whatsappId: other.id })).json()).toMatchObject({ whatsappId: other.id });
  });

  it('refuses unknown users, queues and connections, and an empty body', async () => {
    const ticket = await inboundTicket();
    expect((await put(ticket.id, { userId: 999999 })).json()).toMatchObject({ error: 'ERR_NO_USER_FOUND' });
    expect((await put(ticket.id, { queueId: 999999 })).json()).toMatchObject({ error: 'ERR_NO_QUEUE_FOUND' });
    expect((await put(ticket.id, { whatsappId: 999999 })).json()).toMatchObject({ error: 'ERR_NO_WAPP_FOUND' });
    expect((await put(ticket.id, {})).json()).toMatchObject({ error: 'ERR_VALIDATION' });
  });
});

describe('create, delete, close all', () => {
  it('creates an open ticket for a contact on the default connection, once', async () => {
    const contact = await t.createContact();
    const created = await t.request({ method: 'POST', url: '/api/tickets', token: agent.token, payload: { contactId: contact.id, userId: agent.id, status: 'open' } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ status: 'open', userId: agent.id, contactId: contact.id, whatsappId: w.id });
    const again = await t.request({ method: 'POST', url: '/api/tickets', token: agent.token, payload: { contactId: contact.id } });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'ERR_OTHER_OPEN_TICKET' });
    expect((await t.request({ method: 'POST', url: '/api/tickets', token: agent.token, payload: { contactId: 999999 } })).json()).toMatchObject({ error: 'ERR_NO_CONTACT_FOUND' });
  });

  it('lets only admins delete a ticket', async () => {
    const ticket = await inboundTicket();
    const refused = await t.request({ method: 'DELETE', url: `/api/tickets/${ticket.id}`, token: agent.token });
    expect(refused.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    expect((await t.request({ method: 'DELETE', url: `/api/tickets/${ticket.id}`, token: t.adminToken })).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: `/api/tickets/${ticket.id}`, token: t.adminToken })).json()).toMatchObject({ error: 'ERR_NO_TICKET_FOUND' });
  });

  it("closes an agent's own open tickets only: the waiting ones stay for whoever takes them, and other people's are untouched", async () => {
    // The agent's earlier open tickets first.
    await t.request({ method: 'POST', url: '/api/ticketsClosed', token: agent.token });
    const waiting = await inboundTicket();
    const mine = await inboundTicket();
    expect((await put(mine.id, { status: 'open' }, agent.token)).json()).toMatchObject({ userId: agent.id });
    const theirs = await inboundTicket();
    await put(theirs.id, { status: 'open' });
    expect((await t.request({ method: 'GET', url: '/api/ticketsClosed/summary', token: agent.token })).json()).toEqual({ own: 1, waiting: 0, others: 0 });
    const res = await t.request({ method: 'POST', url: '/api/ticketsClosed', token: agent.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ closed: 1 });
    const status = async (id: number) => (await t.request({ method: 'GET', url: `/api/tickets/${id}`, token: t.adminToken })).json<{ status: string }>().status;
    expect(await status(mine.id)).toBe('closed');
    expect(await status(waiting.id)).toBe('pending');
    expect(await status(theirs.id)).toBe('open');
  });

  it("tells an admin what 'Close all' closes (own, waiting, other agents'), and with others: false leaves other agents' tickets", async () => {
    const waiting = await inboundTicket();
    const agents = await inboundTicket();
    expect((await put(agents.id, { status: 'open' }, agent.token)).json()).toMatchObject({ userId: agent.id });
    const adminsOwn = await inboundTicket();
    await put(adminsOwn.id, { status: 'open' });
    const summary = await t.request({ method: 'GET', url: '/api/ticketsClosed/summary', token: t.adminToken });
    expect(summary.statusCode).toBe(200);
    const { own, waiting: unassigned, others } = summary.json<{ own: number; waiting: number; others: number }>();
    expect(own).toBeGreaterThanOrEqual(1);
    expect(unassigned).toBeGreaterThanOrEqual(1);
    expect(others).toBeGreaterThanOrEqual(1);
    const res = await t.request({ method: 'POST', url: '/api/ticketsClosed', token: t.adminToken, payload: { others: false } });
    expect(res.json()).toEqual({ closed: own + unassigned });
    const status = async (id: number) => (await t.request({ method: 'GET', url: `/api/tickets/${id}`, token: t.adminToken })).json<{ status: string }>().status;
    expect(await status(waiting.id)).toBe('closed');
    expect(await status(adminsOwn.id)).toBe('closed');
    expect(await status(agents.id)).toBe('open');
    expect((await t.request({ method: 'GET', url: '/api/ticketsClosed/summary', token: t.adminToken })).json()).toEqual({ own: 0, waiting: 0, others });
    const bad = await t.request({ method: 'POST', url: '/api/ticketsClosed', token: t.adminToken, payload: { others: 'yes' } });
    expect(bad.statusCode).toBe(400);
  });
});
