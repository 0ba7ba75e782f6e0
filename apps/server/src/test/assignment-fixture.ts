/**
 * Test fixture for auto-assignment: a queue on a simulator connection, agents of the queue who go
 * online (a realtime socket, as the app opens one) and offline, customers who write in.
 */
import { io as connectSocket, type Socket } from 'socket.io-client';
import { vi } from 'vitest';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { ClientToServerEvents, ServerToClientEvents } from '@zapdesk/shared/realtime';
import type { TestApp } from './harness.js';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type Agent = { id: number; name: string; token: string; socket?: ClientSocket; heard: TTicket[] };

let customers = 0;

/** A São Paulo mobile number no other test uses. */
export function customerNumber(): string {
  customers += 1;
  return `55119${String(process.pid % 10000).padStart(4, '0')}${String(7000 + customers).padStart(4, '0')}`;
}

export async function queueOnConnection(t: TestApp, name: string): Promise<{ queueId: number; whatsappId: number }> {
  const queue = await t.createQueue({ name });
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: `Linha ${name}`, channel: 'simulator', queueIds: [queue.id] } });
  if (created.statusCode !== 200 && created.statusCode !== 201) throw new Error(`connection: ${created.statusCode} ${created.body}`);
  const whatsappId = created.json<{ id: number }>().id;
  const scan = await t.request({ method: 'POST', url: `/api/simulator/${whatsappId}/scan`, token: t.adminToken });
  if (scan.statusCode !== 200) throw new Error(`scan: ${scan.statusCode}`);
  return { queueId: queue.id, whatsappId };
}

export async function turnOn(t: TestApp, queueId: number, maxPerAgent: number, enabled = true): Promise<void> {
  const res = await t.request({ method: 'PUT', url: `/api/queue/${queueId}/assignment`, token: t.adminToken, payload: { enabled, maxPerAgent } });
  if (res.statusCode !== 200) throw new Error(`assignment: ${res.statusCode} ${res.body}`);
}

export async function agentsOf(t: TestApp, queueId: number, names: string[]): Promise<Agent[]> {
  const agents: Agent[] = [];
  for (const name of names) {
    const { user, token } = await t.createUser({ name, queueIds: [queueId] });
    agents.push({ id: user.id, name, token, heard: [] });
  }
  return agents;
}

/** The agent opens the app on `url` (one node's address): online, listening to 'Atendendo'. */
export async function goOnline(url: string, agent: Agent): Promise<void> {
  const socket: ClientSocket = connectSocket(url, { path: '/socket.io', auth: { token: agent.token }, transports: ['websocket'], reconnection: false, forceNew: true });
  socket.on('ticket', (event) => {
    if (event.action === 'update') agent.heard.push(event.ticket);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  await new Promise<void>((resolve) => socket.emit('joinTickets', 'open', () => resolve()));
  agent.socket = socket;
}

/** The agent closes the app; resolves once nobody sees them online any more. */
export async function goOffline(t: TestApp, agent: Agent): Promise<void> {
  agent.socket?.close();
  delete agent.socket;
  await vi.waitFor(async () => {
    if ((await t.ctx.presence.onlineUserIds()).includes(agent.id)) throw new Error(`${agent.name} still online`);
  });
}

/** A new customer writes on the connection; resolves with the ticket once `settled` holds for it. */
export async function customerWrites(t: TestApp, whatsappId: number, settled: (ticket: TTicket) => boolean = () => true, from = customerNumber()): Promise<TTicket> {
  const sent = await t.request({
    method: 'POST',
    url: `/api/simulator/${whatsappId}/inbound`,
    token: t.adminToken,
    payload: { from, name: `Cliente ${from.slice(-4)}`, body: 'Olá, preciso de ajuda' },
  });
  if (sent.statusCode !== 200) throw new Error(`inbound: ${sent.statusCode} ${sent.body}`);
  return vi.waitFor(
    async () => {
      const found = await ticketOf(t, from);
      if (!found || !settled(found)) throw new Error(`ticket of ${from}: ${JSON.stringify(found?.status)}`);
      return found;
    },
    { timeout: 10_000, interval: 25 },
  );
}

export async function ticketOf(t: TestApp, number: string): Promise<TTicket | undefined> {
  const list = (await t.request({ method: 'GET', url: `/api/tickets?showAll=true&searchParam=${number}`, token: t.adminToken })).json<{ tickets: TTicket[] }>().tickets;
  return list.find((x) => x.contact.number === number && x.lastMessage !== '');
}

export async function ticketById(t: TestApp, id: number): Promise<TTicket> {
  const res = await t.request({ method: 'GET', url: `/api/tickets/${id}`, token: t.adminToken });
  if (res.statusCode !== 200) throw new Error(`ticket ${id}: ${res.statusCode}`);
  return res.json<TTicket>();
}

export const assigned = (ticket: TTicket) => ticket.status === 'open' && ticket.userId !== null;
export const waiting = (ticket: TTicket) => ticket.status === 'pending' && ticket.userId === null && ticket.queueId !== null;
