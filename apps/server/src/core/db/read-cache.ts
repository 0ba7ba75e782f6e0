import { sql } from 'kysely';
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
type Cache = { version: string; values: Map<string, unknown>; computing: Map<string, Promise<unknown>> };
const caches = new WeakMap<Db, Cache>();
const versionReaders = new WeakMap<Db, VersionReader>();
const syncVersions = new WeakMap<Db, () => string>();
const observers = new WeakMap<Db, (hit: boolean) => void>();

/** Told of each memoised read of `db`: answered from memory (a hit) or computed (a miss). The metrics count them. */
export function observeMemoWith(db: Db, observe: (hit: boolean) => void): void {
  observers.set(db, observe);
}

/**
 * An embedded database reads its version straight from its handle, without a round through the
 * query builder (a third of a memoised list's database cost). The read needs no queue: the
 * computation that follows it runs after any transaction under way, so it never sees less than
 * the version says.
 */
export function readVersionWith(db: Db, read: () => string): void {
  syncVersions.set(db, read);
}

/** PostgreSQL's version (SQLite's is read from its handle). */
async function dataVersion(db: Db): Promise<string> {
  const { rows } = await sql<{ v: string }>`select pg_current_snapshot()::text as v`.execute(db);
  return rows[0]?.v ?? '';
}

/**
 * Reads the data version for many callers at once: a caller that arrives while a read is under
 * way waits for the next one, which starts after it arrived (the one under way may have taken
 * its snapshot before a write this caller has seen committed). Under load, one statement serves
 * every request that arrived during the previous one.
 */
class VersionReader {
  #running: Promise<string> | undefined;
  #next: Promise<string> | undefined;

  constructor(private readonly db: Db) {}

  read(): Promise<string> {
    if (!this.#running) return this.#start();
    this.#next ??= this.#running
      .catch(() => undefined)
      .then(() => {
        this.#next = undefined;
        return this.#start();
      });
    return this.#next;
  }

  #start(): Promise<string> {
    const read = dataVersion(this.db).finally(() => {
      if (this.#running === read) this.#running = undefined;
    });
    this.#running = read;
    return read;
  }
}

function versionReader(db: Db): VersionReader {
  let reader = versionReaders.get(db);
  if (!reader) {
    reader = new VersionReader(db);
    versionReaders.set(db, reader);
  }
  return reader;
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
  const version = syncVersions.get(db)?.() ?? (await versionReader(db).read());
  let cache = caches.get(db);
  if (!cache || cache.version !== version) {
    cache = { version, values: new Map(), computing: new Map() };
    caches.set(db, cache);
  }
  const observe = observers.get(db);
  if (cache.values.has(key)) {
    observe?.(true);
    return cache.values.get(key) as T;
  }
  // Callers asking the same at the same version share one computation (after a write, the
  // screens that ask for the same tab do not all count it again).
  const running = cache.computing.get(key);
  observe?.(running !== undefined);
  if (running) return running as Promise<T>;
  const current = cache;
  const computing = compute().then(deepFreeze);
  current.computing.set(key, computing);
  try {
    const value = await computing;
    if (current.values.size >= MAX_ENTRIES) current.values.clear();
    // Stored under the version read before computing: a write in between moves it, so the next call recomputes.
    current.values.set(key, value);
    return value;
  } finally {
    current.computing.delete(key);
  }
}
