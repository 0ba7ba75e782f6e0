/**
 * Reactions and edits that people make on their phones, through the simulated phone: stored on
 * the message they concern, published live as a message update, and never taken for a message.
 */
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { ClientToServerEvents, ServerToClientEvents } from '@zapdesk/shared/realtime';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import type { TWhatsapp } from '@zapdesk/shared/schemas';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type MessageEvent = { action: string; message: TMessage };

let t: TestApp;
let url: string;
let w: TWhatsapp;
let n = 0;
const sockets: ClientSocket[] = [];
const customer = () => `5511977${String(100000 + (n += 1) * 37 + (process.pid % 1000)).padStart(6, '0')}`;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  url = await t.listen();
  w = (await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Loja', channel: 'simulator' } })).json<TWhatsapp>();
  expect((await t.request({ method: 'POST', url: `/api/simulator/${w.id}/scan`, token: t.adminToken })).statusCode).toBe(200);
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});
afterAll(async () => {
  await t.close();
});

/** An admin's screen: the message updates it hears. */
async function screen(): Promise<MessageEvent[]> {
  const socket: ClientSocket = connectSocket(url, { path: '/socket.io', auth: { token: t.adminToken }, transports: ['websocket'], reconnection: false, forceNew: true });
  sockets.push(socket);
  const heard: MessageEvent[] = [];
  socket.on('appMessage', (payload) => heard.push(payload as MessageEvent));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  await socket.emitWithAck('joinNotification');
  return heard;
}

function simulator(path: string, payload: Record<string, unknown>) {
  return t.request({ method: 'POST', url: `/api/simulator/${w.id}/${path}`, token: t.adminToken, payload });
}

async function messagesOf(ticketId: number): Promise<TMessage[]> {
  return (await t.request({ method: 'GET', url: `/api/messages/${ticketId}`, token: t.adminToken })).json<{ messages: TMessage[] }>().messages;
}

async function ticketOf(id: number): Promise<TTicket> {
  return (await t.request({ method: 'GET', url: `/api/tickets/${id}`, token: t.adminToken })).json<TTicket>();
}

/** A customer writes; the agent opens the ticket and answers: the answer's id as the phone received it. */
async function conversation(from: string): Promise<{ ticket: TTicket; answer: TMessage; answerProviderId: string }> {
  expect((await simulator('inbound', { id: `C-${from}`, from, name: 'Maria Souza', body: 'Quanto custa?' })).statusCode).toBe(200);
  const ticket = await waitFor(
    async () => (await t.request({ method: 'GET', url: `/api/tickets?showAll=true&searchParam=${from}`, token: t.adminToken })).json<{ tickets: TTicket[] }>().tickets,
    (list) => list.some((x) => x.contact.number === from),
  ).then((list) => list.find((x) => x.contact.number === from));
  if (!ticket) throw new Error('no ticket');
  await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open' } });
  const sent = await t.request({ method: 'POST', url: `/api/messages/${ticket.id}`, token: t.adminToken, payload: { body: 'Custa R$ 150' } });
  expect(sent.statusCode).toBe(201);
  const [answer] = sent.json<TMessage[]>();
  if (!answer) throw new Error('no answer');
  const outbox = await waitFor(
    async () => (await t.request({ method: 'GET', url: `/api/simulator/${w.id}/outbox`, token: t.adminToken })).json<TSimulatorOutboxItem[]>(),
    (items) => items.some((o) => o.to === from && o.body === 'Custa R$ 150'),
  );
  const received = outbox.find((o) => o.to === from && o.body === 'Custa R$ 150');
  if (!received) throw new Error('not received');
  return { ticket: await ticketOf(ticket.id), answer, answerProviderId: received.id };
}

