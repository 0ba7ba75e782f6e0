/** The SQLite read memo: exact after any write, from this process or another; private copies; failures not kept. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from './database.js';
import { migrateToLatest } from './migrate.js';
import { memoUntilWrite } from './read-cache.js';

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
  handle = openDatabase({ databaseUrl: undefined, dataDir: dir });
  await migrateToLatest(handle);
  computed = 0;
});
afterEach(async () => {
  await handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('memoUntilWrite', () => {
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
    const other = new SQLite(path.join(dir, 'zapdesk.sqlite'));
    try {
      other.prepare(`insert into queues (name, color, "greetingMessage", "createdAt", "updatedAt") values ('Outra', '#111111', '', 'x', 'x')`).run();
    } finally {
      other.close();
    }
    expect((await countQueues()).n).toBe(1);
  });

  it('stays exact around a transaction that is rolled back, and never memoises inside one', async () => {
    expect((await countQueues()).n).toBe(0);
    await expect(
      handle.db.transaction().execute(async (trx) => {
        await sql`insert into queues (name, color, "greetingMessage", "createdAt", "updatedAt") values ('Desfeita', '#222222', '', 'x', 'x')`.execute(trx);
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
