/**
 * Auto-assignment in the cluster mode: three real nodes on one PostgreSQL database and a real
 * Redis, agents online on different nodes, many customers writing at once through different
 * nodes and connections, and every node handing out the same queue at the same time. No ticket
 * is handed out twice, no agent is ever past the limit, and the spread is round-robin fair.
 * Runs in the PostgreSQL project of the suite (TEST_DATABASE_URL) with Redis at TEST_REDIS_URL;
 * when either is missing it says so and skips, except on CI, where it fails.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestApp } from '../../test/harness.js';
import { startClusterNodes, type ClusterNodes } from '../../test/cluster-nodes.js';
import { agentsOf, customerNumber, goOnline, turnOn, type Agent } from '../../test/assignment-fixture.js';
import { scheduleHandOut } from './assignment.service.js';

const onPostgres = process.env.TEST_DB === 'postgres';

describe.runIf(onPostgres)('auto-assignment on three nodes (PostgreSQL and Redis: TEST_DATABASE_URL, TEST_REDIS_URL)', () => {
  const nodes: TestApp[] = [];
  const urls: string[] = [];
  const agents: Agent[] = [];
  /** Each hand-out any node announced: pending -> open, with the agent. */
  const handOuts: { node: number; ticketId: number; userId: number }[] = [];
  let cluster: ClusterNodes | undefined;
  let ready = false;

  beforeAll(async () => {
    cluster = await startClusterNodes(3);
    if (!cluster) return;
    nodes.push(...cluster.nodes);
    urls.push(...cluster.urls);
    cluster.nodes.forEach((node, i) =>
      node.ctx.events.subscribe('ticket.saved', ({ ticket, previous }) => {
        if (previous?.status === 'pending' && ticket.status === 'open' && ticket.userId !== null) handOuts.push({ node: i, ticketId: ticket.id, userId: ticket.userId });
      }),
    );
    ready = true;
  }, 90_000);

  afterAll(async () => {
    for (const agent of agents) agent.socket?.close();
    nodes.splice(0);
    await cluster?.close();
  });

  const node = (i: number): TestApp => {
    const found = nodes[i % nodes.length];
    if (!found) throw new Error('nodes missing');
    return found;
  };

  /** A queue on three simulator connections, each scanned through another node. */
  async function queueOnThreeConnections(name: string): Promise<{ queueId: number; connections: number[] }> {
    const queue = await node(0).createQueue({ name });
    const connections: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const created = await node(i).request({ method: 'POST', url: '/api/whatsapp', token: node(0).adminToken, payload: { name: `${name} ${i}`, channel: 'simulator', queueIds: [queue.id] } });
      const id = created.json<{ id: number }>().id;
      expect((await node(i).request({ method: 'POST', url: `/api/simulator/${id}/scan`, token: node(0).adminToken })).statusCode).toBe(200);
      connections.push(id);
    }
    return { queueId: queue.id, connections };
  }

  /** Agents of the queue, each online on another node. */
  async function onlineTeam(queueId: number, names: string[]): Promise<Agent[]> {
    const team = await agentsOf(node(0), queueId, names);
    for (const [i, agent] of team.entries()) await goOnline(urls[i % urls.length] ?? '', agent);
    agents.push(...team);
    await vi.waitFor(async () => expect(await node(0).ctx.presence.onlineUserIds()).toEqual(expect.arrayContaining(team.map((a) => a.id))), { timeout: 5_000 });
    return team;
  }

  async function openLoads(queueId: number): Promise<Map<number, number>> {
    const rows = await node(0)
      .ctx.db.selectFrom('tickets')
      .select(['userId', (eb) => eb.fn.countAll<number>().as('n')])
      .where('queueId', '=', queueId)
      .where('status', '=', 'open')
      .groupBy('userId')
      .execute();
    return new Map(rows.map((r) => [r.userId ?? 0, Number(r.n)]));
  }

  async function ticketsOfQueue(queueId: number) {
    return node(0).ctx.db.selectFrom('tickets').select(['id', 'status', 'userId']).where('queueId', '=', queueId).execute();
  }

  /**
   * `count` customers write at once, each through another node and connection, while every node
   * also hands the queue out on its own (as its sweep does). The highest load any agent had,
   * sampled all along from the database, is returned with the hand-outs of this queue.
   */
  async function rush(queueId: number, connections: number[], count: number, settled: (rows: Awaited<ReturnType<typeof ticketsOfQueue>>) => boolean) {
    let highest = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        for (const n of (await openLoads(queueId)).values()) highest = Math.max(highest, n);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const writes = Array.from({ length: count }, (_, i) => {
      const from = customerNumber();
      return node(i).request({
        method: 'POST',
        url: `/api/simulator/${connections[i % connections.length] ?? 0}/inbound`,
        token: node(0).adminToken,
        payload: { from, name: `Cliente ${from.slice(-4)}`, body: 'Oi, tudo bem?' },
      });
    });
    const competing = nodes.map(async (n) => {
      for (let round = 0; round < 10; round += 1) {
        await scheduleHandOut(n.ctx, queueId);
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    for (const res of await Promise.all(writes)) expect(res.statusCode).toBe(200);
    await Promise.all(competing);
    const rows = await vi.waitFor(
      async () => {
        const found = await ticketsOfQueue(queueId);
        if (!settled(found)) throw new Error(`not settled: ${JSON.stringify(found)}`);
        return found;
      },
      { timeout: 30_000, interval: 100 },
    );
    // Late hand-outs of the sweeps would show here.
    await Promise.all(nodes.map((n) => scheduleHandOut(n.ctx, queueId)));
    sampling = false;
    await sampler;
    const ids = new Set(rows.map((r) => r.id));
    return { rows, highest, handOuts: handOuts.filter((h) => ids.has(h.ticketId)) };
  }

  it('spreads 30 customers writing at once over three agents on three nodes, ten each, each ticket handed out once', async (context) => {
    if (!ready) return context.skip();
    const { queueId, connections } = await queueOnThreeConnections('Cluster justo');
    const team = await onlineTeam(queueId, ['Alice', 'Beto', 'Caio']);
    await turnOn(node(1), queueId, 100);
    const { rows, handOuts: given } = await rush(queueId, connections, 30, (found) => found.length === 30 && found.every((r) => r.status === 'open'));
    // Never twice: one hand-out per ticket, whichever node made it.
    expect(given).toHaveLength(30);
    expect(new Set(given.map((h) => h.ticketId)).size).toBe(30);
    const spread = team.map((agent) => rows.filter((r) => r.userId === agent.id).length);
    expect(spread).toEqual([10, 10, 10]);
    // The nodes shared the work (not one node doing every hand-out).
    expect(new Set(given.map((h) => h.node)).size).toBeGreaterThan(1);
  });

  it('never puts an agent past the limit, whichever node hands out: four agents, limit 2, 20 customers', async (context) => {
    if (!ready) return context.skip();
    const { queueId, connections } = await queueOnThreeConnections('Cluster limite');
    const team = await onlineTeam(queueId, ['Dora', 'Enzo', 'Flor', 'Gabi']);
    await turnOn(node(2), queueId, 2);
    const { rows, highest, handOuts: given } = await rush(queueId, connections, 20, (found) => found.length === 20 && found.filter((r) => r.status === 'open').length === 8);
    expect(highest).toBeLessThanOrEqual(2);
    expect(team.map((agent) => rows.filter((r) => r.userId === agent.id && r.status === 'open').length)).toEqual([2, 2, 2, 2]);
    expect(rows.filter((r) => r.status === 'pending' && r.userId === null)).toHaveLength(12);
    expect(given).toHaveLength(8);
    expect(new Set(given.map((h) => h.ticketId)).size).toBe(8);
  });
});
