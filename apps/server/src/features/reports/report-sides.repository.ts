/**
 * One side of a report in one statement: the tickets whose `rangeColumn` falls in the range (created
 * in it, or closed in it) read once, then counted per local day (and hour), and their durations
 * from `start` to `end` ranked for the nearest-rank percentiles — the value at position ⌈p·n⌉ of
 * the n durations sorted, read with row_number() over the durations sorted once. The tickets are
 * read once per side (a CTE used twice, materialised by both databases), so a filter that reads
 * the ticket rows beside the range's index pays that once.
 */
import { sql } from 'kysely';
import type { Db } from '../../core/db/database.js';
import { epochMs, filtered, localMs, type ReportClock, type ReportScope, type TicketColumn } from './reports.repository.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export type SideOptions = {
  rangeColumn: TicketColumn;
  /** Group by local hour too (the created side: busiest hours). */
  byHour: boolean;
  /** The durations to rank, or none (they are computed elsewhere: opening hours). */
  durations: { start: TicketColumn; end: TicketColumn; percents: readonly number[] } | null;
};

export type Side = { cells: { day: number; hour: number; count: number }[]; durations: { count: number; values: (number | null)[] } | null };

type Row = { kind: number; day: number | string; hour: number | string; n: number | string };

export async function reportSide(db: Db, scope: ReportScope, clock: ReportClock, options: SideOptions): Promise<Side> {
  const { durations } = options;
  const e = epochMs(scope.kind, options.rangeColumn);
  const v = durations
    ? sql<number | null>`case when ${sql.ref(durations.end)} is not null then ${epochMs(scope.kind, durations.end)} - ${epochMs(scope.kind, durations.start)} end`
    : sql<number | null>`null`;
  const moments = filtered(db, scope, options.rangeColumn).select([e.as('e'), v.as('v')]);
  const local = localMs(clock);
  const day = sql`${local} / ${sql.lit(DAY_MS)}`;
  const hour = sql`(${local} / ${sql.lit(HOUR_MS)}) % 24`;
  const cellsQuery = options.byHour
    ? sql`select 0 as kind, ${day} as day, ${hour} as hour, count(*) as n from m group by ${day}, ${hour}`
    : sql`select 0 as kind, ${day} as day, 0 as hour, count(*) as n from m group by ${day}`;
  const ranks = (durations?.percents ?? []).map((percent) => sql`(${sql.lit(percent)} * k.n + 99) / 100`);
  const result = await (
    ranks.length
      ? sql<Row>`
        with m as ${moments},
        r as (select v, row_number() over (order by v) as rn from m where v is not null),
        k as (select count(*) as n from r)
        ${cellsQuery}
        union all select 1, r.rn, 0, r.v from r, k where r.rn in (${sql.join(ranks)})
        union all select 2, 0, 0, k.n from k`
      : sql<Row>`with m as ${moments} ${cellsQuery}`
  ).execute(db);
  const cells: Side['cells'] = [];
  const byRank = new Map<number, number>();
  let count = 0;
  for (const row of result.rows) {
    const kind = Number(row.kind);
    if (kind === 0) cells.push({ day: Number(row.day), hour: Number(row.hour), count: Number(row.n) });
    else if (kind === 1) byRank.set(Number(row.day), Number(row.n));
    else count = Number(row.n);
  }
  if (!durations) return { cells, durations: null };
  const values = durations.percents.map((percent) => (count === 0 ? null : (byRank.get(Math.floor((percent * count + 99) / 100)) ?? null)));
  return { cells, durations: { count, values } };
}
