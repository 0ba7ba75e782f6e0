/**
 * The PostgreSQL seed: a new database, the product's migrations, then one bulk load. Each batch
 * of a table is one `insert … select * from unnest(arrays)` (one array parameter per column);
 * foreign keys are not checked row by row (the rows are consistent by construction); the loaded
 * tables' secondary indexes (among them migration 003's GIN full-text index and 017's trigram
 * index) are dropped before the load and created again after it from their own definitions.
 */
import fs from 'node:fs';
import pg from 'pg';
import { openDatabase } from '@zapdesk/server/core/db/database';
import { migrateToLatest } from '@zapdesk/server/core/db/migrate';
import { fillSeed, LOADED_TABLES, seedShape, type Writer } from './seed-data.js';

async function pgWriter(client: pg.Client): Promise<Writer> {
  const types = new Map<string, string>();
  const { rows } = await client.query<{ table: string; column: string; type: string }>(
    `select c.relname as table, a.attname as column, format_type(a.atttypid, a.atttypmod) as type
       from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relname = any($1) and a.attnum > 0 and not a.attisdropped`,
    [LOADED_TABLES],
  );
  for (const row of rows) types.set(`${row.table}.${row.column}`, row.type);
  return {
    async insert(table, columns, batch) {
      if (!batch.length) return;
      const arrays = columns.map((_, c) => batch.map((row) => row[c] ?? null));
      const casts = columns.map((column, c) => `$${c + 1}::${types.get(`${table}.${column}`) ?? 'text'}[]`);
      await client.query(`insert into "${table}" (${columns.map((c) => `"${c}"`).join(',')}) select * from unnest(${casts.join(',')})`, arrays);
    },
  };
}

type Index = { name: string; table: string; definition: string };

/**
 * Drops the loaded tables' indexes that back no constraint; answers their definitions. Partial
 * indexes stay (few rows qualify, and pg_get_indexdef gives their condition back in another,
 * equivalent spelling: the rebuilt schema would not read as the migrations wrote it).
 */
async function dropIndexes(client: pg.Client, log: (s: string) => void): Promise<Index[]> {
  const { rows } = await client.query<Index>(
    `select ic.relname as name, c.relname as table, pg_get_indexdef(i.indexrelid) as definition
       from pg_index i join pg_class ic on ic.oid = i.indexrelid join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relname = any($1)
        and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
        and i.indpred is null`,
    [LOADED_TABLES],
  );
  const dropped: Index[] = [];
  for (const index of rows) {
    try {
      await client.query('savepoint drop_index');
      await client.query(`drop index "${index.name}"`);
      await client.query('release savepoint drop_index');
      dropped.push(index);
    } catch (error) {
      await client.query('rollback to savepoint drop_index');
      // Something depends on it (a foreign key to a unique index): it stays and is kept during the load.
      log(`index ${index.name} kept: ${(error as Error).message}`);
    }
  }
  return dropped;
}

/** CPU seconds (user + system) of a process of this machine, when it can be read. */
function processCpuSeconds(pid: number): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Builds the PostgreSQL seed in the database of `url` (dropped and created anew); answers the time of each phase in ms. */
export async function seedPostgres(url: string, log: (s: string) => void = console.log, scale = 1): Promise<Record<string, number>> {
  const times: Record<string, number> = {};
  let started = performance.now();
  const phase = (name: string) => {
    times[name] = Math.round(performance.now() - started);
    started = performance.now();
  };
  const target = new URL(url);
  const name = target.pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsupported database name ${name}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  await c.query(`drop database if exists ${name} with (force)`);
  await c.query(`create database ${name}`);
  await c.end();
  const handle = openDatabase({ databaseUrl: url, dataDir: '' });
  await migrateToLatest(handle);
  await handle.close();
  phase('migrations');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const backend = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid ?? 0;
  await client.query(`set maintenance_work_mem = '1GB'`);
  await client.query('set synchronous_commit = off');
  // One transaction: a build that fails leaves empty tables (which seedExists does not take for a seed).
  await client.query('begin');
  const indexes = await dropIndexes(client, log);
  // Foreign keys are enforced by triggers; the replica role skips them (a superuser's setting, as the seed's connection is).
  await client.query(`set local session_replication_role = replica`).catch((error: unknown) => log(`foreign keys checked per row: ${(error as Error).message}`));
  await fillSeed(await pgWriter(client), log, seedShape(scale));
  phase('rows');
  for (const index of indexes) {
    const at = performance.now();
    await client.query(index.definition);
    times[`index ${index.name}`] = Math.round(performance.now() - at);
  }
  log(`indexes: ${indexes.length} built`);
  for (const table of ['queues', 'whatsapps', 'users', 'contacts', 'tickets', 'messages', 'labels']) {
    await client.query(`select setval(pg_get_serial_sequence('"${table}"', 'id'), (select max(id) from "${table}"))`);
  }
  await client.query('commit');
  phase('indexes');
  await client.query('vacuum analyze');
  phase('vacuum');
  const cpu = processCpuSeconds(backend);
  if (cpu !== null) times['database backend cpu'] = Math.round(cpu * 1000);
  await client.end();
  return times;
}
