import type { Db } from './database.js';

/**
 * Configuration read for every message (settings, opening hours, webhook endpoints) is kept for
 * a moment instead of read again each time: a change made on this node applies at once (its
 * writer calls `changed()` once the change is committed), one made on another node of a cluster
 * within CONFIG_CACHE_MS. Read for each message, these tables were a fifth of the statements the
 * pipeline ran (docs/benchmarks.md, 'The cluster at ten times the data').
 */
export const CONFIG_CACHE_MS = 2000;

export type ConfigCache<T> = {
  /** The value, read again when older than CONFIG_CACHE_MS or after `changed()`; a transaction always reads it. */
  read(db: Db): Promise<T>;
  /** Called after a write of this configuration on this node has committed: the next read is fresh. */
  changed(): void;
};

export function configCache<T>(load: (db: Db) => Promise<T>): ConfigCache<T> {
  const kept = new WeakMap<Db, { value: Promise<T>; at: number; generation: number }>();
  // A read that began before a change carries the generation it began with, so its answer is
  // never taken for one read after the change.
  let generation = 0;
  return {
    read(db) {
      // A transaction may read its own uncommitted change: never shared.
      if (db.isTransaction) return load(db);
      const hit = kept.get(db);
      if (hit && hit.generation === generation && Date.now() - hit.at < CONFIG_CACHE_MS) return hit.value;
      const entry = { value: load(db), at: Date.now(), generation };
      kept.set(db, entry);
      // A failed read is not kept.
      entry.value.catch(() => {
        if (kept.get(db) === entry) kept.delete(db);
      });
      return entry.value;
    },
    changed() {
      generation += 1;
    },
  };
}
