/** Replies are stored before they are sent, and their send is recorded: queued, sent or failed. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { nowIso } from '../../core/time.js';
import { requeueInterrupted } from './outbox.repository.js';
import { sendDueJobs } from './outbound.service.js';

let t: TestApp;
let connectionId: number;
let n = 0;

async function openTicketFrom(from: string): Promise<TTicket> {
  const sent = await t.request({ method: 'POST', url: `/api/simulator/${connectionId}/inbound`, token: t.adminToken, payload: { from, name: `Cliente ${(n += 1)}`, body: 'oi' } });
  expect(sent.statusCode).toBe(200);
  const list = (await t.request({ method: 'GET', url: `/api/tickets?showAll=true&searchParam=${from}`, token: t.adminToken })).json<{ tickets: TTicket[] }>().tickets;
  const ticket = list.find((x) => x.contact.number === from);
  if (!ticket) throw new Error(`no ticket for ${from}`);
  expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open' } })).statusCode).toBe(200);
  return ticket;
}

async function phoneOutbox(): Promise<TSimulatorOutboxItem[]> {
  return (await t.request({ method: 'GET', url: `/api/simulator/${connectionId}/outbox`, token: t.adminToken })).json();
}

async function chat(ticketId: number): Promise<TMessage[]> {
  return (await t.request({ method: 'GET', url: `/api/messages/${ticketId}`, token: t.adminToken })).json<{ messages: TMessage[] }>().messages;
}

async function storedRow(body: string) {
  return t.ctx.db
    .selectFrom('messages')
    .innerJoin('outbox', 'outbox.messageId', 'messages.id')
    .select(['messages.id', 'messages.providerId', 'messages.sendStatus', 'messages.ack', 'outbox.status as jobStatus', 'outbox.providerId as jobProviderId'])
    .where('messages.body', '=', body)
    .executeTakeFirstOrThrow();
}

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Queue phone', channel: 'simulator', isDefault: true } });
  connectionId = created.json<{ id: number }>().id;
  await t.request({ method: 'POST', url: `/api/simulator/${connectionId}/scan`, token: t.adminToken });
});
afterAll(async () => {
  await t.close();
});

describe('outbound queue', () => {
  it('stores a reply as queued, under the id it goes out with, before the channel sees it; then records it sent', async () => {
    const ticket = await openTicketFrom('5511960000001');
    const seen: Pick<TMessage, 'body' | 'sendStatus' | 'ack'>[] = [];
    const off = t.ctx.events.subscribe('message.saved', ({ message }) => {
      if (message.fromMe) seen.push({ body: message.body, sendStatus: message.sendStatus, ack: message.ack });
    });
    const res = await t.request({ method: 'POST', url: `/api/messages/${ticket.id}`, token: t.adminToken, payload: { body: 'Já vejo isso' } });
    off();
    expect(res.statusCode).toBe(201);
    expect(res.json<TMessage[]>()[0]).toMatchObject({ body: 'Já vejo isso', sendStatus: 'sent', sendError: null });
    // The chat heard of it first as waiting (clock), then as sent.
    expect(seen[0]).toEqual({ body: 'Já vejo isso', sendStatus: 'queued', ack: 0 });
    expect(seen.at(-1)).toMatchObject({ sendStatus: 'sent', ack: 1 });
    const row = await storedRow('Já vejo isso');
    expect(row).toMatchObject({ sendStatus: 'sent', jobStatus: 'sent', jobProviderId: row.providerId });
    expect((await phoneOutbox()).filter((o) => o.id === row.providerId)).toHaveLength(1);
  });

  it('keeps a reply the channel refuses as failed, answers with its error, and sends it on retry once the number is right', async () => {
    // Numbers starting with 000 have no account on the simulated network.
    const ticket = await openTicketFrom('0001234567');
    const res = await t.request({ method: 'POST', url: `/api/messages/${ticket.id}`, token: t.adminToken, payload: { body: 'Alguém aí?' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_WAPP_INVALID_CONTACT' });
    const failed = (await chat(ticket.id)).find((m) => m.body === 'Alguém aí?');
    expect(failed).toMatchObject({ fromMe: true, sendStatus: 'failed', sendError: 'ERR_WAPP_INVALID_CONTACT', ack: 0 });
    if (!failed) return;
    // The answer names the stored message, so a client knows it is in the chat, with Retry.
    expect(res.json()).toMatchObject({ messageId: failed.id });

    const again = await t.request({ method: 'POST', url: `/api/messages/${failed.id}/retry`, token: t.adminToken });
    expect(again.json()).toMatchObject({ error: 'ERR_WAPP_INVALID_CONTACT' });

    const fixed = await t.request({ method: 'PUT', url: `/api/contacts/${ticket.contactId}`, token: t.adminToken, payload: { name: ticket.contact.name, number: '5511960000099' } });
    expect(fixed.statusCode).toBe(200);
    const retried = await t.request({ method: 'POST', url: `/api/messages/${failed.id}/retry`, token: t.adminToken });
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ id: failed.id, sendStatus: 'sent', sendError: null, ack: 1 });
    const row = await storedRow('Alguém aí?');
    expect((await phoneOutbox()).filter((o) => o.id === row.providerId)).toMatchObject([{ to: '5511960000099', body: 'Alguém aí?' }]);

    // A sent message is not sent again.
    const twice = await t.request({ method: 'POST', url: `/api/messages/${failed.id}/retry`, token: t.adminToken });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({ error: 'ERR_MESSAGE_NOT_FAILED' });
  });

  it("refuses a retry of a message that is not one's own failed reply, or of a ticket the caller may not see", async () => {
    const ticket = await openTicketFrom('5511960000002');
    const incoming = (await chat(ticket.id)).find((m) => !m.fromMe);
    if (!incoming) throw new Error('no incoming message');
    const res = await t.request({ method: 'POST', url: `/api/messages/${incoming.id}/retry`, token: t.adminToken });
    expect(res.json()).toMatchObject({ error: 'ERR_MESSAGE_NOT_FAILED' });
    const missing = await t.request({ method: 'POST', url: '/api/messages/999999/retry', token: t.adminToken });
    expect(missing.json()).toMatchObject({ error: 'ERR_NO_MESSAGE_FOUND' });
    const stranger = await t.createUser({ queueIds: [(await t.createQueue()).id] });
    // To them it is a message that does not exist.
    const refused = await t.request({ method: 'POST', url: `/api/messages/${incoming.id}/retry`, token: stranger.token });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ error: 'ERR_NO_MESSAGE_FOUND' });
    expect((await t.request({ method: 'POST', url: `/api/messages/${incoming.id}/retry` })).statusCode).toBe(401);
  });

  it('sends again, under the same id, a reply a crash left mid-send: the phone keeps one copy and the reply is recorded sent', async () => {
    const ticket = await openTicketFrom('5511960000003');
    const res = await t.request({ method: 'POST', url: `/api/messages/${ticket.id}`, token: t.adminToken, payload: { body: 'Enviando...' } });
    expect(res.statusCode).toBe(201);
    const row = await storedRow('Enviando...');
    // As a crash would leave it: handed to the phone, the result never recorded.
    await t.ctx.db.updateTable('outbox').set({ status: 'sending' }).where('messageId', '=', row.id).execute();
    await t.ctx.db.updateTable('messages').set({ sendStatus: 'queued', ack: 0 }).where('id', '=', row.id).execute();

    expect(await requeueInterrupted(t.ctx.db, nowIso())).toBe(1);
    expect(await sendDueJobs(t.ctx, t.sessions, 100)).toBe(1);
    expect(await storedRow('Enviando...')).toMatchObject({ sendStatus: 'sent', jobStatus: 'sent' });
    expect((await phoneOutbox()).filter((o) => o.id === row.providerId)).toHaveLength(1);
    expect(await sendDueJobs(t.ctx, t.sessions, 100)).toBe(0);
  });

  it('refuses a reply while the phone is offline and stores nothing', async () => {
    const ticket = await openTicketFrom('5511960000004');
    const before = (await chat(ticket.id)).length;
    await t.request({ method: 'POST', url: `/api/simulator/${connectionId}/disconnect`, token: t.adminToken });
    try {
      const res = await t.request({ method: 'POST', url: `/api/messages/${ticket.id}`, token: t.adminToken, payload: { body: 'Offline' } });
      expect(res.json()).toMatchObject({ error: 'ERR_WAPP_NOT_INITIALIZED' });
      expect(await chat(ticket.id)).toHaveLength(before);
    } finally {
      await t.request({ method: 'POST', url: `/api/whatsappsession/${connectionId}`, token: t.adminToken });
    }
  });
});
