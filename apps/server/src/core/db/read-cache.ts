import { sql, SqliteAdapter } from 'kysely';
import type { Db } from './database.js';

/**
 * Results of costly reads (a tab's count over 100,000 tickets, a search) kept until the next
 * write to the database, whoever makes it. A version read before each read says whether anything
 * was written since, in one tiny statement:
 * - SQLite: total_changes() counts this connection's row writes, and data_version moves when
 *   another connection commits;
 * - PostgreSQL: the current snapshot (pg_current_snapshot(): the oldest transaction still
 *   running, the next transaction id, the ones in flight) moves when any transaction that writes
 *   starts or ends, on any connection of any node. The same snapshot text means no commit since,
 *   so the statements run after the version was read saw exactly what is there now.
 * A result is stored under the version read before computing it: a write in between moves the
 * version, and the next call computes again. So a repeated read is exact and never stale.
 */
const MAX_ENTRIES = 1000;
const caches = new WeakMap<Db, { version: string; values: Map<string, unknown> }>();

async function dataVersion(db: Db): Promise<string> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    const { rows } = await sql<{ c: number; v: number }>`select total_changes() as c, (select data_version from pragma_data_version) as v`.execute(db);
    return `${rows[0]?.c}:${rows[0]?.v}`;
  }
  const { rows } = await sql<{ v: string }>`select pg_current_snapshot()::text as v`.execute(db);
  return rows[0]?.v ?? '';
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
  if (db.isTransaction) return compute();
  const version = await dataVersion(db);
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
