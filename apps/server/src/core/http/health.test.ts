/**
 * /api/health/live and /api/health/ready: what a balancer and systemd see. Readiness fails, with
 * the check named and nothing else said, when the database stops answering (PostgreSQL refusing
 * this database's connections; on SQLite the handle closed), when Redis stops answering in the
 * cluster mode, when a migration is not applied, and once the node is stopping.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { TReadiness } from '@zapdesk/shared/schemas';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { Readiness } from './health.js';

const onPostgres = process.env.TEST_DB === 'postgres';
/** Undone last first: an app closes before the Redis or database state it was started on. */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function app(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp(env);
  cleanups.push(() => t.close().catch(() => undefined));
  return t;
}

async function ready(t: TestApp): Promise<{ status: number; body: TReadiness; cacheControl: unknown }> {
  const res = await t.request({ method: 'GET', url: '/api/health/ready' });
  return { status: res.statusCode, body: res.json<TReadiness>(), cacheControl: res.headers['cache-control'] };
}

/** Probes until `done` or 15 s. */
async function readyUntil(t: TestApp, done: (r: Awaited<ReturnType<typeof ready>>) => boolean): Promise<Awaited<ReturnType<typeof ready>>> {
  const until = Date.now() + 15_000;
  for (;;) {
    const r = await ready(t);
    if (done(r) || Date.now() > until) return r;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Nothing of the database's or Redis's address, user or error reaches the answer. */
function expectNothingLeaked(body: unknown): void {
  const text = JSON.stringify(body);
  for (const word of ['postgres', 'redis://', '127.0.0.1', 'ECONNREFUSED', 'Error', 'stack', 'zapdesk_test']) expect(text).not.toContain(word);
}

describe('liveness', () => {
  it('answers 200 {status: ok} without a token, and keeps answering while the database is gone', async () => {
    const t = await app();
    const res = await t.request({ method: 'GET', url: '/api/health/live' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    await t.ctx.db.destroy();
    expect((await t.request({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
  });
});

describe('readiness', () => {
  it('answers 200 with every check ok on a started node, uncached, and /api/health is unchanged', async () => {
    const t = await app();
    const r = await ready(t);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok', shutdown: 'ok' } });
    expect(r.cacheControl).toBe('no-store');
    expect((await t.request({ method: 'GET', url: '/api/health' })).json()).toMatchObject({ status: 'ok' });
  });

  it('is not rate-limited: 300 probes in a row all answer 200', async () => {
    const t = await app();
    const statuses = await Promise.all(Array.from({ length: 300 }, () => t.request({ method: 'GET', url: '/api/health/ready' }).then((r) => r.statusCode)));
    expect(new Set(statuses)).toEqual(new Set([200]));
  });

  it('answers 503 with shutdown: draining once the node is stopping', async () => {
    const t = await app();
    t.readiness.drain();
    const r = await ready(t);
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ status: 'unavailable', checks: { database: 'ok', migrations: 'ok', shutdown: 'draining' } });
    expect((await t.request({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
  });

  it('says pending while the database lacks a migration this version knows', async () => {
    const t = await app();
    await t.ctx.db
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', '040_report_filter_indexes' as never)
      .execute();
    // A node starting on this database (the one already running has seen every migration applied and keeps that).
    const fresh = new Readiness({ handle: { db: t.ctx.db, kind: t.ctx.dbKind, close: async () => undefined } });
    expect(await fresh.check()).toEqual({ status: 'unavailable', checks: { database: 'ok', migrations: 'pending', shutdown: 'ok' } });
    expect((await ready(t)).status).toBe(200);
  });

  it.skipIf(onPostgres)('answers 503 with database: failed when the SQLite handle is closed', async () => {
    const t = await app();
    await t.ctx.db.destroy();
    const r = await ready(t);
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ status: 'unavailable', checks: { database: 'failed', migrations: 'ok', shutdown: 'ok' } });
    expectNothingLeaked(r.body);
  });

  it.runIf(onPostgres)('answers 503 with database: failed while PostgreSQL refuses the database, and 200 again once it is back', async () => {
    const t = await app();
    expect((await ready(t)).status).toBe(200);
    const name = new URL(t.ctx.config.databaseUrl ?? '').pathname.slice(1);
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    cleanups.push(() => admin.end());
    // No new connection to the database, and the open ones cut: as when the server goes away.
    await admin.query(`alter database ${name} with allow_connections false`);
    cleanups.push(async () => void (await admin.query(`alter database ${name} with allow_connections true`)));
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
    const down = await readyUntil(t, (r) => r.status === 503);
    expect(down.status).toBe(503);
    expect(down.body.status).toBe('unavailable');
    expect(['failed', 'timeout']).toContain(down.body.checks.database);
    expectNothingLeaked(down.body);
    expect((await t.request({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);

    await admin.query(`alter database ${name} with allow_connections true`);
    const up = await readyUntil(t, (r) => r.status === 200);
    expect(up.body).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok', shutdown: 'ok' } });
  });
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A Redis of the test's own (stopped and started again), on `port`. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) return child;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('redis-server did not start');
}

async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;
if (onPostgres && !hasRedisServer && process.env.CI) throw new Error('redis-server is needed for the cluster readiness test');

describe.runIf(onPostgres && hasRedisServer)('readiness in the cluster mode', () => {
  it('answers 503 with redis: timeout while Redis does not answer, and 200 again once it does', async () => {
    const port = await freePort();
    const redis = await startRedis(port);
    cleanups.push(() => stopRedis(redis));
    const t = await app({
      REDIS_URL: `redis://127.0.0.1:${port}`,
      JWT_SECRET: 'j'.repeat(40),
      JWT_REFRESH_SECRET: 'r'.repeat(40),
      SECRETS_KEY: 'a cluster passphrase',
      SESSION_LEASE_SECONDS: '3',
    });
    const up = await ready(t);
    expect(up.body).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok', redis: 'ok', shutdown: 'ok' } });

    // Redis stops answering (every client's commands held for 6 s): PING runs out of time.
    const control = new Redis(`redis://127.0.0.1:${port}`);
    cleanups.push(() => void control.disconnect());
    await control.call('client', 'pause', '6000', 'ALL');
    const down = await readyUntil(t, (r) => r.status === 503);
    expect(down.status).toBe(503);
    expect(down.body.checks.redis).toBe('timeout');
    expect(down.body.checks.database).toBe('ok');
    expectNothingLeaked(down.body);
    await control.call('client', 'unpause');

    const back = await readyUntil(t, (r) => r.status === 200);
    expect(back.body.checks.redis).toBe('ok');
  }, 60_000);
});
