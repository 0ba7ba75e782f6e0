/**
 * Durations counted in opening hours. The database hands over, as one list, each ticket's two
 * moments (integer milliseconds) and its hours group (its queue's own hours, else the default's;
 * none: always open, wall-clock time); the server adds up the open time between them with one
 * binary search per moment in the cumulative open time of the group (open-time-table.ts), exact to
 * the millisecond, then takes the nearest-rank percentiles like the wall-clock durations.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../core/db/database.js';
import { epochMs } from '../../core/db/sql-helpers.js';
import { openTimeMeter, type OpenTimeGroups } from './open-time-table.js';
import { nearestRanks } from './nearest-ranks.js';
import { filtered, type ReportScope, type TicketColumn } from './reports.repository.js';

type Options = { start: TicketColumn; end: TicketColumn; rangeColumn: TicketColumn; percents: readonly number[] };

/** The hours group of the ticket's queue, as SQL: its own, else the default's (-1: always open). */
function groupOf(groups: OpenTimeGroups): RawBuilder<number> {
  const fallback = sql.lit(groups.defaultGroup ?? -1);
  if (groups.byQueue.size === 0) return sql<number>`${fallback}`;
  const whens = [...groups.byQueue].map(([queueId, g]) => sql`when ${sql.lit(queueId)} then ${sql.lit(g)}`);
  return sql<number>`case +${sql.ref('tickets.queueId')} ${sql.join(whens, sql` `)} else ${fallback} end`;
}

export async function openDurationPercentiles(db: Db, scope: ReportScope, groups: OpenTimeGroups, options: Options): Promise<{ count: number; values: (number | null)[] }> {
  const tickets = filtered(db, scope, options.rangeColumn)
    .where(options.end, 'is not', null)
    .select([epochMs(scope.kind, options.start).as('a'), epochMs(scope.kind, options.end).as('b'), groupOf(groups).as('g')]);
  const triple = sql`cast(t.a as text) || ':' || cast(t.b as text) || ':' || cast(t.g as text)`;
  const list = scope.kind === 'postgres' ? sql`string_agg(${triple}, ',')` : sql`group_concat(${triple})`;
  const row = (await sql<{ list: string | null }>`select ${list} as list from ${tickets} as t`.execute(db)).rows[0];
  const moments = (row?.list ? row.list.split(',') : []).map((text) => text.split(':').map(Number) as [number, number, number]);
  if (moments.length === 0) return { count: 0, values: options.percents.map(() => null) };
  let first = Infinity;
  let last = -Infinity;
  for (const [a, b] of moments) {
    first = Math.min(first, a, b);
    last = Math.max(last, a, b);
  }
  const meters = groups.hours.map((hours) => openTimeMeter(hours, first, last));
  const durations = moments.map(([a, b, g]) => {
    const meter = meters[g];
    return meter ? meter(b) - meter(a) : b - a;
  });
  return nearestRanks(durations, options.percents);
}
