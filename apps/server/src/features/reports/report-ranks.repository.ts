/**
 * A report side over the tickets' indexes without reading each ticket's moments: its counts per
 * local day (and hour) as one count per slot of the range's index (report-clock.ts `localSlots`),
 * and its duration percentiles as the k-th value of a walk of the duration's index (migration 043)
 * in duration order, skipping the tickets outside the range and filters: the nearest rank ⌈p·n⌉
 * of the n durations is the value at that position of the walk, ties included. The walk starts at
 * the nearer end (the 90th percentile from the longest), so it reads at most about half of the
 * index; a side with few durations reads them as one list instead (fewer entries to read).
 */
import { sql, type RawBuilder } from 'kysely';
import type { Db, DbKind } from '../../core/db/database.js';
import { epochMs } from '../../core/db/sql-helpers.js';
import type { LocalSlot } from './report-clock.js';
import type { ReportFilters, ReportScope, TicketColumn } from './reports.repository.js';
import { nearestRanks } from './nearest-ranks.js';

/** At most this many durations are read as one list and sorted in Node; more are walked. */
export const DURATION_LIST_LIMIT = 20_000;

type Duration = { column: 'firstResponseMs' | 'resolutionMs'; index: string; start: TicketColumn; end: TicketColumn };

export const DURATIONS = {
  firstResponse: { column: 'firstResponseMs', index: 'tickets_report_first_response_ms', start: 'tickets.createdAt', end: 'tickets.firstResponseAt' },
  resolution: { column: 'resolutionMs', index: 'tickets_report_resolution_ms', start: 'tickets.createdAt', end: 'tickets.closedAt' },
} as const satisfies Record<string, Duration>;

/** The queue, agent and connection filters as SQL (`+column`: the range's or the duration's index stays the plan). */
function filterSql(filters: ReportFilters): RawBuilder<unknown>[] {
  const parts: RawBuilder<unknown>[] = [];
  if (filters.queueId !== undefined) parts.push(sql`+tickets."queueId" = ${filters.queueId}`);
  if (filters.userId !== undefined) parts.push(sql`+tickets."userId" = ${filters.userId}`);
  if (filters.whatsappId !== undefined) parts.push(sql`+tickets."whatsappId" = ${filters.whatsappId}`);
  return parts;
}

function andAll(parts: RawBuilder<unknown>[]): RawBuilder<unknown> {
  return parts.length === 0 ? sql`` : sql` and ${sql.join(parts, sql` and `)}`;
}

function instant(kind: DbKind, value: RawBuilder<unknown>): RawBuilder<unknown> {
  return kind === 'postgres' ? sql`cast(${value} as timestamptz)` : value;
}

/**
 * Per slot: the tickets whose `rangeColumn` falls in it and, of those, the ones with `endColumn`
 * set, read from the range's covering index (migration 040) one slot after the other.
 */
export async function slotCounts(db: Db, scope: ReportScope, rangeColumn: TicketColumn, endColumn: TicketColumn, slots: LocalSlot[]): Promise<{ count: number; ended: number }[]> {
  if (slots.length === 0) return [];
  const rows = slots.map((s, i) => sql`(${sql.lit(i)}, ${sql.lit(new Date(s.startMs).toISOString())}, ${sql.lit(new Date(s.endMs).toISOString())})`);
  const range = sql.ref(rangeColumn);
  const counted = sql`select count(*) || ':' || count(${sql.ref(endColumn)}) from tickets
    where ${range} >= ${instant(scope.kind, sql.ref('s.a'))} and ${range} < ${instant(scope.kind, sql.ref('s.b'))}${andAll(filterSql(scope.filters))}`;
  const result = await sql<{ i: number | string; n: string }>`with s(i, a, b) as (values ${sql.join(rows)}) select s.i as i, (${counted}) as n from s`.execute(db);
  const counts = slots.map(() => ({ count: 0, ended: 0 }));
  for (const row of result.rows) {
    const [count = 0, ended = 0] = String(row.n).split(':').map(Number);
    counts[Number(row.i)] = { count, ended };
  }
  return counts;
}

/** The nearest-rank percentiles of a duration over the `n` tickets of the range and filters that have one. */
export async function durationPercentiles(
  db: Db,
  scope: ReportScope,
  rangeColumn: TicketColumn,
  duration: Duration,
  n: number,
  percents: readonly number[],
  listLimit = DURATION_LIST_LIMIT,
): Promise<{ count: number; values: (number | null)[] }> {
  if (n === 0) return { count: 0, values: percents.map(() => null) };
  const range = sql.ref(rangeColumn);
  const where = sql`${range} >= ${scope.from} and ${range} < ${scope.before}${andAll(filterSql(scope.filters))}`;
  if (n <= listLimit) {
    const v = sql`${epochMs(scope.kind, duration.end)} - ${epochMs(scope.kind, duration.start)}`;
    const list = scope.kind === 'postgres' ? sql`string_agg(cast(v as text), ',')` : sql`group_concat(v)`;
    const row = (await sql<{ list: string | null }>`select ${list} as list from (select ${v} as v from tickets where ${sql.ref(duration.end)} is not null and ${where}) as d`.execute(db)).rows[0];
    return nearestRanks(row?.list ? row.list.split(',').map(Number) : [], percents);
  }
  const column = sql.ref(`tickets.${duration.column}`);
  const from = scope.kind === 'sqlite' ? sql`tickets indexed by ${sql.id(duration.index)}` : sql`tickets`;
  const values: (number | null)[] = [];
  for (const percent of percents) {
    const rank = Math.floor((percent * n + 99) / 100);
    // The k-th shortest, or the (n - k + 1)-th longest when that end is nearer.
    const fromTop = rank > n - rank + 1;
    const order = fromTop ? sql`desc` : sql`asc`;
    const offset = fromTop ? n - rank : rank - 1;
    const row = (await sql<{ v: number | string }>`select ${column} as v from ${from} where ${column} is not null and ${where} order by ${column} ${order} limit 1 offset ${offset}`.execute(db))
      .rows[0];
    values.push(row === undefined ? null : Number(row.v));
  }
  return { count: n, values };
}
