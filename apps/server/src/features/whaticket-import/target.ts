/**
 * The product's own database as the import's target, migrated first. A dry run writes nothing:
 * a SQLite target is copied into memory and the copy is written; a PostgreSQL target runs the
 * whole import (pending migrations included) in one transaction that is rolled back.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { openDatabase, type Db, type DbHandle, type DbKind } from '../../core/db/database.js';
import { migrateToLatest, migrationsFor } from '../../core/db/migrate.js';
import type { Database } from '../../core/db/schema.js';

/** Runs one batch: a transaction of its own, or the run's transaction in a PostgreSQL dry run. */
export type Batcher = <T>(work: (db: Db) => Promise<T>) => Promise<T>;
export type TargetWork<T> = (db: Db, batch: Batcher, kind: DbKind) => Promise<T>;

class DryRunRollback extends Error {}

export async function withTarget<T>(options: { databaseUrl: string | undefined; dataDir: string; dryRun: boolean }, work: TargetWork<T>): Promise<T> {
  if (!options.dryRun) {
    const handle = openDatabase(options);
    try {
      await migrateToLatest(handle);
      // SQLite: a larger page cache for the indexes a large import grows (64 MB, a fixed cap).
      if (handle.kind === 'sqlite') await sql`pragma cache_size = -65536`.execute(handle.db);
      return await work(handle.db, (fn) => handle.db.transaction().execute(fn), handle.kind);
    } finally {
      await handle.close();
    }
  }
  if (!options.databaseUrl) return sqliteCopy(options.dataDir, work);
  const handle = openDatabase(options);
  let result: T | undefined;
  try {
    await handle.db.transaction().execute(async (trx) => {
      await applyPendingMigrations(trx, handle.kind);
      result = await work(trx, (fn) => fn(trx), handle.kind);
      throw new DryRunRollback();
    });
  } catch (error) {
    if (!(error instanceof DryRunRollback)) throw error;
  } finally {
    await handle.close();
  }
  return result as T;
}

async function sqliteCopy<T>(dataDir: string, work: TargetWork<T>): Promise<T> {
  const file = path.join(dataDir, 'zapdesk.sqlite');
  let memory: SQLite.Database;
  if (fs.existsSync(file)) {
    const original = new SQLite(file, { readonly: true, fileMustExist: true });
    try {
      const image = original.serialize();
      // A WAL database's header says so; an in-memory copy must read as a rollback-journal one.
      image[18] = 1;
      image[19] = 1;
      memory = new SQLite(image);
    } finally {
      original.close();
    }
  } else {
    memory = new SQLite(':memory:');
  }
  memory.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: memory }) });
  const handle: DbHandle = { db, kind: 'sqlite', close: () => db.destroy() };
  try {
    await migrateToLatest(handle);
    return await work(db, (fn) => db.transaction().execute(fn), 'sqlite');
  } finally {
    await handle.close();
  }
}

/** Kysely's migrator needs transactions of its own: inside the dry run's transaction, the pending `up`s run directly. */
async function applyPendingMigrations(trx: Db, kind: DbKind): Promise<void> {
  const exists = await sql<{ n: number }>`select count(*) as n from information_schema.tables where table_schema = current_schema() and table_name = 'kysely_migration'`.execute(trx);
  const done = new Set<string>();
  if (Number(exists.rows[0]?.n ?? 0) > 0) {
    const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(trx);
    for (const r of rows.rows) done.add(r.name);
  }
  const all = migrationsFor(kind);
  for (const name of Object.keys(all).sort()) {
    if (!done.has(name)) await all[name]?.up(trx);
  }
}
