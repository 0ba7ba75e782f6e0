/**
 * Webhooks in the cluster mode: three real node processes on one PostgreSQL database and Redis.
 * Events made through different nodes are each delivered; when a node is killed (SIGKILL) in the
 * middle of the stream, nothing is lost (its claims are taken again once their lease runs out),
 * the only deliveries sent twice are those it had under way, and the order per contact and per
 * ticket is kept. Runs in the PostgreSQL project; skips without Redis (fails on CI).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TContact } from '@zapdesk/shared/schemas';
import type { TWebhookDelivery, TWebhookWithSecret } from '@zapdesk/shared/webhooks';
import { WEBHOOK_EVENTS } from '@zapdesk/shared/webhooks';
import { openDatabase, type DbHandle } from '../../core/db/database.js';
import { createPostgresDatabase } from '../../test/harness.js';
import { redisForClusterTests, TEST_REDIS_URL } from '../../test/redis.js';
import { call, kill, startServer, waitFor, type Server } from '../../test/server-process.js';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';

const onPostgres = process.env.TEST_DB === 'postgres';
const ADMIN = { email: 'cluster-hooks@test.local', password: 'cluster-pass' };

describe.runIf(onPostgres)('webhook deliveries on three nodes (PostgreSQL and Redis)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  }, 60_000);

  it('delivers the events made through each node, none lost when one dies mid-stream, duplicates only from it, order kept', async (context) => {
    if (!(await redisForClusterTests())) return context.skip();
    const database = await createPostgresDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-hooks-cluster-'));
    cleanups.push(async () => {
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    const receiver: Receiver = await startReceiver();
    cleanups.push(() => receiver.stop());
    const shared = {
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: `zapdesk-hooks-${randomBytes(4).toString('hex')}`,
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
      ALLOW_PRIVATE_WEBHOOK_URLS: 'on',
      WEBHOOK_RETRY_BASE_MS: '200',
    };
    const nodes = new Map<string, Server>();
    for (const name of ['node-a', 'node-b', 'node-c']) {
      const dir = path.join(dataDir, name);
      fs.mkdirSync(dir);
      nodes.set(name, await startServer({ ...shared, NODE_ID: name, DATA_DIR: dir }, cleanups));
    }
    const handle: DbHandle = openDatabase({ databaseUrl: database.url, dataDir });
    cleanups.push(() => handle.close());
    const node = (name: string) => nodes.get(name) as Server;
    const token = (await call<{ token: string }>(node('node-a'), 'POST', '/api/auth/login', { body: ADMIN })).body.token;
    const hook = await call<TWebhookWithSecret>(node('node-a'), 'POST', '/api/webhooks', { token, body: { url: receiver.url, events: WEBHOOK_EVENTS } });
    expect(hook.status).toBe(201);
    receiver.secrets.add(hook.body.secret);

    // Slow answers keep attempts under way on every node.
    receiver.delay(300);
    const made: { node: string; contactId: number }[] = [];
    const pings: string[] = [];
    let stop = false;
    let round = 0;
    const traffic = async (name: string) => {
      for (let i = 0; !stop && i < 30; i += 1) {
        const server = node(name);
        const number = `55119${String(process.pid % 1000).padStart(3, '0')}${name.slice(-1).charCodeAt(0) % 10}${String((round += 1)).padStart(4, '0')}`;
        const created = await call<TContact>(server, 'POST', '/api/contacts', { token, body: { name: `Cliente ${number.slice(-5)}`, number, email: '' } }).catch(() => undefined);
        if (created?.status !== 201) continue;
        made.push({ node: name, contactId: created.body.id });
        await call(server, 'PUT', `/api/contacts/${created.body.id}`, { token, body: { name: `Cliente ${number.slice(-5)} (2)`, number, email: '' } }).catch(() => undefined);
        await call(server, 'PUT', `/api/contacts/${created.body.id}`, { token, body: { name: `Cliente ${number.slice(-5)} (3)`, number, email: '' } }).catch(() => undefined);
        const ping = await call<TWebhookDelivery>(server, 'POST', `/api/webhooks/${hook.body.id}/ping`, { token }).catch(() => undefined);
        if (ping?.status === 201) pings.push(ping.body.id);
      }
    };
    const flows = [
      traffic('node-a'),
      traffic('node-c'),
      (async () => {
        // node-b makes events until it dies.
        await traffic('node-b').catch(() => undefined);
      })(),
    ];
    // node-b dies with attempts under way.
    await waitFor(
      async () =>
        Number(
          (
            await handle.db
              .selectFrom('webhookDeliveries')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('claimedBy', '=', 'node-b')
              .where('status', '=', 'pending')
              .executeTakeFirstOrThrow()
          ).n,
        ),
      (n) => n >= 1,
      60_000,
    );
    await kill(node('node-b'));
    const inFlightOnDead = new Set((await handle.db.selectFrom('webhookDeliveries').select('id').where('claimedBy', '=', 'node-b').where('status', '=', 'pending').execute()).map((r) => r.id));
    nodes.delete('node-b');
    await Promise.all(flows);
    stop = true;
    receiver.delay(0);

    // The dead node's claims are taken again once their lease runs out (30 s).
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
    await waitFor(pending, (n) => n === 0, 90_000);
    expect(await pending()).toBe(0);

    const stored = await handle.db.selectFrom('webhookDeliveries').select(['id', 'event', 'orderKey', 'status', 'body']).orderBy('seq').execute();
    const arrived = new Set(receiver.delivered().map((r) => r.id));
    expect(
      stored.filter((d) => !arrived.has(d.id)).map((d) => d.event),
      'stored but never delivered',
    ).toEqual([]);
    for (const id of pings) expect(arrived.has(id), `ping ${id}`).toBe(true);
    // Every contact made through a live node: its creation delivered, whichever node sent it. (On
    // the killed node, an event whose rows it had not yet written when it died is lost: the
    // documented window between a change's commit and its deliveries' insert.)
    const createdFor = new Set(
      receiver
        .delivered()
        .filter((r) => r.event === 'contact.created')
        .map((r) => (r.data as { id: number }).id),
    );
    for (const { node: name, contactId } of made) if (name !== 'node-b') expect(createdFor.has(contactId), `contact ${contactId} via ${name}`).toBe(true);
    expect(made.some((m) => m.node === 'node-b' && createdFor.has(m.contactId))).toBe(true);
    expect(new Set(made.map((m) => m.node))).toEqual(new Set(['node-a', 'node-b', 'node-c']));
    // Duplicates: only deliveries the dead node had under way.
    const counts = new Map<string, number>();
    for (const r of receiver.delivered()) counts.set(r.id, (counts.get(r.id) ?? 0) + 1);
    const twice = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
    for (const id of twice) expect(inFlightOnDead.has(id), `sent twice: ${id}`).toBe(true);
    expect(receiver.received.every((r) => r.validSignature)).toBe(true);
    // Order per contact: first arrivals in the order stored.
    const firstSeen = new Map<string, number>();
    receiver.received.forEach((r, i) => {
      if (!firstSeen.has(r.id)) firstSeen.set(r.id, i);
    });
    const byKey = new Map<string, number[]>();
    for (const d of stored) if (d.orderKey) byKey.set(d.orderKey, [...(byKey.get(d.orderKey) ?? []), firstSeen.get(d.id) ?? -1]);
    for (const [key, positions] of byKey) expect(positions, key).toEqual([...positions].sort((a, b) => a - b));
    console.info(`webhooks on three nodes: ${stored.length} deliveries, ${inFlightOnDead.size} under way on the dead node, ${twice.length} sent twice`);
  }, 240_000);
});
