/**
 * An SMS or call to a customer who writes on WhatsApp shows in that customer's chat (the web app
 * places `GET /contacts/{id}/phone-sends` among the messages by time): with its state, for an
 * agent who may see the chat, and never as a WhatsApp message: nothing reaches the phone's
 * outbox and the ticket's messages are unchanged.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCampaign } from '@zapdesk/shared/campaigns';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import type { TPhoneSend } from '@zapdesk/shared/vonage';
import { FakeVonage } from '../../test/fake-vonage.js';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';

const API_KEY = 'abcd1234';
const API_SECRET = 'Secret-42-vonage';
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });

let t: TestApp;
let vonage: FakeVonage;
let connectionId: number;

async function setting(key: string, value: string): Promise<void> {
  expect((await t.request({ method: 'PUT', url: `/api/settings/${key}`, token: t.adminToken, payload: { value } })).statusCode, key).toBe(200);
}
const finished = (c: TCampaign) => c.status === 'completed' || c.status === 'paused';
const campaign = (id: number) => waitFor(async () => (await t.request({ method: 'GET', url: `/api/campaigns/${id}`, token: t.adminToken })).json<TCampaign>(), finished, 30_000);
const sendsOf = (contactId: number, token: string) => t.request({ method: 'GET', url: `/api/contacts/${contactId}/phone-sends`, token });

beforeAll(async () => {
  vonage = await new FakeVonage({ apiKey: API_KEY, apiSecret: API_SECRET }).start();
  t = await createTestApp({ SIMULATOR: 'on', VONAGE_REST_URL: vonage.url, VONAGE_API_URL: vonage.url, PHONE_PACE_SECONDS: '1-1' });
  await setting('vonageApiKey', API_KEY);
  await setting('vonageApiSecret', API_SECRET);
  await setting('vonageApiId', '0f8c2e64-8d3a-4c63-9b1e-3f2a1c0d9e77');
  await setting('vonagePrivateKey', privateKey);
  await setting('vonageFrom', '5511900001111');
  connectionId = (await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Loja', channel: 'simulator' } })).json<{ id: number }>().id;
  expect((await t.request({ method: 'POST', url: `/api/simulator/${connectionId}/scan`, token: t.adminToken })).statusCode).toBe(200);
});
afterAll(async () => {
  await t.close();
  await vonage.stop();
});

describe("SMS and calls in the contact's chat", () => {
  it('lists what the contact was sent by SMS and call, with its state, for the agent on the chat, and sends nothing on WhatsApp', async () => {
    const queue = await t.createQueue({ name: 'Atendimento' });
    const agent = await t.createUser({ queueIds: [queue.id] });
    const outsider = await t.createUser({ queueIds: [(await t.createQueue({ name: 'Outra fila' })).id] });
    const ticket: TTicket = await t.inboundTicket(connectionId, 'Oi, recebi um SMS de vocês?');
    const number = ticket.contact.number;
    expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { queueId: queue.id, userId: agent.user.id, status: 'open' } })).statusCode).toBe(200);
    // What the assignment sends the contact (a notice is stored at once, queued, and reaches the
    // phone after the answer) is gone out before the phone's outbox is counted.
    let messagesBefore = 0;
    for (const until = Date.now() + 10_000; ;) {
      const messages = (await t.request({ method: 'GET', url: `/api/messages/${ticket.id}`, token: t.adminToken })).json<{ messages: TMessage[] }>().messages;
      messagesBefore = messages.length;
      if (messages.every((m) => m.sendStatus !== 'queued')) break;
      if (Date.now() > until) throw new Error(`messages still queued: ${JSON.stringify(messages.filter((m) => m.sendStatus === 'queued'))}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const outboxBefore = (await t.request({ method: 'GET', url: `/api/simulator/${connectionId}/outbox`, token: t.adminToken })).json<TSimulatorOutboxItem[]>().length;

    // Typed as people write it: '+55 (11) ...' still names the contact's number.
    const typed = `+${number.slice(0, 2)} (${number.slice(2, 4)}) ${number.slice(4, 9)}-${number.slice(9)}`;
    const sms = await t.request({ method: 'POST', url: '/api/sms', token: t.adminToken, payload: { numbers: typed, text: 'Seu pedido saiu para entrega.' } });
    expect(sms.statusCode).toBe(201);
    const call = await t.request({ method: 'POST', url: '/api/calls', token: t.adminToken, payload: { numbers: number, text: 'Olá, aqui é a loja.', language: 'pt-BR' } });
    expect(call.statusCode).toBe(201);
    expect((await campaign(sms.json<{ campaign: TCampaign }>().campaign.id)).counts).toMatchObject({ sent: 1 });
    expect((await campaign(call.json<{ campaign: TCampaign }>().campaign.id)).counts).toMatchObject({ sent: 1 });

    const res = await sendsOf(ticket.contact.id, agent.token);
    expect(res.statusCode).toBe(200);
    const sends = res.json<{ sends: TPhoneSend[] }>().sends;
    expect(sends.map((s) => [s.kind, s.text, s.status])).toEqual([
      ['call', 'Olá, aqui é a loja.', 'sent'],
      ['sms', 'Seu pedido saiu para entrega.', 'sent'],
    ]);
    // Placed by time in the chat: after the customer's first message.
    for (const send of sends) expect((send.sentAt ?? '') > ticket.createdAt).toBe(true);

    // Never on WhatsApp: no message in the ticket, nothing in the phone's outbox.
    const messagesAfter = (await t.request({ method: 'GET', url: `/api/messages/${ticket.id}`, token: t.adminToken })).json<{ messages: TMessage[] }>().messages;
    expect(messagesAfter.length).toBe(messagesBefore);
    expect(messagesAfter.map((m) => m.body)).not.toContain('Seu pedido saiu para entrega.');
    const outbox = (await t.request({ method: 'GET', url: `/api/simulator/${connectionId}/outbox`, token: t.adminToken })).json<TSimulatorOutboxItem[]>();
    expect(outbox.length).toBe(outboxBefore);

    // An agent who may not see the chat does not see what its contact was sent.
    expect((await sendsOf(ticket.contact.id, outsider.token)).statusCode).toBe(404);
  });
});
