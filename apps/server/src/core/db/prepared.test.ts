/**
 * Statements built once and run with new values, on SQLite and on PostgreSQL (TEST_DB): each call
 * gets its own values (one used twice, constants kept), inside a transaction too; a statement
 * whose value the build function changes or embeds is refused instead of running wrong.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Db, type DbHandle } from './database.js';
import { migrateToLatest } from './migrate.js';
import { prepared } from './prepared.js';
import { createPostgresDatabase } from '../../test/harness.js';

let dir: string;
let handle: DbHandle;
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-prepared-'));
  const database = process.env.TEST_DB === 'postgres' ? await createPostgresDatabase() : undefined;
  dropDatabase = database?.drop;
  handle = openDatabase({ databaseUrl: database?.url, dataDir: dir });
  await migrateToLatest(handle);
  const now = new Date().toISOString();
  for (const [name, color] of [
    ['Vendas', '#000001'],
    ['Suporte', '#000002'],
    ['Financeiro', '#000003'],
  ])
    await sql`insert into queues (name, color, "greetingMessage", "createdAt", "updatedAt") values (${name}, ${color}, ${name}, ${now}, ${now})`.execute(handle.db);
});

afterAll(async () => {
  await handle.close();
  await dropDatabase?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

// A value used twice, a constant (the limit) between them.
const byNameOrGreeting = prepared((db: Db, name: string, color: string) =>
  db
    .selectFrom('queues')
    .select(['name', 'color'])
    .where((eb) => eb.or([eb('name', '=', name), eb('greetingMessage', '=', name)]))
    .where('color', '<>', color)
    .orderBy('name')
    .limit(2),
);
const rename = prepared((db: Db, id: number, name: string) => db.updateTable('queues').set({ name }).where('id', '=', id));

it('runs one statement with each call’s own values, a value used twice, a constant kept', async () => {
  expect((await byNameOrGreeting(handle.db, 'Vendas', '#ffffff')).rows).toEqual([{ name: 'Vendas', color: '#000001' }]);
  expect((await byNameOrGreeting(handle.db, 'Suporte', '#ffffff')).rows).toEqual([{ name: 'Suporte', color: '#000002' }]);
  expect((await byNameOrGreeting(handle.db, 'Suporte', '#000002')).rows).toEqual([]);
  expect((await byNameOrGreeting(handle.db, 'Nenhuma', '#ffffff')).rows).toEqual([]);
});

it('runs inside a transaction, which sees its own writes', async () => {
  const id = Number((await handle.db.selectFrom('queues').select('id').where('name', '=', 'Financeiro').executeTakeFirstOrThrow()).id);
  await handle.db.transaction().execute(async (trx) => {
    await rename(trx, id, 'Cobrança');
    expect((await byNameOrGreeting(trx, 'Cobrança', '#ffffff')).rows).toEqual([{ name: 'Cobrança', color: '#000003' }]);
  });
  expect((await byNameOrGreeting(handle.db, 'Financeiro', '#ffffff')).rows).toEqual([{ name: 'Cobrança', color: '#000003' }]);
});

it('refuses a statement whose value is changed or embedded by its build function', async () => {
  const embedded = prepared((db: Db, term: string) => db.selectFrom('queues').select('name').where('name', 'like', `%${term}%`));
  await expect(embedded(handle.db, 'end')).rejects.toThrow(/must be a parameter of its own/);
  const unused = prepared((db: Db, name: string) =>
    db
      .selectFrom('queues')
      .select('name')
      .where('name', '=', name.length > 3 ? 'x' : 'y'),
  );
  await expect(unused(handle.db, 'Vendas')).rejects.toThrow(/must be a parameter of its own/);
});
