/**
 * Statements built and compiled once, then run with new values. Kysely builds each query's tree
 * and compiles it to SQL anew at every call; for the statements the inbound pipeline runs for
 * each message that was a sixth of the phone's node's CPU (docs/benchmarks.md). A prepared
 * statement is built once per dialect with a marker in place of each value, and each call hands
 * the same SQL its own values.
 *
 * Only for statements whose shape never depends on the values: the build function must put each
 * value where a parameter goes, untouched (no `in` list of varying length, no value tested or
 * transformed in JavaScript: the caller does that and passes the result). A value the compiler
 * would not turn into a parameter is refused at the first call. The build function declares its
 * values one by one (no default, no rest parameter): their number is read from its length.
 */
import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type { Db } from './database.js';

const MARK = '\u0000zapdesk-value-';
const marker = (i: number): string => `${MARK}${i}\u0000`;

type Built<O> = { query: CompiledQuery<O>; slots: (number | undefined)[] };

export function prepared<A extends unknown[], O>(build: (db: Db, ...values: A) => Compilable<O>): (db: Db, ...values: A) => Promise<QueryResult<O>> {
  // The values the build function declares after the database (no defaults, no rest).
  const arity = build.length - 1;
  // One per dialect; a transaction shares its database's adapter.
  const byDialect = new WeakMap<object, Built<O>>();
  const compile = (db: Db): Built<O> => {
    const markers = Array.from({ length: arity }, (_, i) => marker(i)) as A;
    const query = build(db, ...markers).compile();
    const slots = query.parameters.map((p) => (typeof p === 'string' && p.startsWith(MARK) ? Number(p.slice(MARK.length, -1)) : undefined));
    const used = new Set(slots.filter((s) => s !== undefined));
    if (used.size !== arity || query.sql.includes(MARK) || query.parameters.some((p, i) => slots[i] === undefined && typeof p === 'string' && p.includes(MARK))) {
      throw new Error(`prepared statement: each of its ${arity} values must be a parameter of its own (${query.sql})`);
    }
    return { query, slots };
  };
  return async (db, ...values) => {
    const dialect = db.getExecutor().adapter;
    let built = byDialect.get(dialect);
    if (!built) {
      built = compile(db);
      byDialect.set(dialect, built);
    }
    const { query, slots } = built;
    const parameters = query.parameters.map((p, i) => {
      const slot = slots[i];
      return slot === undefined ? p : values[slot];
    });
    return db.executeQuery<O>({ ...query, parameters });
  };
}
