/**
 * The `call` setting against the simulated phone: a contact calls, and the phone shows whether
 * the call was rejected and what the caller got; the inbox shows the notice in the caller's ticket.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS, type SettingKey } from '@zapdesk/shared/domain';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { TSimulatorCallItem, TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import type { TWhatsapp } from '@zapdesk/shared/schemas';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let n = 0;
const number = () => `5511${String(910000000 + (n += 1) * 7919 + Math.floor(Math.random() * 1000))}`;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
});
afterAll(async () => {
  await t.close();
});
afterEach(async () => {
  await setSetting('call', SETTINGS.call.default);
  await setSetting('callMessage', SETTINGS.callMessage.default);
});

async function setSetting(key: SettingKey, value: string): Promise<void> {
  expect((await t.request({ method: 'PUT', url: `/api/settings/${key}`, token: t.adminToken, payload: { value } })).statusCode).toBe(200);
}

async function connected(): Promise<TWhatsapp> {
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: `Calls ${(n += 1)}`, channel: 'simulator' } });
  expect(created.statusCode).toBe(201);
  const w = created.json<TWhatsapp>();
  expect((await t.request({ method: 'POST', url: `/api/simulator/${w.id}/scan`, token: t.adminToken })).statusCode).toBe(200);
  return w;
}

async function call(whatsappId: number, payload: Record<string, unknown>): Promise<TSimulatorCallItem> {
  const res = await t.request({ method: 'POST', url: `/api/simulator/${whatsappId}/calls`, token: t.adminToken, payload });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function calls(whatsappId: number): Promise<TSimulatorCallItem[]> {
  return (await t.request({ method: 'GET', url: `/api/simulator/${whatsappId}/calls`, token: t.adminToken })).json();
}

async function sentTo(whatsappId: number, to: string): Promise<TSimulatorOutboxItem[]> {
  const all = (await t.request({ method: 'GET', url: `/api/simulator/${whatsappId}/outbox`, token: t.adminToken })).json<TSimulatorOutboxItem[]>();
  return all.filter((m) => m.to === to);
}

async function ticketsOf(contactNumber: string): Promise<TTicket[]> {
  const res = await t.request({ method: 'GET', url: '/api/tickets?showAll=true', token: t.adminToken });
  return res.json<{ tickets: TTicket[] }>().tickets.filter((x) => x.contact.number === contactNumber);
}

async function messagesOf(ticketId: number): Promise<TMessage[]> {
  return (await t.request({ method: 'GET', url: `/api/messages/${ticketId}`, token: t.adminToken })).json<{ messages: TMessage[] }>().messages;
}

describe('call notice', () => {
  it('with call enabled, rejects the call and sends the caller the notice text once, in a ticket opened for them', async () => {
    await setSetting('call', 'enabled');
    await setSetting('callMessage', 'Aqui só por escrito, por favor.');
    const w = await connected();
    const from = number();

    expect(await call(w.id, { id: 'CALL-1', from })).toMatchObject({ id: 'CALL-1', from, status: 'rejected', groupId: null });
    // WhatsApp offers the same call again: it stays one call, answered once.
    expect(await call(w.id, { id: 'CALL-1', from })).toMatchObject({ id: 'CALL-1', status: 'rejected' });

    expect(await calls(w.id)).toEqual([expect.objectContaining({ id: 'CALL-1', from, status: 'rejected' })]);
    expect((await sentTo(w.id, from)).map((m) => [m.kind, m.body])).toEqual([['text', 'Aqui só por escrito, por favor.']]);
    const tickets = await ticketsOf(from);
    expect(tickets).toHaveLength(1);
    expect(tickets[0]).toMatchObject({ status: 'pending', lastMessage: 'Aqui só por escrito, por favor.', unreadMessages: 0, whatsappId: w.id, contact: { number: from } });
    const chat = await messagesOf(tickets[0]?.id ?? 0);
    expect(chat.map((m) => ({ body: m.body, fromMe: m.fromMe, sendStatus: m.sendStatus }))).toEqual([{ body: 'Aqui só por escrito, por favor.', fromMe: true, sendStatus: 'sent' }]);
    // The product's own message: no agent's answer on the dashboard.
    const stored = await t.ctx.db
      .selectFrom('messages')
      .select(['userId', 'automatic'])
      .where('ticketId', '=', tickets[0]?.id ?? 0)
      .execute();
    expect(stored.map((m) => ({ userId: m.userId, automatic: Number(m.automatic) }))).toEqual([{ userId: null, automatic: 1 }]);
  });

  it("puts the notice in the caller's open ticket, and answers each new call", async () => {
    await setSetting('call', 'enabled');
    const w = await connected();
    const from = number();
    const wrote = await t.request({ method: 'POST', url: `/api/simulator/${w.id}/inbound`, token: t.adminToken, payload: { from, name: 'Carla', body: 'oi' } });
    expect(wrote.statusCode).toBe(200);

    expect(await call(w.id, { from })).toMatchObject({ status: 'rejected' });
    expect(await call(w.id, { from, video: true })).toMatchObject({ status: 'rejected', video: true });

    const tickets = await ticketsOf(from);
    expect(tickets).toHaveLength(1);
    expect((await messagesOf(tickets[0]?.id ?? 0)).map((m) => [m.fromMe, m.body])).toEqual([
      [false, 'oi'],
      [true, SETTINGS.callMessage.default],
      [true, SETTINGS.callMessage.default],
    ]);
  });

  it('leaves group calls alone', async () => {
    await setSetting('call', 'enabled');
    const w = await connected();
    const from = number();
    expect(await call(w.id, { from, groupId: 'grp-call' })).toMatchObject({ status: 'ringing', groupId: 'grp-call' });
    expect(await sentTo(w.id, from)).toEqual([]);
    expect(await ticketsOf(from)).toEqual([]);
  });

  it('with call disabled (the default), lets the call ring and sends nothing', async () => {
    const w = await connected();
    const from = number();
    expect(await call(w.id, { id: 'CALL-OFF', from })).toMatchObject({ id: 'CALL-OFF', status: 'ringing' });
    expect(await calls(w.id)).toEqual([expect.objectContaining({ id: 'CALL-OFF', status: 'ringing' })]);
    expect(await sentTo(w.id, from)).toEqual([]);
    expect(await ticketsOf(from)).toEqual([]);
  });

  it("refuses a call from something that is not a number, and an unknown connection's, without placing it", async () => {
    const w = await connected();
    const bad = await t.request({ method: 'POST', url: `/api/simulator/${w.id}/calls`, token: t.adminToken, payload: { from: 'ligação', video: 'yes' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { from: 'DIGITS_ONLY', video: 'INVALID' } });
    const unknown = await t.request({ method: 'POST', url: '/api/simulator/999999/calls', token: t.adminToken, payload: { from: number() } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ error: string }>().error).toMatch(/^ERR_/);
    expect(await calls(w.id)).toEqual([]);
  });
});
