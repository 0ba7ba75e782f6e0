/**
 * kill -9 during webhook deliveries: the real server as a child process, a receiver that answers
 * slowly (so attempts are under way), SIGKILL, a restart on the same data: every stored delivery
 * (and every ping the API acknowledged) arrives at least once, in order per ticket, and none is
 * left pending. Both databases.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TWebhookDelivery, TWebhookWithSecret } from '@zapdesk/shared/webhooks';
import { WEBHOOK_EVENTS } from '@zapdesk/shared/webhooks';
import { openDatabase } from '../../core/db/database.js';
import { createPostgresDatabase } from '../../test/harness.js';
import { call, kill, startServer, waitFor, type Server } from '../../test/server-process.js';
import { startReceiver } from '../../test/webhook-receiver.js';

const ADMIN = { email: 'crash-hooks@test.local', password: 'crash-pass' };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('webhook deliveries across a kill -9', () => {
  it('arrive at least once each after the restart, in order per ticket, none left pending', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-hooks-crash-'));
    const pgDb = process.env.TEST_DB === 'postgres' ? await createPostgresDatabase() : undefined;
    cleanups.push(async () => {
      await pgDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    const receiver = await startReceiver();
    cleanups.push(() => receiver.stop());
    const env = {
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SIMULATOR: 'on',
      LOG_LEVEL: 'error',
      LOGIN_RATE_LIMIT: '1000',
      WEB_DIST: path.join(dataDir, 'no-web'),
      ALLOW_PRIVATE_WEBHOOK_URLS: 'on',
      WEBHOOK_RETRY_BASE_MS: '200',
      ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    };
    let server: Server = await startServer(env, cleanups);
    const token = (await call<{ token: string }>(server, 'POST', '/api/auth/login', { body: ADMIN })).body.token;
    const hook = await call<TWebhookWithSecret>(server, 'POST', '/api/webhooks', { token, body: { url: receiver.url, events: WEBHOOK_EVENTS } });
    expect(hook.status).toBe(201);
    receiver.secrets.add(hook.body.secret);
    const phone = (await call<{ id: number }>(server, 'POST', '/api/whatsapp', { token, body: { name: 'Crash hooks', channel: 'simulator', isDefault: true } })).body.id;
    expect((await call(server, 'POST', `/api/simulator/${phone}/scan`, { token })).status).toBe(200);

    // Slow answers: up to 16 attempts under way at any time.
    receiver.delay(400);
    const acknowledged: string[] = [];
    const customers = Array.from({ length: 6 }, (_, i) => `55119777${String(process.pid % 100).padStart(2, '0')}${String(i).padStart(3, '0')}`);
    let stop = false;
    const traffic = (async () => {
      for (let round = 0; !stop && round < 40; round += 1) {
        for (const from of customers) {
          if (stop) break;
          await call(server, 'POST', `/api/simulator/${phone}/inbound`, { token, body: { from, name: `Cliente ${from.slice(-3)}`, body: `msg ${round}` } }).catch(() => undefined);
        }
        const ping = await call<TWebhookDelivery>(server, 'POST', `/api/webhooks/${hook.body.id}/ping`, { token }).catch(() => undefined);
        if (ping?.status === 201) acknowledged.push(ping.body.id);
      }
    })();
    await waitFor(
      async () => receiver.received.length,
      (n) => n >= 20,
      30_000,
    );
    stop = true;
    await kill(server);
    await traffic;
    const arrivedBefore = receiver.delivered().length;

    receiver.delay(0);
    server = await startServer(env, cleanups);
    const handle = openDatabase({ databaseUrl: pgDb?.url, dataDir });
    cleanups.push(() => handle.close());
    const pending = async () =>
      Number(
        (
          await handle.db
            .selectFrom('webhookDeliveries')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('status', '=', 'pending')
            .executeTakeFirstOrThrow()
        ).n,
      );
    await waitFor(pending, (n) => n === 0, 60_000);
    expect(await pending()).toBe(0);

    const stored = await handle.db.selectFrom('webhookDeliveries').select(['id', 'event', 'orderKey', 'status', 'seq']).orderBy('seq').execute();
    expect(stored.length).toBeGreaterThan(20);
    const arrived = new Set(receiver.delivered().map((r) => r.id));
    const missing = stored.filter((d) => !arrived.has(d.id));
    expect(missing, 'stored but never delivered').toEqual([]);
    expect(stored.every((d) => d.status === 'delivered')).toBe(true);
    for (const id of acknowledged) expect(arrived.has(id), `ping ${id}`).toBe(true);
    expect(receiver.received.every((r) => r.validSignature)).toBe(true);
    // Duplicates only from what was under way at the kill: at most the node's limit of attempts at once.
    const duplicates = receiver.delivered().length - arrived.size;
    expect(duplicates).toBeLessThanOrEqual(16);
    // Per ticket, first arrivals in the order stored.
    const firstSeen = new Map<string, number>();
    receiver.received.forEach((r, i) => {
      if (!firstSeen.has(r.id)) firstSeen.set(r.id, i);
    });
    const byKey = new Map<string, number[]>();
    for (const d of stored) if (d.orderKey) byKey.set(d.orderKey, [...(byKey.get(d.orderKey) ?? []), firstSeen.get(d.id) ?? -1]);
    for (const [key, positions] of byKey) expect(positions, key).toEqual([...positions].sort((a, b) => a - b));
    console.info(`webhooks kill -9: ${stored.length} deliveries, ${arrivedBefore} answered before the kill, ${duplicates} sent twice`);
  }, 120_000);
});
