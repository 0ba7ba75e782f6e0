/**
 * The stop on SIGTERM, with the real server as a child process: readiness answers 503 at once,
 * new connections are refused after SHUTDOWN_DELAY_SECONDS, an upload under way at the signal
 * completes, socket clients lose their transport (and so reconnect on their own), a campaign
 * sending at the signal stops between two sends and, started again on the same data, finishes
 * with every number sent exactly once; the process exits 0. A second signal, or the time limit,
 * ends it at once with code 1 and a log line.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { io as connectSocket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './core/db/database.js';
import { createPostgresDatabase } from './test/harness.js';
import { call, startServer, waitFor, type Server } from './test/server-process.js';

const ADMIN = { email: 'stop@test.local', password: 'stop-pass' };
type Place = { dataDir: string; databaseUrl: string | undefined };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function newPlace(): Promise<Place> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-stop-'));
  const pgDb = process.env.TEST_DB === 'postgres' ? await createPostgresDatabase() : undefined;
  cleanups.push(async () => {
    await pgDb?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return { dataDir, databaseUrl: pgDb?.url };
}

function startOn(place: Place, env: Record<string, string> = {}): Promise<Server> {
  return startServer(
    {
      DATA_DIR: place.dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SIMULATOR: 'on',
      LOG_LEVEL: 'info',
      LOGIN_RATE_LIMIT: '1000',
      WEB_DIST: path.join(place.dataDir, 'no-web'),
      ...(place.databaseUrl ? { DATABASE_URL: place.databaseUrl } : {}),
      ...env,
    },
    cleanups,
  );
}

async function signIn(server: Server): Promise<string> {
  const res = await call<{ token: string }>(server, 'POST', '/api/auth/login', { body: ADMIN });
  if (res.status !== 200) throw new Error(`login: ${res.status}`);
  return res.body.token;
}

/** The exit code once the process has ended. */
async function exitCode(server: Server): Promise<number | null> {
  await server.exited;
  return server.child.exitCode;
}

/**
 * A file upload written slowly: the head at once, then `chunks` pieces `everyMs` apart, once
 * `go()` is called. Resolves with the status of the answer, 0 when the connection was cut.
 */
