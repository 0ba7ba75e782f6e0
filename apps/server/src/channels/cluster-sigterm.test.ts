/**
 * A cluster node stopped cleanly (SIGTERM) gives its leases up: another node takes its session
 * over well before the lease would have run out, and the bulk send under way goes on there with
 * every number sent once. Two real node processes on PostgreSQL and Redis; runs in the
 * PostgreSQL project, skips without Redis (fails on CI).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TCampaign } from '@zapdesk/shared/campaigns';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import { openDatabase } from '../core/db/database.js';
import { createPostgresDatabase } from '../test/harness.js';
import { redisForClusterTests, TEST_REDIS_URL } from '../test/redis.js';
import { call, startServer, waitFor } from '../test/server-process.js';

const onPostgres = process.env.TEST_DB === 'postgres';
const ADMIN = { email: 'handover@test.local', password: 'handover-pass' };
/** Long leases: a take-over faster than this one is the released lease, not an expired one. */
const LEASE_SECONDS = 45;

describe.runIf(onPostgres)('a cluster node stopped with SIGTERM', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  }, 60_000);

  it('hands its session and its bulk send to another node at once', async (context) => {
    if (!(await redisForClusterTests())) return context.skip();
    const database = await createPostgresDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-handover-'));
    cleanups.push(async () => {
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    const shared = {
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: `zapdesk-handover-${randomBytes(4).toString('hex')}`,
      JWT_SECRET: randomBytes(32).toString('hex'),
      JWT_REFRESH_SECRET: randomBytes(32).toString('hex'),
      SECRETS_KEY: randomBytes(24).toString('hex'),
      MEDIA_DIR: path.join(dataDir, 'media'),
      SESSION_LEASE_SECONDS: String(LEASE_SECONDS),
      SHUTDOWN_DELAY_SECONDS: '1',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SIMULATOR: 'on',
      LOG_LEVEL: 'info',
      LOGIN_RATE_LIMIT: '1000',
      WEB_DIST: path.join(dataDir, 'no-web'),
    };
    const nodeOf = async (name: string) => {
      const dir = path.join(dataDir, name);
      fs.mkdirSync(dir);
      return startServer({ ...shared, NODE_ID: name, DATA_DIR: dir }, cleanups);
    };
    const a = await nodeOf('node-a');
    const b = await nodeOf('node-b');
    const handle = openDatabase({ databaseUrl: database.url, dataDir });
    cleanups.push(() => handle.close());
    const holder = async (id: number) => (await handle.db.selectFrom('leases').select(['owner']).where('name', '=', `session:${id}`).executeTakeFirst())?.owner;

    const token = (await call<{ token: string }>(a, 'POST', '/api/auth/login', { body: ADMIN })).body.token;
    // Linked through node A: its session starts there.
    const created = await call<{ id: number }>(a, 'POST', '/api/whatsapp', { token, body: { name: 'Handover phone', channel: 'simulator', isDefault: true } });
    const whatsappId = created.body.id;
    expect((await call(a, 'POST', `/api/simulator/${whatsappId}/scan`, { token })).status).toBe(200);
    expect(await holder(whatsappId)).toBe('node-a');
    expect((await call(a, 'GET', '/api/health/ready')).body).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok', redis: 'ok', shutdown: 'ok' } });

    const numbers = Array.from({ length: 10 }, (_, i) => `55119666600${String(i).padStart(2, '0')}`);
    const bulk = await call<{ campaign: TCampaign }>(a, 'POST', '/api/campaigns', {
      token,
      body: { kind: 'text', whatsappId, minDelay: 1, maxDelay: 1, message: 'Troca limpa', numbers: numbers.join('\n') },
    });
    expect(bulk.status).toBe(201);
    const campaign = async () => (await call<TCampaign>(b, 'GET', `/api/campaigns/${bulk.body.campaign.id}`, { token })).body;
    await waitFor(campaign, (x) => x.counts.sent >= 2, 30_000);

    const stoppedAt = Date.now();
    a.child.kill('SIGTERM');
    await a.exited;
    expect(a.child.exitCode).toBe(0);
    expect(a.output()).toContain('shut down cleanly');

    // Node B runs the session, CONNECTED with the stored credentials, long before the lease would have expired.
    const taken = await waitFor(
      async () => ({ owner: await holder(whatsappId), status: (await call<{ status: string }>(b, 'GET', `/api/whatsapp/${whatsappId}`, { token })).body.status }),
      ({ owner, status }) => owner === 'node-b' && status === 'CONNECTED',
      LEASE_SECONDS * 1000,
    );
    const takeoverMs = Date.now() - stoppedAt;
    expect(taken).toEqual({ owner: 'node-b', status: 'CONNECTED' });
    expect(takeoverMs).toBeLessThan((LEASE_SECONDS * 1000) / 2);

    const done = await waitFor(campaign, (x) => x.status === 'completed', 60_000);
    expect(done.counts.sent).toBe(numbers.length);
    expect(done.counts.unknown).toBe(0);
    const outbox = (await call<TSimulatorOutboxItem[]>(b, 'GET', `/api/simulator/${whatsappId}/outbox`, { token })).body;
    for (const number of numbers) expect(outbox.filter((m) => m.to === number && m.body === 'Troca limpa')).toHaveLength(1);
    console.info(`cluster take-over after SIGTERM: ${takeoverMs} ms (lease ${LEASE_SECONDS} s)`);
  }, 180_000);
});
