import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { LIMITS } from '@zapdesk/shared/domain';
import type { DbKind } from './database.js';

/** `column LIKE '%term%'` with the term's wildcards escaped; the same on both databases. */
export function containsLike(column: Expression<unknown> | RawBuilder<unknown>, term: string): RawBuilder<SqlBool> {
  const escaped = term.replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<SqlBool>`${column} like ${`%${escaped}%`} escape '\\'`;
}

export function pageWindow(pageNumber: number, pageSize: number = LIMITS.pageSize): { limit: number; offset: number } {
  return { limit: pageSize, offset: (pageNumber - 1) * pageSize };
}

export function bool(value: number | boolean): boolean {
  return value === true || value === 1;
}

/** A stored moment as integer milliseconds since 1970 (UTC), the same value on both databases. */
export function epochMs(kind: DbKind, column: string): RawBuilder<number> {
  return kind === 'postgres'
    ? sql<number>`cast(round(extract(epoch from ${sql.ref(column)}) * 1000) as bigint)`
    : sql<number>`cast(round((julianday(${sql.ref(column)}) - 2440587.5) * 86400000.0) as integer)`;
}
