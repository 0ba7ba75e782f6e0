import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { hasWords } from '@zapdesk/shared/text-match';
import { readVersionWith } from './read-cache.js';
import type { Database } from './schema.js';

export type DbKind = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;
/** `pool`: PostgreSQL's connections at this moment (SQLite has one connection and no pool). */
export type DbHandle = { db: Db; kind: DbKind; close: () => Promise<void>; pool?: () => { total: number; idle: number; waiting: number } };

// Read bigint counts as numbers and timestamptz as ISO strings, the same shapes SQLite gives.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (v) => new Date(v).toISOString());

/** The SQLite database's file in DATA_DIR. */
export function sqliteFileOf(dataDir: string): string {
  return path.join(dataDir, 'zapdesk.sqlite');
}

export function openDatabase(options: { databaseUrl: string | undefined; dataDir: string }): DbHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // A connection the server ended (a restart, a terminated backend) leaves the pool, and the
    // next query opens another; the query under way, if any, fails. Unheard, the error event of
    // the pool (an idle connection) or of the client (one checked out) would end the process.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const stats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
    return { db, kind: 'postgres', close: () => db.destroy(), pool: stats };
  }
  fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const file = sqliteFileOf(options.dataDir);
  // Owner-only: SQLite gives its -wal and -shm files the database file's mode.
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  for (const existing of [file, `${file}-wal`, `${file}-shm`]) if (fs.existsSync(existing)) fs.chmodSync(existing, 0o600);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // 64 MB of page cache (the default is 2 MB): reports that read every ticket row keep them in memory.
  sqlite.pragma('cache_size = -65536');
  // The ticket search checks one ticket's messages for its words with this (see tickets-search.repository.ts).
  sqlite.function('has_words', { deterministic: true }, (text: unknown, words: unknown) => (typeof text === 'string' && typeof words === 'string' && hasWords(text, words.split(' ')) ? 1 : 0));
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  const version = sqlite.prepare('select total_changes(), (select data_version from pragma_data_version)').raw();
  readVersionWith(db, () => (version.get() as number[]).join(':'));
  return { db, kind: 'sqlite', close: () => db.destroy() };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; preparing costs as much as running a small one. The same
 * SQL text reuses its prepared statement (the queries are parameterised, so the texts repeat).
 *
 * Kysely opens a transaction with a plain (deferred) `begin`, which here becomes `begin
 * immediate`: the transaction takes the write lock at its start, waiting for another process's
 * write (the whaticket importer, a CLI) as long as busy_timeout allows. A deferred one reads a
 * snapshot first; if another process commits before its first write, that write fails at once
 * with 'database is locked' (SQLITE_BUSY_SNAPSHOT), a wait that no busy_timeout covers.
 */
function withStatementCache(sqlite: SQLite.Database): { prepare: (sql: string) => SQLite.Statement; close: () => void } {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(text) {
      const sql = text === 'begin' ? 'begin immediate' : text;
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) {
          const oldest = cache.keys().next().value;
          if (oldest !== undefined) cache.delete(oldest);
        }
      }
      cache.set(sql, statement);
      return statement;
    },
    close: () => sqlite.close(),
  };
}

/**
 * True when a write failed on the unique index of `table.column`. Unique indexes are named
 * `<table>_<column>_unique`, which is what PostgreSQL reports; SQLite names `table.column`.
 */
export function isUniqueViolation(error: unknown, target?: { table: string; column: string }): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; message?: unknown; constraint?: unknown };
  const unique = e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  if (!unique || !target) return unique;
  const message = typeof e.message === 'string' ? e.message : '';
  return e.constraint === `${target.table}_${target.column}_unique` || message.includes(`${target.table}.${target.column}`);
}

/** Runs a write and turns a violation of the unique index of `target` into the given error. */
export async function onUniqueViolation<T>(target: { table: string; column: string }, toError: () => Error, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error, target)) throw toError();
    throw error;
  }
}
