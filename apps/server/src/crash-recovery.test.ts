/**
 * Nothing acknowledged is lost on a crash. The real server runs as a child process, is flooded
 * through the simulated phone and killed with SIGKILL mid-way, then started again on the same
 * data; the test counts what the database and the phone hold.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase, type DbHandle } from './core/db/database.js';
import { createPostgresDatabase } from './test/harness.js';
import { call, kill, startServer, waitFor, type Server } from './test/server-process.js';

const ADMIN = { email: 'crash@test.local', password: 'crash-pass' };

type Place = { dataDir: string; databaseUrl: string | undefined; drop: () => Promise<void> };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function newPlace(): Promise<Place> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-crash-'));
  const pgDb = process.env.TEST_DB === 'postgres' ? await createPostgresDatabase() : undefined;
  const place = {
    dataDir,
    databaseUrl: pgDb?.url,
    drop: async () => {
      await pgDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  cleanups.push(place.drop);
  return place;
}

async function startServerOn(place: Place): Promise<Server> {
  return startServer(
    {
      DATA_DIR: place.dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SIMULATOR: 'on',
      LOG_LEVEL: 'error',
      LOGIN_RATE_LIMIT: '1000',
      WEB_DIST: path.join(place.dataDir, 'no-web'),
      ...(place.databaseUrl ? { DATABASE_URL: place.databaseUrl } : {}),
    },
    cleanups,
  );
}

async function signIn(server: Server): Promise<string> {
  const res = await call<{ token: string }>(server, 'POST', '/api/auth/login', { body: ADMIN });
  if (res.status !== 200) throw new Error(`login: ${res.status}`);
  return res.body.token;
}

async function linkedSimulator(server: Server, token: string): Promise<number> {
  const created = await call<{ id: number }>(server, 'POST', '/api/whatsapp', { token, body: { name: 'Crash phone', channel: 'simulator', isDefault: true } });
  expect(created.status).toBe(201);
  const scanned = await call(server, 'POST', `/api/simulator/${created.body.id}/scan`, { token });
  expect(scanned.status).toBe(200);
  return created.body.id;
}

/** Runs `work` over the items with `workers` requests in flight, until the items run out or `stop()` says so. */
async function pool<T>(items: T[], workers: number, work: (item: T) => Promise<void>, stop: () => boolean): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (!stop() && next < items.length) {
        const item = items[next] as T;
        next += 1;
        await work(item);
      }
    }),
  );
}

function openData(place: Place): DbHandle {
  const handle = openDatabase({ databaseUrl: place.databaseUrl, dataDir: place.dataDir });
  cleanups.push(() => handle.close());
  return handle;
}

/** What must hold in any state the product can be in. */
async function expectConsistent(handle: DbHandle, place: Place): Promise<void> {
  const { db } = handle;
  const duplicateActive = await db
    .selectFrom('tickets')
    .select(['contactId', 'whatsappId', (eb) => eb.fn.countAll<number>().as('n')])
    .where('status', 'in', ['open', 'pending'])
    .groupBy(['contactId', 'whatsappId'])
    .having((eb) => eb.fn.countAll(), '>', 1)
    .execute();
  expect(duplicateActive).toEqual([]);
  const duplicateIds = await db
    .selectFrom('messages')
    .select(['whatsappId', 'providerId'])
    .groupBy(['whatsappId', 'providerId'])
    .having((eb) => eb.fn.countAll(), '>', 1)
    .execute();
  expect(duplicateIds).toEqual([]);
  const orphans = await db.selectFrom('messages').leftJoin('tickets', 'tickets.id', 'messages.ticketId').select('messages.id').where('tickets.id', 'is', null).execute();
  expect(orphans).toEqual([]);
  const ticketsWithoutMessages = await db
    .selectFrom('tickets')
    .select('tickets.id')
    .where((eb) => eb.not(eb.exists(eb.selectFrom('messages').select('messages.id').whereRef('messages.ticketId', '=', 'tickets.id'))))
    .execute();
  expect(ticketsWithoutMessages).toEqual([]);
  if (place.databaseUrl === undefined) {
    // On a connection of its own: FTS5's integrity check on a connection that read the index
    // before another process wrote to it reports the segments merged since as corrupt.
    const fresh = openDatabase({ databaseUrl: undefined, dataDir: place.dataDir });
    try {
      const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(fresh.db);
      expect(check.rows.map((r) => r.integrity_check)).toEqual(['ok']);
    } finally {
      await fresh.close();
    }
  }
}

