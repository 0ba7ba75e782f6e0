/**
 * The cluster mode's sessions, with three real node processes on one PostgreSQL database and a
 * real Redis: each session runs on one node; when that node is killed (SIGKILL) another takes
 * the session over within 30 seconds with the stored credentials, what the phone delivers
 * meanwhile is stored once, a reply sent from any node reaches the phone once, and a bulk send
 * under way goes on with no recipient lost or sent twice. Runs in the PostgreSQL project of
 * the suite, with Redis at TEST_REDIS_URL; when either is missing it says so and skips (fails on CI).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCampaign } from '@zapdesk/shared/campaigns';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import { openDatabase, type DbHandle } from '../core/db/database.js';
import { createPostgresDatabase } from '../test/harness.js';
import { redisForClusterTests, TEST_REDIS_URL } from '../test/redis.js';
import { call, kill, startServer, waitFor, type Server } from '../test/server-process.js';

const onPostgres = process.env.TEST_DB === 'postgres';
const ADMIN = { email: 'cluster@test.local', password: 'cluster-pass' };

describe.runIf(onPostgres)('a session when the node running it dies or stops (three node processes on PostgreSQL and Redis)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  const nodes = new Map<string, Server>();
  let handle: DbHandle | undefined;
  let dataDir = '';
  let token = '';
  let adminId = 0;
  let ready = false;

  beforeAll(async () => {
    if (!(await redisForClusterTests())) return;
    const database = await createPostgresDatabase();
    // Each node its own data directory; the media on a volume they share (MEDIA_DIR). The
    // simulated phones live in the database in the cluster mode.
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-failover-'));
    cleanups.push(async () => {
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    const shared = {
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: `zapdesk-failover-${randomBytes(4).toString('hex')}`,
      JWT_SECRET: randomBytes(32).toString('hex'),
      JWT_REFRESH_SECRET: randomBytes(32).toString('hex'),
      SECRETS_KEY: randomBytes(24).toString('hex'),
      MEDIA_DIR: path.join(dataDir, 'media'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SIMULATOR: 'on',
      LOG_LEVEL: 'error',
      LOGIN_RATE_LIMIT: '1000',
      WEB_DIST: path.join(dataDir, 'no-web'),
    };
    const nodeDir = (name: string) => {
      const dir = path.join(dataDir, name);
      fs.mkdirSync(dir);
      return dir;
    };
    // One after the other: the first migrates and seeds, the others find it done.
    for (const name of ['node-a', 'node-b', 'node-c']) nodes.set(name, await startServer({ ...shared, NODE_ID: name, DATA_DIR: nodeDir(name) }, cleanups));
    handle = openDatabase({ databaseUrl: database.url, dataDir });
    cleanups.push(() => handle?.close() ?? Promise.resolve());
    ready = true;
  }, 180_000);

  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  }, 60_000);

  async function holderOf(whatsappId: number): Promise<{ owner: string; generation: number; expiresAt: string } | undefined> {
    return handle?.db.selectFrom('leases').select(['owner', 'generation', 'expiresAt']).where('name', '=', `session:${whatsappId}`).executeTakeFirst();
  }

  it('is taken over by another node within 30 s, nothing lost or doubled', async (context) => {
    if (!ready) return context.skip();
    const [a, b, c] = [...nodes.values()] as [Server, Server, Server];
    const login = (await call<{ token: string; user: { id: number } }>(a, 'POST', '/api/auth/login', { body: ADMIN })).body;
    token = login.token;
    adminId = login.user.id;

    // A phone linked through node B, its QR code scanned through node C: whichever runs it.
    const created = await call<{ id: number }>(b, 'POST', '/api/whatsapp', { token, body: { name: 'Cluster phone', channel: 'simulator', isDefault: true } });
    expect(created.status).toBe(201);
    const whatsappId = created.body.id;
    const scanned = await call(c, 'POST', `/api/simulator/${whatsappId}/scan`, { token });
    expect(scanned.status).toBe(200);
    const first = await holderOf(whatsappId);
    expect(first?.owner).toMatch(/^node-[abc]$/);
    const owner = nodes.get(first?.owner ?? '') as Server;
    const [other, third] = [...nodes.values()].filter((n) => n !== owner) as [Server, Server];

    // A customer writes through a node that does not run the session: one ticket.
    const inbound = await call<{ id: string }>(other, 'POST', `/api/simulator/${whatsappId}/inbound`, { token, body: { from: '5511988880001', name: 'Cliente', body: 'Olá, cluster' } });
    expect(inbound.status).toBe(200);
    const ticketId = (await handle?.db.selectFrom('messages').select('ticketId').where('providerId', '=', inbound.body.id).executeTakeFirst())?.ticketId;
    expect(ticketId).toBeGreaterThan(0);
    const accepted = await call(third, 'PUT', `/api/tickets/${ticketId}`, { token, body: { status: 'open', userId: adminId } });
    expect(accepted.status).toBe(200);

    // A bulk send to six numbers, one a second, started from a node that does not run the session.
    const numbers = Array.from({ length: 6 }, (_, i) => `55119777700${String(i).padStart(2, '0')}`);
    const bulk = await call<{ campaign: TCampaign }>(third, 'POST', '/api/campaigns', {
      token,
      body: { kind: 'text', whatsappId, minDelay: 1, maxDelay: 1, message: 'Oferta do cluster', numbers: numbers.join('\n') },
    });
    expect(bulk.status).toBe(201);
    const campaignId = bulk.body.campaign.id;
    const campaign = async () => (await call<TCampaign>(other, 'GET', `/api/campaigns/${campaignId}`, { token })).body;
    await waitFor(campaign, (x) => x.counts.sent >= 2, 30_000);

    // Three more phones linked through the same node, which therefore runs all four.
    const extra: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const more = await call<{ id: number }>(owner, 'POST', '/api/whatsapp', { token, body: { name: `Cluster phone ${i + 2}`, channel: 'simulator' } });
      extra.push(more.body.id);
      expect((await call(owner, 'POST', `/api/simulator/${more.body.id}/scan`, { token })).status).toBe(200);
      expect((await holderOf(more.body.id))?.owner).toBe(first?.owner);
    }

    // kill -9 of the node running the session, in the middle of the bulk send.
    const killedAt = Date.now();
    await kill(owner);

    // The phone delivers a message meanwhile, trying again until a node stores it (as WhatsApp
    // does until the device acknowledges it).
    const meanwhileId = `CLUSTERMID${randomBytes(4).toString('hex').toUpperCase()}`;
    const delivered = await waitFor(
      () => call(other, 'POST', `/api/simulator/${whatsappId}/inbound`, { token, body: { id: meanwhileId, from: '5511988880001', name: 'Cliente', body: 'Alguém aí?' } }),
      (res) => res.status === 200,
      40_000,
    );
    expect(delivered.status).toBe(200);

    // Another node holds the session, CONNECTED with the stored credentials (no new QR code).
    const taken = await waitFor(
      async () => ({ lease: await holderOf(whatsappId), status: (await call<{ status: string }>(other, 'GET', `/api/whatsapp/${whatsappId}`, { token })).body.status }),
      ({ lease, status }) => lease !== undefined && lease.owner !== first?.owner && status === 'CONNECTED',
      30_000,
    );
    const takeoverMs = Date.now() - killedAt;
    expect(taken.lease?.owner).not.toBe(first?.owner);
    expect(taken.lease?.generation).toBeGreaterThan(first?.generation ?? 0);
    expect(taken.status).toBe('CONNECTED');
    expect(takeoverMs).toBeLessThan(30_000);
    // The dead node's four phones are shared by the two nodes left, two each.
    const owners = await waitFor(
      async () => Promise.all([whatsappId, ...extra].map(async (id) => (await holderOf(id))?.owner)),
      (list) => list.every((o) => o !== undefined && o !== first?.owner),
      30_000,
    );
    expect(new Set(owners).size).toBe(2);
    for (const name of new Set(owners)) expect(owners.filter((o) => o === name)).toHaveLength(2);

    // A reply from each surviving node reaches the phone once.
    for (const [i, node] of [other, third].entries()) {
      const reply = await call<{ sendStatus: string }[]>(node, 'POST', `/api/messages/${ticketId}`, { token, body: { body: `Resposta ${i} depois da troca` } });
      expect(reply.status).toBe(201);
      // Answered as on a single node: sent by the node that runs the session.
      expect(reply.body[0]?.sendStatus).toBe('sent');
    }

    // The bulk send finishes on the new node: every number once, none in doubt.
    const done = await waitFor(campaign, (x) => x.status === 'completed', 40_000);
    expect(done.status).toBe('completed');
    expect(done.counts.sent).toBe(numbers.length);
    expect(done.counts.unknown).toBe(0);

    const outbox = (await call<TSimulatorOutboxItem[]>(third, 'GET', `/api/simulator/${whatsappId}/outbox`, { token })).body;
    for (const number of numbers) expect(outbox.filter((m) => m.to === number && m.body === 'Oferta do cluster')).toHaveLength(1);
    for (const i of [0, 1]) expect(outbox.filter((m) => m.body === `Resposta ${i} depois da troca`)).toHaveLength(1);
    const stored = await handle?.db.selectFrom('messages').select('id').where('providerId', '=', meanwhileId).execute();
    expect(stored).toHaveLength(1);
    // The simulated phone lived in the database, not in a node's files.
    const phoneLog = await handle?.db.selectFrom('simulatorPhoneLog').select('id').where('whatsappId', '=', whatsappId).execute();
    expect(phoneLog?.length).toBeGreaterThan(numbers.length);
    for (const name of nodes.keys()) expect(fs.existsSync(path.join(dataDir, name, 'simulator'))).toBe(false);
    console.info(`cluster take-over after kill -9: ${takeoverMs} ms (leases of the default length)`);
  }, 180_000);

  it('is stopped by a node that was paused past its lease, which then leaves it to the node that took it over', async (context) => {
    if (!ready) return context.skip();
    const alive = [...nodes.values()].filter((n) => n.child.exitCode === null && n.child.signalCode === null);
    expect(alive.length).toBeGreaterThanOrEqual(2);
    const created = await call<{ id: number }>(alive[0] as Server, 'POST', '/api/whatsapp', { token, body: { name: 'Paused phone', channel: 'simulator' } });
    expect(created.status).toBe(201);
    const whatsappId = created.body.id;
    expect((await call(alive[0] as Server, 'POST', `/api/simulator/${whatsappId}/scan`, { token })).status).toBe(200);
    const first = await holderOf(whatsappId);
    const paused = nodes.get(first?.owner ?? '') as Server;
    const other = alive.find((n) => n !== paused) as Server;

    // The node stops (SIGSTOP: frozen, its connections open), and its lease runs out.
    paused.child.kill('SIGSTOP');
    try {
      const taken = await waitFor(
        async () => ({ lease: await holderOf(whatsappId), status: (await call<{ status: string }>(other, 'GET', `/api/whatsapp/${whatsappId}`, { token })).body.status }),
        ({ lease, status }) => lease !== undefined && lease.owner !== first?.owner && status === 'CONNECTED',
        30_000,
      );
      expect(taken.lease?.generation).toBeGreaterThan(first?.generation ?? 0);
    } finally {
      paused.child.kill('SIGCONT');
    }
    const after = await holderOf(whatsappId);

    // Back, it finds its lease gone: it stops its copy of the session, writes nothing over the
    // new holder's, and its sends go to the node that runs the session now.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await holderOf(whatsappId)).toMatchObject({ owner: after?.owner, generation: after?.generation });
    expect((await call<{ status: string }>(paused, 'GET', `/api/whatsapp/${whatsappId}`, { token })).body.status).toBe('CONNECTED');
    const inbound = await call<{ id: string }>(paused, 'POST', `/api/simulator/${whatsappId}/inbound`, { token, body: { from: '5511988880077', name: 'Pausa', body: 'Depois da pausa' } });
    expect(inbound.status).toBe(200);
    const ticketId = (await handle?.db.selectFrom('messages').select('ticketId').where('providerId', '=', inbound.body.id).executeTakeFirst())?.ticketId;
    expect((await call(paused, 'PUT', `/api/tickets/${ticketId}`, { token, body: { status: 'open', userId: adminId } })).status).toBe(200);
    const reply = await call<{ sendStatus: string }[]>(paused, 'POST', `/api/messages/${ticketId}`, { token, body: { body: 'Resposta do nó que voltou' } });
    expect(reply.status).toBe(201);
    expect(reply.body[0]?.sendStatus).toBe('sent');
    const outbox = (await call<TSimulatorOutboxItem[]>(other, 'GET', `/api/simulator/${whatsappId}/outbox`, { token })).body;
    expect(outbox.filter((m) => m.body === 'Resposta do nó que voltou')).toHaveLength(1);
  }, 120_000);
});
