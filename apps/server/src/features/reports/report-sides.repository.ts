/**
 * One side of a report in one statement: the tickets whose `rangeColumn` falls in the range (created
 * in it, or closed in it) read once, then counted per local day (and hour), and their durations
 * from `start` to `end` (integer milliseconds computed by SQL) returned for the nearest-rank
 * percentiles — the value at position ⌈p·n⌉ of the n durations sorted. The tickets are read once per
 * side (a CTE used twice, materialised by both databases), so a filter that reads the ticket rows
 * beside the range's index pays that once.
 */
import { sql } from 'kysely';
import type { Db } from '../../core/db/database.js';
import { epochMs } from '../../core/db/sql-helpers.js';
import { nearestRanks } from './nearest-ranks.js';
import { localSlots } from './report-clock.js';
import { DURATIONS, durationPercentiles, slotCounts } from './report-ranks.repository.js';
import { filtered, localMs, type ReportClock, type ReportScope, type TicketColumn } from './reports.repository.js';

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

type Row = { kind: number; day: number | string; hour: number | string; n: number | string; list: string | null };

/**
 * One side of a report. Without a label filter, from the indexes alone (report-ranks.repository.ts):
 * a count per local slot, and the percentiles by walking the duration's index. With a label filter,
 * the labelled tickets (a few of them) are read one by one (`perTicketSide`).
 */
export async function reportSide(db: Db, scope: ReportScope, clock: ReportClock, options: SideOptions): Promise<Side> {
  if (scope.filters.labelId !== undefined) return perTicketSide(db, scope, clock, options);
  const slots = localSlots(clock, Date.parse(scope.from), Date.parse(scope.before), options.byHour ? 'hour' : 'day');
  const span = options.durations;
  const end = span?.end ?? options.rangeColumn;
  const counts = await slotCounts(db, scope, options.rangeColumn, end, slots);
  const merged = new Map<string, Side['cells'][number]>();
  let ended = 0;
  slots.forEach((slot, i) => {
    const { count = 0, ended: withEnd = 0 } = counts[i] ?? {};
    ended += withEnd;
    if (count === 0) return;
    const key = options.byHour ? `${slot.day}-${slot.hour}` : String(slot.day);
    const cell = merged.get(key) ?? { day: slot.day, hour: options.byHour ? slot.hour : 0, count: 0 };
    cell.count += count;
    merged.set(key, cell);
  });
  const cells = [...merged.values()];
  if (!span) return { cells, durations: null };
  const duration = span.end === 'tickets.firstResponseAt' ? DURATIONS.firstResponse : DURATIONS.resolution;
  return { cells, durations: await durationPercentiles(db, scope, options.rangeColumn, duration, ended, span.percents) };
}

/** A side read ticket by ticket: the tickets of the range and filters once, counted per local day (and hour), their durations as one list. */
async function perTicketSide(db: Db, scope: ReportScope, clock: ReportClock, options: SideOptions): Promise<Side> {
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
    ? sql`select 0 as kind, ${day} as day, ${hour} as hour, count(*) as n, cast(null as text) as list from m group by ${day}, ${hour}`
    : sql`select 0 as kind, ${day} as day, 0 as hour, count(*) as n, cast(null as text) as list from m group by ${day}`;
  // Every duration in one text value: one row to hand over instead of one per ticket.
  const list = scope.kind === 'postgres' ? sql`string_agg(cast(v as text), ',')` : sql`group_concat(v)`;
  // The durations come back unsorted, as one list, and are ranked here: sorting them in Node costs
  // less than a window over them in SQLite (the same integers, so the same values).
  const withDurations = sql<Row>`with m as ${moments} ${cellsQuery} union all select 1, 0, 0, count(v), ${list} from m where v is not null`;
  const result = await (durations ? withDurations : sql<Row>`with m as ${moments} ${cellsQuery}`).execute(db);
  const cells: Side['cells'] = [];
  const values: number[] = [];
  for (const row of result.rows) {
    if (Number(row.kind) === 0) cells.push({ day: Number(row.day), hour: Number(row.hour), count: Number(row.n) });
    else if (row.list) for (const value of row.list.split(',')) values.push(Number(value));
  }
  if (!durations) return { cells, durations: null };
  return { cells, durations: nearestRanks(values, durations.percents) };
}