function slowUpload(server: Server, token: string, chunks: number, everyMs: number): { started: Promise<void>; go: () => void; status: Promise<number> } {
  const boundary = 'zdgslowupload';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`);
  const piece = Buffer.alloc(16 * 1024, 'x');
  const tail = Buffer.from(`\r\n%%EOF\r\n--${boundary}--\r\n`);
  const length = head.length + piece.length * chunks + tail.length;
  let go: () => void = () => undefined;
  const going = new Promise<void>((resolve) => (go = resolve));
  let started: () => void = () => undefined;
  const startedPromise = new Promise<void>((resolve) => (started = resolve));
  const status = new Promise<number>((resolve) => {
    const url = new URL('/api/local-media', server.url);
    const req = http.request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(length) },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.write(head, () => started());
    void (async () => {
      await going;
      for (let i = 0; i < chunks; i += 1) {
        await new Promise((r) => setTimeout(r, everyMs));
        req.write(piece);
      }
      req.end(tail);
    })();
  });
  return { started: startedPromise, go, status };
}

/** Probes readiness every 50 ms until stopped: each answer's status, or 0 for a refused connection. */
function pollReadiness(server: Server): { stop: () => Promise<number[]> } {
  const seen: number[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const status = await fetch(`${server.url}/api/health/ready`, { headers: { connection: 'close' } })
        .then(async (res) => {
          await res.arrayBuffer();
          return res.status;
        })
        .catch(() => 0);
      seen.push(status);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return seen;
    },
  };
}

describe('SIGTERM', () => {
  it('drains a request and sockets, stops a campaign between two sends, exits 0, and the campaign finishes exactly once after a restart', async () => {
    const place = await newPlace();
    let server = await startOn(place, { SHUTDOWN_DELAY_SECONDS: '1', SHUTDOWN_TIMEOUT_SECONDS: '20' });
    let token = await signIn(server);
    const created = await call<{ id: number }>(server, 'POST', '/api/whatsapp', { token, body: { name: 'Stop phone', channel: 'simulator', isDefault: true } });
    expect(created.status).toBe(201);
    const connectionId = created.body.id;
    expect((await call(server, 'POST', `/api/simulator/${connectionId}/scan`, { token })).status).toBe(200);

    const body = `Aviso ${Date.now()}`;
    const numbers = Array.from({ length: 30 }, (_, i) => `5511950${String(i).padStart(6, '0')}`);
    const campaign = await call<{ campaign: { id: number } }>(server, 'POST', '/api/campaigns', {
      token,
      body: { kind: 'text', whatsappId: connectionId, numbers: numbers.join('\n'), message: body, minDelay: 1, maxDelay: 1 },
    });
    expect(campaign.status).toBe(201);
    const campaignId = campaign.body.campaign.id;
    type State = { status: string; total: number; counts: Record<string, number> };
    const state = async () => (await call<State>(server, 'GET', `/api/campaigns/${campaignId}`, { token })).body;
    const before = await waitFor(state, (c) => (c.counts.sent ?? 0) >= 3, 60_000);
    expect(before.counts.sent ?? 0).toBeGreaterThanOrEqual(3);

    // A socket client, and an upload under way when the signal comes.
    const socket = connectSocket(server.url, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    cleanups.push(async () => void socket.close());
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const closed = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    const upload = slowUpload(server, token, 30, 100);
    await upload.started;

    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    upload.go();
    await waitFor(
      async () => server.output(),
      (out) => out.includes('SIGTERM received, shutting down'),
      5_000,
    );
    const probes = pollReadiness(server);

    // The upload, written for about 3 s after the signal, is answered.
    expect(await upload.status).toBe(201);
    // The socket lost its transport: a client with reconnection on (the web app) tries again, on another node behind a balancer.
    expect(await closed).toBe('transport close');
    expect(await exitCode(server)).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(20_000);
    const seen = await probes.stop();
    // Not ready once the signal is taken: 503 while connections were still taken, then refused.
    expect(seen.filter((s) => s === 200)).toEqual([]);
    expect(seen).toContain(503);
    expect(seen.at(-1)).toBe(0);
    expect(server.output()).toContain('shut down cleanly');

    // Nothing was left between a claim and its result: each recipient is sent or still queued.
    const handle = openDatabase({ databaseUrl: place.databaseUrl, dataDir: place.dataDir });
    const rows = await handle.db.selectFrom('campaignRecipients').select('status').where('campaignId', '=', campaignId).execute();
    await handle.close();
    expect(rows.filter((r) => r.status !== 'sent' && r.status !== 'queued')).toEqual([]);
    expect(rows.filter((r) => r.status === 'queued').length).toBeGreaterThan(0);

    server = await startOn(place);
    token = await signIn(server);
    const done = await waitFor(state, (c) => c.status === 'completed', 90_000);
    expect(done.status).toBe('completed');
    expect(done.counts.sent).toBe(30);
    expect(done.counts.unknown ?? 0).toBe(0);
    const phone = await call<{ to: string; body: string }[]>(server, 'GET', `/api/simulator/${connectionId}/outbox`, { token });
    const received = new Map<string, number>();
    for (const item of phone.body) if (item.body === body) received.set(item.to, (received.get(item.to) ?? 0) + 1);
    expect(numbers.filter((n) => received.get(n) !== 1)).toEqual([]);
    expect(received.size).toBe(30);
  }, 180_000);

  it('ends at once with code 1 on a second signal, and after SHUTDOWN_TIMEOUT_SECONDS', async () => {
    const place = await newPlace();
    // The time limit: an upload that would take 6 s keeps the stop waiting past 1 s.
    let server = await startOn(place, { SHUTDOWN_TIMEOUT_SECONDS: '1' });
    let token = await signIn(server);
    let upload = slowUpload(server, token, 60, 100);
    await upload.started;
    let signalledAt = Date.now();
    server.child.kill('SIGTERM');
    upload.go();
    expect(await exitCode(server)).toBe(1);
    expect(Date.now() - signalledAt).toBeLessThan(5_000);
    expect(await upload.status).toBe(0);
    expect(server.output()).toContain('shutdown took longer than 1 s');

    // A second signal while the stop waits for an upload.
    server = await startOn(place);
    token = await signIn(server);
    upload = slowUpload(server, token, 60, 100);
    await upload.started;
    signalledAt = Date.now();
    server.child.kill('SIGTERM');
    upload.go();
    await waitFor(
      async () => server.output(),
      (out) => out.includes('SIGTERM received, shutting down'),
      10_000,
    );
    server.child.kill('SIGINT');
    expect(await exitCode(server)).toBe(1);
    expect(Date.now() - signalledAt).toBeLessThan(5_000);
    expect(await upload.status).toBe(0);
    expect(server.output()).toContain('SIGINT received again while shutting down');
  }, 120_000);
});
