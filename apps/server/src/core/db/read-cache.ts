import { sql, SqliteAdapter } from 'kysely';
import type { Db } from './database.js';

/**
 * Results of costly reads (a tab's count over 100,000 tickets, a search) kept until the next
 * write to the database, whoever makes it: SQLite's total_changes() counts this connection's
 * row writes and data_version moves when another connection commits. Checking both costs one
 * tiny statement, so a repeated read is exact and never stale. PostgreSQL has no such cheap
 * and race-free counter (its pooled connections commit independently): reads run every time.
 */
const MAX_ENTRIES = 1000;
const caches = new WeakMap<Db, { version: string; values: Map<string, unknown> }>();

async function sqliteVersion(db: Db): Promise<string> {
  const { rows } = await sql<{ c: number; v: number }>`select total_changes() as c, (select data_version from pragma_data_version) as v`.execute(db);
  return `${rows[0]?.c}:${rows[0]?.v}`;
}

/** Freezes a result and everything in it: shared answers can be read, not changed. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * `compute()`, or its result from an earlier call with the same key when nothing was written
 * since. The result is frozen, deeply: every caller shares it, and one that tried to change it
 * would fail at once instead of changing everybody's answer. A read that fails is not kept.
 */
export async function memoUntilWrite<T>(db: Db, key: string, compute: () => Promise<T>): Promise<T> {
  // A transaction is its own Kysely instance: what it reads, uncommitted, is never shared.
  if (db.isTransaction || !(db.getExecutor().adapter instanceof SqliteAdapter)) return compute();
  const version = await sqliteVersion(db);
  let cache = caches.get(db);
  if (!cache || cache.version !== version) {
    cache = { version, values: new Map() };
    caches.set(db, cache);
  }
  if (cache.values.has(key)) return cache.values.get(key) as T;
  const value = deepFreeze(await compute());
  if (cache.values.size >= MAX_ENTRIES) cache.values.clear();
  // Stored under the version read before computing: a write in between moves it, so the next call recomputes.
  cache.values.set(key, value);
  return value;
}
