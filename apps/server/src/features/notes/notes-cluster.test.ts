/**
 * A mention across the cluster: two nodes on one PostgreSQL and one Redis. A note written on node
 * A reaches the mentioned user's socket on node B, once, and nobody else's.
 */
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TestApp } from '../../test/harness.js';
import { startClusterNodes, type ClusterNodes } from '../../test/cluster-nodes.js';

type Heard = { event: string; payload: unknown }[];

describe.runIf(process.env.TEST_DB === 'postgres')('mentions on two nodes (PostgreSQL and Redis)', () => {
  const nodes: TestApp[] = [];
  const urls: string[] = [];
  const sockets: Socket[] = [];
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

  async function listen(url: string, token: string): Promise<Heard> {
    const socket = connectSocket(url, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    const heard: Heard = [];
    socket.onAny((event: string, payload: unknown) => heard.push({ event, payload }));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    return heard;
  }

  it('carries a mention raised on node A to the mentioned user on node B, once, and to nobody else', async (context) => {
    if (!ready) return context.skip();
    const [a, b] = nodes;
    if (!a || !b) throw new Error('nodes missing');
    const bruno = await a.createUser({ name: 'Bruno Cluster' });
    const carla = await a.createUser({ name: 'Carla Cluster' });
    const w = (await a.request({ method: 'POST', url: '/api/whatsapp', token: a.adminToken, payload: { name: 'Linha', channel: 'simulator' } })).json<{ id: number }>();
    const ticket = await waitForScan(a, w.id);
    const brunoHeard = await listen(urls[1] ?? '', bruno.token);
    const carlaHeard = await listen(urls[1] ?? '', carla.token);

    const res = await a.request({ method: 'POST', url: `/api/tickets/${ticket.id}/notes`, token: a.adminToken, payload: { body: '@Bruno Cluster veja', mentionUserIds: [bruno.user.id] } });
    expect(res.statusCode).toBe(201);
    await vi.waitFor(() => expect(brunoHeard.filter((h) => h.event === 'mention')).toHaveLength(1), { timeout: 5_000 });
    // Then something everyone hears: once Carla has it, she would have had the mention too.
    const fence = await a.request({ method: 'POST', url: '/api/quickAnswers', token: a.adminToken, payload: { shortcut: 'cerca', message: 'Olá de outro nó' } });
    expect(fence.statusCode).toBe(201);
    await vi.waitFor(() => expect(carlaHeard.some((h) => h.event === 'quickAnswer')).toBe(true), { timeout: 5_000 });
    expect(carlaHeard.some((h) => h.event === 'mention')).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(brunoHeard.filter((h) => h.event === 'mention')).toHaveLength(1);
    // Read on node B: the same mention, and the ticket open to Bruno there.
    expect((await b.request({ method: 'GET', url: '/api/mentions', token: bruno.token })).json()).toMatchObject({ count: 1, unread: 1 });
    expect((await b.request({ method: 'GET', url: `/api/tickets/${ticket.id}`, token: bruno.token })).statusCode).toBe(200);
  });
});

/** Links the simulator connection and lets a contact write in: the ticket (no queue, pending). */
async function waitForScan(node: TestApp, whatsappId: number): Promise<TTicket> {
  await vi.waitFor(
    async () => {
      const scan = await node.request({ method: 'POST', url: `/api/simulator/${whatsappId}/scan`, token: node.adminToken });
      expect(scan.statusCode).toBe(200);
    },
    { timeout: 10_000, interval: 200 },
  );
  return node.inboundTicket(whatsappId, 'olá do cluster');
}
