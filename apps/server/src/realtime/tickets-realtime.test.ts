/**
 * Who hears ticket, message and connection events: a ticket's agent when assigned, else its
 * queue's agents (everyone when it has no queue), admins always; QR codes only reach admins.
 */
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { ClientToServerEvents, ServerToClientEvents } from '@zapdesk/shared/realtime';
import type { TQueue, TWhatsapp } from '@zapdesk/shared/schemas';
import { createTestApp, type TestApp } from '../test/harness.js';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type Client = { socket: ClientSocket; events: { event: string; payload: unknown }[] };

let t: TestApp;
let url: string;
let q1: TQueue;
let q2: TQueue;
let agent1: { id: number; token: string };
let agent2: { id: number; token: string };
const sockets: ClientSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  url = await t.listen();
  q1 = await t.createQueue({ name: 'Q1' });
  q2 = await t.createQueue({ name: 'Q2' });
  const a = await t.createUser({ queueIds: [q1.id] });
  const b = await t.createUser({ queueIds: [q2.id] });
  agent1 = { id: a.user.id, token: a.token };
  agent2 = { id: b.user.id, token: b.token };
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});
afterAll(async () => {
  await t.close();
});

async function connect(token: string): Promise<Client> {
  const socket: ClientSocket = connectSocket(url, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
  sockets.push(socket);
  const events: Client['events'] = [];
  socket.onAny((event: string, payload: unknown) => events.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  // What the web app joins: the notification room and every status list.
  await socket.emitWithAck('joinNotification');
  for (const status of ['pending', 'open', 'closed']) await socket.emitWithAck('joinTickets', status);
  return { socket, events };
}

async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const ticketEventsFor = (c: Client, number: string) => c.events.filter((e) => (e.event === 'ticket' || e.event === 'appMessage') && JSON.stringify(e.payload).includes(number));

async function simulator(body: Record<string, unknown>): Promise<TWhatsapp> {
  const w = (await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { channel: 'simulator', ...body } })).json<TWhatsapp>();
  await t.request({ method: 'POST', url: `/api/simulator/${w.id}/scan`, token: t.adminToken });
  return w;
}

it('sends a queue-less ticket to everyone, a queued one to its queue and admins, an assigned one to its agent and admins', async () => {
  const [admin, a1, a2] = [await connect(t.adminToken), await connect(agent1.token), await connect(agent2.token)];
  const open = await simulator({ name: 'No queue' });
  await t.request({ method: 'POST', url: `/api/simulator/${open.id}/inbound`, token: t.adminToken, payload: { from: '5511900000001', body: 'hello all' } });
  await until(() => [admin, a1, a2].every((c) => ticketEventsFor(c, '5511900000001').some((e) => e.event === 'appMessage')));

  const queued = await simulator({ name: 'Queue one', queueIds: [q1.id] });
  await t.request({ method: 'POST', url: `/api/simulator/${queued.id}/inbound`, token: t.adminToken, payload: { from: '5511900000002', body: 'for Q1' } });
  await until(() => ticketEventsFor(a1, '5511900000002').some((e) => e.event === 'ticket' && (e.payload as { ticket: TTicket }).ticket.queueId === q1.id));
  await until(() => ticketEventsFor(admin, '5511900000002').length > 0);

  const ticket = (await t.request({ method: 'GET', url: '/api/tickets?showAll=true', token: t.adminToken })).json().tickets.find((x: TTicket) => x.contact.number === '5511900000002') as TTicket;
  await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: agent1.token, payload: { status: 'open' } });
  await t.request({ method: 'POST', url: `/api/messages/${ticket.id}`, token: agent1.token, payload: { body: 'assigned reply' } });
  await until(() => a1.events.some((e) => e.event === 'appMessage' && JSON.stringify(e.payload).includes('assigned reply')));
  await until(() => admin.events.some((e) => e.event === 'appMessage' && JSON.stringify(e.payload).includes('assigned reply')));
  // A marker every socket hears proves agent2's socket has caught up before we assert absence.
  await t.request({ method: 'POST', url: `/api/simulator/${open.id}/inbound`, token: t.adminToken, payload: { from: '5511900000001', body: 'marker' } });
  await until(() => a2.events.some((e) => JSON.stringify(e.payload).includes('marker')));
  expect(ticketEventsFor(a2, '5511900000002')).toHaveLength(0);
});

it("tells every screen of the ticket's audience that it was read (updateUnread), and nobody else", async () => {
  const [admin, a1, a2] = [await connect(t.adminToken), await connect(agent1.token), await connect(agent2.token)];
  const line = await simulator({ name: 'Read me', queueIds: [q1.id] });
  await t.request({ method: 'POST', url: `/api/simulator/${line.id}/inbound`, token: t.adminToken, payload: { from: '5511900000003', body: 'unread one' } });
  await until(() => ticketEventsFor(a1, '5511900000003').some((e) => e.event === 'appMessage'));
  const ticket = (await t.request({ method: 'GET', url: '/api/tickets?showAll=true', token: t.adminToken })).json().tickets.find((x: TTicket) => x.contact.number === '5511900000003') as TTicket;
  // Agent 1 takes it, the contact writes again, and agent 1 reads it on one device.
  await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: agent1.token, payload: { status: 'open' } });
  await t.request({ method: 'POST', url: `/api/simulator/${line.id}/inbound`, token: t.adminToken, payload: { from: '5511900000003', body: 'unread two' } });
  await until(() => a1.events.some((e) => e.event === 'appMessage' && JSON.stringify(e.payload).includes('unread two')));
  const read = (c: Client) => c.events.some((e) => e.event === 'ticket' && JSON.stringify(e.payload) === JSON.stringify({ action: 'updateUnread', ticketId: ticket.id }));
  expect(read(a1)).toBe(false);
  expect((await t.request({ method: 'GET', url: `/api/messages/${ticket.id}`, token: agent1.token })).statusCode).toBe(200);
  await until(() => read(a1) && read(admin));
  // A queue-less ticket every socket hears proves agent 2's socket has caught up.
  const everyone = await simulator({ name: 'Everyone' });
  await t.request({ method: 'POST', url: `/api/simulator/${everyone.id}/inbound`, token: t.adminToken, payload: { from: '5511900000004', body: 'marker two' } });
  await until(() => a2.events.some((e) => JSON.stringify(e.payload).includes('marker two')));
  expect(read(a2)).toBe(false);
});

it('sends the QR code to admins only', async () => {
  const [admin, a1] = [await connect(t.adminToken), await connect(agent1.token)];
  await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { channel: 'simulator', name: 'QR please' } });
  const qrOf = (c: Client) =>
    c.events.flatMap((e) => (e.event === 'whatsappSession' ? [(e.payload as { session: { status: string; qrcode: string } }).session] : [])).find((s) => s.status === 'qrcode');
  await until(() => qrOf(admin) !== undefined && qrOf(a1) !== undefined);
  expect(qrOf(admin)?.qrcode).toMatch(/^SIM-/);
  expect(qrOf(a1)?.qrcode).toBe('');
});
