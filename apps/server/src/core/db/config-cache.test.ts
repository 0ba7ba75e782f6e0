/**
 * The configuration kept for a moment, on SQLite and on PostgreSQL (TEST_DB), with two handles on
 * one database as two nodes of a cluster: a change applies at once on the node that made it, on
 * the other within CONFIG_CACHE_MS; a transaction reads its own change; a failed read is not kept.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { CONFIG_CACHE_MS, configCache } from './config-cache.js';
import { openDatabase, type Db, type DbHandle } from './database.js';
import { migrateToLatest } from './migrate.js';
import { createPostgresDatabase } from '../../test/harness.js';

let dir: string;
let here: DbHandle;
let there: DbHandle;
let dropDatabase: (() => Promise<void>) | undefined;
let loads = 0;

const queueNames = configCache(async (db) => {
  loads += 1;
  return (await db.selectFrom('queues').select('name').orderBy('name').execute()).map((r) => r.name);
});

let colors = 0;
async function addQueue(db: Db, name: string): Promise<void> {
  const now = new Date().toISOString();
  colors += 1;
  const color = `#${String(colors).padStart(6, '0')}`;
  await sql`insert into queues (name, color, "greetingMessage", "createdAt", "updatedAt") values (${name}, ${color}, '', ${now}, ${now})`.execute(db);
}

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-config-cache-'));
  const database = process.env.TEST_DB === 'postgres' ? await createPostgresDatabase() : undefined;
  dropDatabase = database?.drop;
  here = openDatabase({ databaseUrl: database?.url, dataDir: dir });
  await migrateToLatest(here);
  there = openDatabase({ databaseUrl: database?.url, dataDir: dir });
  loads = 0;
  vi.useFakeTimers({ toFake: ['Date'] });
});

afterEach(async () => {
  vi.useRealTimers();
  await here.close();
  await there.close();
  await dropDatabase?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('applies a change at once on the node that made it, and on another node within CONFIG_CACHE_MS', async () => {
  expect(await queueNames.read(here.db)).toEqual([]);
  expect(await queueNames.read(there.db)).toEqual([]);
  expect(loads).toBe(2);

  // Read again: kept, no statement.
  expect(await queueNames.read(here.db)).toEqual([]);
  expect(loads).toBe(2);

  await addQueue(here.db, 'Vendas');
  queueNames.changed();
  expect(await queueNames.read(here.db)).toEqual(['Vendas']);

  // The other node is told nothing: it keeps what it read until the moment has passed.
  await addQueue(there.db, 'Suporte');
  vi.setSystemTime(Date.now() + CONFIG_CACHE_MS - 100);
  expect(await queueNames.read(here.db)).toEqual(['Vendas']);
  vi.setSystemTime(Date.now() + 200);
  expect(await queueNames.read(here.db)).toEqual(['Suporte', 'Vendas']);
});

it('reads afresh inside a transaction, which sees its own uncommitted change', async () => {
  expect(await queueNames.read(here.db)).toEqual([]);
  await here.db.transaction().execute(async (trx) => {
    await addQueue(trx, 'Vendas');
    expect(await queueNames.read(trx)).toEqual(['Vendas']);
  });
  // What the transaction read was not kept for the others; this node's writer tells the change.
  expect(await queueNames.read(here.db)).toEqual([]);
  queueNames.changed();
  expect(await queueNames.read(here.db)).toEqual(['Vendas']);
});

it('does not keep a failed read', async () => {
  let fail = true;
  const flaky = configCache(async () => {
    if (fail) throw new Error('database away');
    return 'value';
  });
  await expect(flaky.read(here.db)).rejects.toThrow('database away');
  fail = false;
  expect(await flaky.read(here.db)).toBe('value');
});
