/**
 * The cluster mode: two nodes on one PostgreSQL database and a real Redis. The simulated phone is
 * asked to react on the node that does not run its session; the reaction reaches an admin's
 * screen connected to either node. Runs in the PostgreSQL project (TEST_DATABASE_URL) with Redis
 * at TEST_REDIS_URL; when Redis is missing it says so and skips, except on CI.
 */
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { ClientToServerEvents, ServerToClientEvents } from '@zapdesk/shared/realtime';
import { waitFor, type TestApp } from '../../test/harness.js';
import { startClusterNodes, type ClusterNodes } from '../../test/cluster-nodes.js';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

describe.runIf(process.env.TEST_DB === 'postgres')('reactions across two nodes (PostgreSQL and Redis)', () => {
  const nodes: TestApp[] = [];
  const urls: string[] = [];
  const sockets: ClientSocket[] = [];
  let cluster: ClusterNodes | undefined;
  let ready = false;

  beforeAll(async () => {
    cluster = await startClusterNodes(2);
    if (!cluster) return;
    nodes.push(...cluster.nodes);
    urls.push(...cluster.urls);
    ready = true;
  }, 60_000);

  afterAll(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    nodes.splice(0);
    await cluster?.close();
  });

  async function screen(url: string, token: string): Promise<TMessage[]> {
    const socket: ClientSocket = connectSocket(url, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    const updates: TMessage[] = [];
    socket.on('appMessage', (payload) => {
      if (payload.action === 'update') updates.push(payload.message);
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    await socket.emitWithAck('joinNotification');
    return updates;
  }

  it("takes the phone's reaction on the node without the session and shows it on both nodes' screens", async (context) => {
    if (!ready) return context.skip();
    const [a, b] = nodes;
    if (!a || !b) throw new Error('nodes missing');
    const phone = (await a.request({ method: 'POST', url: '/api/whatsapp', token: a.adminToken, payload: { name: 'Loja', channel: 'simulator' } })).json<{ id: number }>().id;
    expect((await a.request({ method: 'POST', url: `/api/simulator/${phone}/scan`, token: a.adminToken })).statusCode).toBe(200);
    expect(
      (await a.request({ method: 'POST', url: `/api/simulator/${phone}/inbound`, token: a.adminToken, payload: { id: 'CL-1', from: '5511955553333', name: 'Rita', body: 'Oi' } })).statusCode,
    ).toBe(200);
    const ticket = await waitFor(
      async () => (await a.request({ method: 'GET', url: '/api/tickets?showAll=true', token: a.adminToken })).json<{ tickets: TTicket[] }>().tickets,
      (list) => list.some((x) => x.contact.number === '5511955553333'),
    ).then((list) => list.find((x) => x.contact.number === '5511955553333'));
    if (!ticket) throw new Error('no ticket');
    // The node that does not run the session takes the phone's control and hands it over.
    const runner = nodes.findIndex((node) => node.sessions.owns(phone));
    expect(runner).toBeGreaterThanOrEqual(0);
    const other = nodes[1 - runner];
    if (!other) throw new Error('no other node');
    const onA = await screen(urls[0] ?? '', a.adminToken);
    const onB = await screen(urls[1] ?? '', a.adminToken);
    expect(
      (await other.request({ method: 'POST', url: `/api/simulator/${phone}/reaction`, token: a.adminToken, payload: { id: 'CL-1', from: '5511955553333', emoji: '👍', fromMe: true } })).statusCode,
    ).toBe(200);
    const shown = (updates: TMessage[]) => updates.some((m) => m.ticketId === ticket.id && m.reactions.some((r) => r.emoji === '👍' && r.fromMe));
    await waitFor(async () => onA, shown);
    await waitFor(async () => onB, shown);
  });
});
