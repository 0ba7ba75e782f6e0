/**
 * The read memo, on SQLite and on PostgreSQL (TEST_DB): exact after any write, from this process or
 * another connection, also one committed while the read ran; private copies; failures not kept.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from './database.js';
import { migrateToLatest } from './migrate.js';
import { memoUntilWrite } from './read-cache.js';
import { createPostgresDatabase } from '../../test/harness.js';

const onPostgres = process.env.TEST_DB === 'postgres';
let dropDatabase: (() => Promise<void>) | undefined;
let databaseUrl: string | undefined;

let dir: string;
let handle: DbHandle;
let computed = 0;

const countQueues = () =>
  memoUntilWrite(handle.db, 'queues.count', async () => {
    computed += 1;
    const row = await handle.db
      .selectFrom('queues')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { n: Number(row.n), names: [] as string[] };
  });

async function addQueue(name: string): Promise<void> {
  await sql`insert into queues (name, color, "greetingMessage", "createdAt", "updatedAt") values (${name}, ${'#000000'}, '', ${new Date().toISOString()}, ${new Date().toISOString()})`.execute(
    handle.db,
  );
}

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-cache-'));
  const database = onPostgres ? await createPostgresDatabase() : undefined;
  databaseUrl = database?.url;
  dropDatabase = database?.drop;
  handle = openDatabase({ databaseUrl, dataDir: dir });
  await migrateToLatest(handle);
  computed = 0;
});
afterEach(async () => {
  await handle.close();
  await dropDatabase?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A write committed by another connection than the app's (another process, another node). */
async function insertElsewhere(name: string): Promise<void> {
  const text = `insert into queues (name, color, "greetingMessage", "createdAt", "updatedAt") values ('${name}', '#111111', '', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`;
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
    return;
  }
  const other = new SQLite(path.join(dir, 'zapdesk.sqlite'));
  try {
    other.prepare(text).run();
  } finally {
    other.close();
  }
}

// PostgreSQL's version is the cluster's snapshot: a transaction in any other database of the
// server moves it (as designed: a miss, never a stale answer), and the API suite runs two test
// files at a time. A test that counts memory hits is tried again when another file's writes
// happened to fall between its two reads.
describe('memoUntilWrite', { retry: onPostgres ? 3 : 0 }, () => {
  it("answers a repeated read from memory, frozen: no caller can change another's answer", async () => {
    const first = await countQueues();
    expect(() => {
      first.n = 999;
    }).toThrow(TypeError);
    expect(() => first.names.push('changed by the first caller')).toThrow(TypeError);
    expect(await countQueues()).toEqual({ n: 0, names: [] });
    expect(computed).toBe(1);
  });

  it('reads again after a write through this process', async () => {
    expect((await countQueues()).n).toBe(0);
    await addQueue('Vendas');
    expect((await countQueues()).n).toBe(1);
    expect(computed).toBe(2);
  });

  it('reads again after another connection commits a write', async () => {
    expect((await countQueues()).n).toBe(0);
    await insertElsewhere('Outra');
    expect((await countQueues()).n).toBe(1);
  });

  it('never serves a result read before a write that another connection committed while it was computed', async () => {
    const racing = () =>
      memoUntilWrite(handle.db, 'queues.racing', async () => {
        computed += 1;
        const row = await handle.db
          .selectFrom('queues')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        // Committed after this read and before its result is kept.
        if (computed === 1) await insertElsewhere('No meio');
        return Number(row.n);
      });
    expect(await racing()).toBe(0);
    expect(await racing()).toBe(1);
    expect(await racing()).toBe(1);
    expect(computed).toBe(2);
  });

  it('stays exact around a transaction that is rolled back, and never memoises inside one', async () => {
    expect((await countQueues()).n).toBe(0);
    await expect(
      handle.db.transaction().execute(async (trx) => {
        await sql`insert into queues (name, color, "greetingMessage", "createdAt", "updatedAt") values ('Desfeita', '#222222', '', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`.execute(trx);
        const inside = await memoUntilWrite(trx, 'queues.count', async () =>
          Number(
            (
              await trx
                .selectFrom('queues')
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          ),
        );
        expect(inside).toBe(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await countQueues()).n).toBe(0);
  });

  it('lets callers asking the same at the same time share one computation', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => countQueues()));
    expect(answers.every((a) => a.n === 0)).toBe(true);
    expect(computed).toBe(1);
    await addQueue('Depois');
    expect((await Promise.all([countQueues(), countQueues()])).map((a) => a.n)).toEqual([1, 1]);
    expect(computed).toBe(2);
  });

  it('keeps no failed read: the error reaches the caller and the next call computes again', async () => {
    let attempts = 0;
    const flaky = () =>
      memoUntilWrite(handle.db, 'flaky', async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('disk hiccup');
        return attempts;
      });
    await expect(flaky()).rejects.toThrow('disk hiccup');
    expect(await flaky()).toBe(2);
    expect(await flaky()).toBe(2);
  });
});
