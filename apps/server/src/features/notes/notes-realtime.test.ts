/**
 * Notes and mentions live, on real sockets: the mentioned colleague's sockets alone hear the
 * mention; our app's chat hears the note; whaticket's frontend (the /api namespace) never does.
 */
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { ClientToServerEvents, ServerToClientEvents } from '@zapdesk/shared/realtime';
import type { TQueue, TWhatsapp } from '@zapdesk/shared/schemas';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';

type Heard = { event: string; payload: unknown }[];
type Person = { id: number; token: string };
let t: TestApp;
let url: string;
let sales: TQueue;
let w: TWhatsapp;
let ana: Person;
let bruno: Person;
let carla: Person;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  url = await t.listen();
  sales = await t.createQueue({ name: 'Sales' });
  const support = await t.createQueue({ name: 'Support' });
  const person = async (queueIds: number[], name: string) => t.createUser({ queueIds, name }).then((u) => ({ id: u.user.id, token: u.token }));
  ana = await person([sales.id], 'Ana');
  bruno = await person([support.id], 'Bruno');
  carla = await person([support.id], 'Carla');
  w = (await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Main', channel: 'simulator', queueIds: [sales.id] } })).json();
  await t.request({ method: 'POST', url: `/api/simulator/${w.id}/scan`, token: t.adminToken });
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});
afterAll(async () => {
  await t.close();
});

/** Our app's socket (main namespace), or whaticket's (the /api namespace, token in the query). */
async function listen(token: string, form: 'zapdesk' | 'whaticket' = 'zapdesk'): Promise<{ socket: Socket<ServerToClientEvents, ClientToServerEvents>; heard: Heard }> {
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> =
    form === 'zapdesk'
      ? connectSocket(url, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true })
      : connectSocket(`${url}/api`, { transports: ['websocket'], query: { token }, reconnection: false, forceNew: true });
  sockets.push(socket);
  const heard: Heard = [];
  socket.onAny((event: string, payload: unknown) => heard.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return { socket, heard };
}

const has = (heard: Heard, event: string, text: string) => heard.some((h) => h.event === event && JSON.stringify(h.payload).includes(text));

describe('notes and mentions live', () => {
  it('tells the mentioned colleague alone; our chat hears the note, whaticket never does', async () => {
    const ticket = await t.inboundTicket(w.id, 'bom dia');
    await waitFor(
      async () => (await t.request({ method: 'GET', url: `/api/tickets/${ticket.id}`, token: t.adminToken })).json<TTicket>(),
      (x) => x.queueId === sales.id,
    );
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: ana.token, payload: { status: 'open' } });
    const brunoApp = await listen(bruno.token);
    const carlaApp = await listen(carla.token);
    const anaApp = await listen(ana.token);
    expect(await anaApp.socket.emitWithAck('joinChatBox', ticket.id)).toEqual({ ok: true });
    const whaticket = await listen(t.adminToken, 'whaticket');
    whaticket.socket.emit('joinChatBox', String(ticket.id));
    whaticket.socket.emit('joinNotification');
    await vi.waitFor(
      async () => {
        const server = (await t.io.of('/api').fetchSockets()).find((s) => s.id === whaticket.socket.id);
        expect([...(server?.rooms ?? [])].some((room) => room.startsWith('notification@'))).toBe(true);
      },
      { timeout: 3000, interval: 20 },
    );

    const res = await t.request({ method: 'POST', url: `/api/tickets/${ticket.id}/notes`, token: ana.token, payload: { body: '@Bruno olha esse cliente', mentionUserIds: [bruno.id] } });
    expect(res.statusCode).toBe(201);
    await vi.waitFor(() => expect(has(brunoApp.heard, 'mention', '@Bruno olha esse cliente')).toBe(true), { timeout: 4000, interval: 20 });
    expect(brunoApp.heard.find((h) => h.event === 'mention')?.payload).toMatchObject({ action: 'create', mention: { ticketId: ticket.id, open: true, by: { name: 'Ana' } } });
    await vi.waitFor(() => expect(has(anaApp.heard, 'appMessage', '"isNote":true')).toBe(true), { timeout: 4000, interval: 20 });

    // Bruno opens the chat through his mention: the next note reaches it live, once.
    expect(await brunoApp.socket.emitWithAck('joinChatBox', ticket.id)).toEqual({ ok: true });
    await t.request({ method: 'POST', url: `/api/tickets/${ticket.id}/notes`, token: ana.token, payload: { body: 'segunda nota da Ana' } });
    await vi.waitFor(() => expect(has(brunoApp.heard, 'appMessage', 'segunda nota da Ana')).toBe(true), { timeout: 4000, interval: 20 });
    await vi.waitFor(() => expect(has(anaApp.heard, 'appMessage', 'segunda nota da Ana')).toBe(true), { timeout: 4000, interval: 20 });
    expect(brunoApp.heard.filter((h) => h.event === 'appMessage' && JSON.stringify(h.payload).includes('segunda nota da Ana'))).toHaveLength(1);
    expect(has(carlaApp.heard, 'appMessage', 'segunda nota da Ana')).toBe(false);

    // A reply after the note reaches whaticket's screens: by then the note would have, had it been sent.
    await t.request({ method: 'POST', url: `/api/messages/${ticket.id}`, token: ana.token, payload: { body: 'Já verifico' } });
    await vi.waitFor(() => expect(has(whaticket.heard, 'appMessage', 'Já verifico')).toBe(true), { timeout: 4000, interval: 20 });
    expect(has(whaticket.heard, 'appMessage', 'olha esse cliente')).toBe(false);
    expect(whaticket.heard.some((h) => h.event === 'mention')).toBe(false);
    // The mention went to Bruno's sockets only; marking it done is heard live too.
    const mentionId = (brunoApp.heard.find((h) => h.event === 'mention')?.payload as { mention: { id: number } }).mention.id;
    await t.request({ method: 'PUT', url: `/api/mentions/${mentionId}/done`, token: bruno.token });
    await vi.waitFor(() => expect(brunoApp.heard.some((h) => h.event === 'mention' && JSON.stringify(h.payload).includes('"open":false'))).toBe(true), { timeout: 4000, interval: 20 });
    expect(carlaApp.heard.some((h) => h.event === 'mention')).toBe(false);
    expect(anaApp.heard.some((h) => h.event === 'mention')).toBe(false);
  });
});