describe('reactions from the phone', () => {
  it("shows the customer's reaction on the agent's message live, replaced by a new one and gone when taken away", async () => {
    const from = customer();
    const { ticket, answer, answerProviderId } = await conversation(from);
    const heard = await screen();
    // The answer's updates as the screen hears them (its delivery acks too), each with its reactions.
    const shown = () => heard.filter((e) => e.action === 'update' && e.message.id === answer.id).map((e) => JSON.stringify(e.message.reactions));
    const maria = (emoji: string) => JSON.stringify([{ emoji, fromMe: false, senderName: 'Maria Souza' }]);

    expect((await simulator('reaction', { id: answerProviderId, from, name: 'Maria', emoji: '❤️' })).statusCode).toBe(200);
    await waitFor(
      async () => shown(),
      (u) => u.includes(maria('❤️')),
    );

    await simulator('reaction', { id: answerProviderId, from, emoji: '👍' });
    await waitFor(
      async () => shown(),
      (u) => u.includes(maria('👍')),
    );
    expect((await messagesOf(ticket.id)).find((m) => m.id === answer.id)?.reactions).toEqual([{ emoji: '👍', fromMe: false, senderName: 'Maria Souza' }]);

    await simulator('reaction', { id: answerProviderId, from, emoji: '' });
    await waitFor(
      async () => shown(),
      (u) => u.lastIndexOf('[]') > u.lastIndexOf(maria('👍')),
    );
    expect((await messagesOf(ticket.id)).find((m) => m.id === answer.id)?.reactions).toEqual([]);

    // A reaction is no message: the ticket's list line, unread count and status stay as they were.
    const after = await ticketOf(ticket.id);
    expect(after).toMatchObject({ status: ticket.status, unreadMessages: ticket.unreadMessages, lastMessage: ticket.lastMessage, preview: ticket.preview });
    expect(await messagesOf(ticket.id)).toHaveLength(2);
  });

  it("does not reopen a resolved ticket nor count as unread when the customer reacts after 'Resolver'", async () => {
    const from = customer();
    const { ticket, answer, answerProviderId } = await conversation(from);
    expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'closed' } })).statusCode).toBe(200);
    const heard = await screen();
    await simulator('reaction', { id: answerProviderId, from, emoji: '🙏' });
    await waitFor(
      async () => heard,
      (h) => h.some((e) => e.message.id === answer.id && e.message.reactions.length === 1),
    );
    expect(await ticketOf(ticket.id)).toMatchObject({ status: 'closed', unreadMessages: 0 });
    const open = (await t.request({ method: 'GET', url: `/api/tickets?showAll=true&searchParam=${from}&status=open`, token: t.adminToken })).json<{ tickets: TTicket[] }>();
    expect(open.tickets.filter((x) => x.contact.number === from)).toEqual([]);
  });

  it('keeps one reaction per person: the own phone and several group members each have theirs', async () => {
    expect((await t.request({ method: 'PUT', url: '/api/settings/CheckMsgIsGroup', token: t.adminToken, payload: { value: 'disabled' } })).statusCode).toBe(200);
    const group = { id: '120363111111111111', subject: 'Clientes VIP' };
    const [ana, bia] = [customer(), customer()];
    await simulator('inbound', { id: 'GRP-MSG-1', from: ana, name: 'Ana', body: 'Chegou o pedido!', group });
    const ticket = await waitFor(
      async () => (await t.request({ method: 'GET', url: '/api/tickets?showAll=true', token: t.adminToken })).json<{ tickets: TTicket[] }>().tickets,
      (list) => list.some((x) => x.contact.name === 'Clientes VIP'),
    ).then((list) => list.find((x) => x.contact.name === 'Clientes VIP'));
    if (!ticket) throw new Error('no group ticket');
    const heard = await screen();
    await simulator('reaction', { id: 'GRP-MSG-1', from: bia, name: 'Bia', emoji: '🎉' });
    await simulator('reaction', { id: 'GRP-MSG-1', from: ana, name: 'Ana', emoji: '😂' });
    await simulator('reaction', { id: 'GRP-MSG-1', from: bia, name: 'Bia', emoji: '❤️' });
    await simulator('reaction', { id: 'GRP-MSG-1', from: ana, emoji: '👍', fromMe: true });
    await waitFor(
      async () => heard,
      (h) => h.some((e) => e.message.reactions.some((r) => r.fromMe)),
    );
    const [stored] = (await messagesOf(ticket.id)).filter((m) => m.body === 'Chegou o pedido!');
    expect(stored?.reactions).toEqual([
      { emoji: '❤️', fromMe: false, senderName: 'Bia' },
      { emoji: '😂', fromMe: false, senderName: 'Ana' },
      { emoji: '👍', fromMe: true },
    ]);
  });

  it('ignores a reaction to a message the inbox does not have', async () => {
    const from = customer();
    const { ticket, answer, answerProviderId } = await conversation(from);
    const heard = await screen();
    expect((await simulator('reaction', { id: 'NOT-IN-THE-INBOX', from, emoji: '❤️' })).statusCode).toBe(200);
    // Then one to a message it has: reactions apply in the order they arrive, so once this one is
    // shown the first was handled, and it changed nothing.
    await simulator('reaction', { id: answerProviderId, from, emoji: '😮' });
    const ofThisChat = () => heard.filter((e) => e.message.ticketId === ticket.id && e.message.reactions.length > 0);
    await waitFor(
      async () => ofThisChat(),
      (h) => h.length > 0,
    );
    // (The answer's later delivery acks carry its reaction too.)
    expect(new Set(ofThisChat().map((e) => JSON.stringify([e.message.id, e.message.reactions.map((r) => r.emoji)])))).toEqual(new Set([JSON.stringify([answer.id, ['😮']])]));
    expect((await messagesOf(ticket.id)).map((m) => m.reactions.map((r) => r.emoji))).toEqual([[], ['😮']]);
  });

  it('refuses a reaction longer than one emoji, and a missing target, with ERR_VALIDATION', async () => {
    const tooLong = await simulator('reaction', { id: 'X', from: customer(), emoji: '😀'.repeat(40) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    expect((await simulator('reaction', { from: customer(), emoji: '😀' })).statusCode).toBe(400);
  });
});

describe('edits from the phone', () => {
  it("shows the customer's edited text live, marked edited, in the chat and on the ticket's line", async () => {
    const from = customer();
    expect((await simulator('inbound', { id: `E-${from}`, from, name: 'Carla', body: 'Meu pedido é o 1234' })).statusCode).toBe(200);
    const ticket = await waitFor(
      async () => (await t.request({ method: 'GET', url: `/api/tickets?showAll=true&searchParam=${from}`, token: t.adminToken })).json<{ tickets: TTicket[] }>().tickets,
      (list) => list.some((x) => x.contact.number === from),
    ).then((list) => list.find((x) => x.contact.number === from));
    if (!ticket) throw new Error('no ticket');
    const heard = await screen();
    expect((await simulator('edit', { id: `E-${from}`, body: 'Meu pedido é o 1243' })).statusCode).toBe(200);
    const [update] = await waitFor(
      async () => heard.filter((e) => e.action === 'update' && e.message.ticketId === ticket.id),
      (h) => h.length > 0,
    );
    expect(update?.message).toMatchObject({ body: 'Meu pedido é o 1243', isEdited: true, reactions: [] });
    expect(await messagesOf(ticket.id)).toEqual([expect.objectContaining({ body: 'Meu pedido é o 1243', isEdited: true })]);
    expect((await ticketOf(ticket.id)).lastMessage).toBe('Meu pedido é o 1243');
  });
});