describe('kill -9', () => {
  it('stores every acknowledged inbound message exactly once (2,000 messages from 200 contacts, killed mid-flood)', async () => {
    const place = await newPlace();
    let server = await startServerOn(place);
    let token = await signIn(server);
    const connectionId = await linkedSimulator(server, token);

    const messages = Array.from({ length: 2000 }, (_, i) => ({ id: `CRASH-IN-${i}`, from: `5511970${String(i % 200).padStart(5, '0')}`, body: `message ${i}` }));
    const acknowledged = new Set<string>();
    let interrupted = 0;
    let killed = false;
    const first = server;
    await pool(
      messages,
      20,
      async (m) => {
        const res = await call(first, 'POST', `/api/simulator/${connectionId}/inbound`, { token, body: m }).catch(() => undefined);
        if (res?.status === 200) acknowledged.add(m.id);
        if (!res) interrupted += 1;
        if (!killed && acknowledged.size >= 700) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      },
      () => killed,
    );
    await first.exited;
    expect(acknowledged.size).toBeGreaterThanOrEqual(700);
    expect(acknowledged.size).toBeLessThan(messages.length);
    // The kill hit requests in flight: the server really went down mid-flood.
    expect(interrupted).toBeGreaterThan(0);

    server = await startServerOn(place);
    const handle = openData(place);
    const stored = async (ids: string[]) => {
      const rows = await handle.db
        .selectFrom('messages')
        .select(['providerId', (eb) => eb.fn.countAll<number>().as('n')])
        .where('providerId', 'in', ids)
        .groupBy('providerId')
        .execute();
      return new Map(rows.map((r) => [r.providerId, Number(r.n)]));
    };
    const afterCrash = await stored([...acknowledged]);
    const lost = [...acknowledged].filter((id) => afterCrash.get(id) !== 1);
    expect(lost).toEqual([]);
    await expectConsistent(handle, place);

    // The phone sends again what it was not told arrived: each id is kept once.
    token = await signIn(server);
    const resend = messages.filter((m) => !acknowledged.has(m.id));
    await pool(
      resend,
      20,
      async (m) => {
        const res = await call(server, 'POST', `/api/simulator/${connectionId}/inbound`, { token, body: m });
        expect(res.status).toBe(200);
      },
      () => false,
    );
    const all = await stored(messages.map((m) => m.id));
    expect(messages.filter((m) => all.get(m.id) !== 1)).toEqual([]);
    const contacts = await handle.db
      .selectFrom('contacts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(contacts.n)).toBe(200);
    await expectConsistent(handle, place);
    await kill(server);
  }, 180_000);

  it('delivers every reply that got a 2xx exactly once (a burst of 50 replies, killed mid-burst)', async () => {
    const place = await newPlace();
    let server = await startServerOn(place);
    let token = await signIn(server);
    const connectionId = await linkedSimulator(server, token);

    // Ten customers write; an agent (the admin) accepts their tickets.
    const numbers = Array.from({ length: 10 }, (_, i) => `5511980${String(i).padStart(5, '0')}`);
    for (const from of numbers) expect((await call(server, 'POST', `/api/simulator/${connectionId}/inbound`, { token, body: { from, body: 'olá' } })).status).toBe(200);
    const list = await call<{ tickets: { id: number }[] }>(server, 'GET', '/api/tickets?status=pending&showAll=true', { token });
    const ticketIds = list.body.tickets.map((t) => t.id);
    expect(ticketIds).toHaveLength(10);
    for (const id of ticketIds) expect((await call(server, 'PUT', `/api/tickets/${id}`, { token, body: { status: 'open' } })).status).toBe(200);

    const replies = Array.from({ length: 50 }, (_, i) => ({ ticketId: ticketIds[i % 10] as number, body: `reply ${i}` }));
    const answered = new Set<string>();
    let interrupted = 0;
    let killed = false;
    const first = server;
    await Promise.all(
      replies.map(async (r) => {
        const res = await call(first, 'POST', `/api/messages/${r.ticketId}`, { token, body: { body: r.body } }).catch(() => undefined);
        if (res && res.status >= 200 && res.status < 300) answered.add(r.body);
        if (!res) interrupted += 1;
        if (!killed && answered.size >= 15) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }),
    );
    await first.exited;
    expect(answered.size).toBeGreaterThanOrEqual(15);
    expect(interrupted).toBeGreaterThan(0);

    server = await startServerOn(place);
    const handle = openData(place);
    // What was stored before the crash goes out at start; nothing is left waiting.
    const waiting = await waitFor(
      async () =>
        Number(
          (
            await handle.db
              .selectFrom('outbox')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('status', 'in', ['queued', 'sending'])
              .executeTakeFirstOrThrow()
          ).n,
        ),
      (n) => n === 0,
    );
    expect(waiting).toBe(0);

    token = await signIn(server);
    const phone = await call<{ to: string; body: string; kind: string }[]>(server, 'GET', `/api/simulator/${connectionId}/outbox`, { token });
    expect(phone.status).toBe(200);
    const received = new Map<string, number>();
    for (const item of phone.body) if (item.body.startsWith('reply ')) received.set(item.body, (received.get(item.body) ?? 0) + 1);
    // Every answered reply reached the phone once; none reached it twice.
    expect([...answered].filter((body) => received.get(body) !== 1)).toEqual([]);
    expect([...received].filter(([, n]) => n > 1)).toEqual([]);
    // Every stored reply is sent, and what the phone has is what the database says was sent.
    const rows = await handle.db.selectFrom('messages').select(['body', 'sendStatus']).where('fromMe', '=', 1).where('body', 'like', 'reply %').execute();
    expect(rows.filter((r) => r.sendStatus !== 'sent')).toEqual([]);
    expect(rows.map((r) => r.body).sort()).toEqual([...received.keys()].sort());
    for (const body of answered) expect(rows.some((r) => r.body === body)).toBe(true);
    await expectConsistent(handle, place);
    await kill(server);
  }, 180_000);
  // Three runs in a row, each on fresh data: a send killed mid-campaign is never repeated.
  it.each([1, 2, 3])(
    'sends a 1,000-recipient campaign exactly once across a kill -9 at about 300 sent (run %i)',
    async (runNo) => {
      const place = await newPlace();
      let server = await startServerOn(place);
      let token = await signIn(server);
      const connectionId = await linkedSimulator(server, token);
      const body = `Oferta ${runNo} ${Date.now()}`;
      const numbers = Array.from({ length: 1000 }, (_, i) => `5511960${String(i).padStart(6, '0')}`);
      const created = await call<{ campaign: { id: number } }>(server, 'POST', '/api/campaigns', {
        token,
        body: { kind: 'text', whatsappId: connectionId, numbers: numbers.join('\n'), message: body, minDelay: 0, maxDelay: 0 },
      });
      expect(created.status).toBe(201);
      const campaignId = created.body.campaign.id;
      type State = { status: string; total: number; counts: Record<string, number> };
      const state = async () => (await call<State>(server, 'GET', `/api/campaigns/${campaignId}`, { token })).body;
      // Asked without a pause: at 0–0 s the phone gets hundreds of messages a second.
      let before = await state();
      const until = Date.now() + 60_000;
      while ((before.counts.sent ?? 0) < 300 && Date.now() < until) before = await state();
      await kill(server);
      expect(before.counts.sent ?? 0).toBeGreaterThanOrEqual(300);
      // Killed mid-way: recipients were left to send.
      const handle = openData(place);
      const left = await handle.db.selectFrom('campaignRecipients').select('id').where('campaignId', '=', campaignId).where('status', 'in', ['queued', 'sending']).execute();
      expect(left.length).toBeGreaterThan(0);

      server = await startServerOn(place);
      token = await signIn(server);
      const done = await waitFor(state, (c) => c.status === 'completed', 120_000);
      expect(done.status).toBe('completed');
      expect(done.total).toBe(1000);
      expect((done.counts.queued ?? 0) + (done.counts.sending ?? 0)).toBe(0);
      // At most one send per connection can be in doubt; the simulated phone answers for it.
      expect(done.counts.unknown ?? 0).toBeLessThanOrEqual(1);
      expect((done.counts.sent ?? 0) + (done.counts.unknown ?? 0)).toBe(1000);

      const phone = await call<{ to: string; body: string }[]>(server, 'GET', `/api/simulator/${connectionId}/outbox`, { token });
      const received = new Map<string, number>();
      for (const item of phone.body) if (item.body === body) received.set(item.to, (received.get(item.to) ?? 0) + 1);
      // Every number got the message, and none twice; a number missing is one left 'unknown'.
      expect([...received].filter(([, n]) => n > 1)).toEqual([]);
      expect(numbers.filter((n) => !received.has(n)).length).toBeLessThanOrEqual(done.counts.unknown ?? 0);
      await expectConsistent(handle, place);
      await kill(server);
    },
    300_000,
  );
});
