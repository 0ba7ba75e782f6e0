/**
 * The Reports page's figures, computed by the database over the tickets' own columns (createdAt,
 * firstResponseAt, closedAt: see migration 038), in integer milliseconds so that SQLite and
 * PostgreSQL give the same numbers (the percentiles: report-sides.repository.ts).
 */
import { sql, type RawBuilder } from 'kysely';
import type { Db, DbKind } from '../../core/db/database.js';
import type { OffsetSegment } from './report-clock.js';

export type ReportFilters = { queueId?: number | undefined; userId?: number | undefined; whatsappId?: number | undefined; labelId?: number | undefined };

/** The tickets a report reads: its range as ISO instants (from included, before excluded), its filters. */
export type ReportScope = { kind: DbKind; from: string; before: string; filters: ReportFilters };

/** The report's clock: UTC offsets by segment (see report-clock.ts). */
export type ReportClock = { segments: OffsetSegment[]; lastOffsetMs: number };

export type TicketColumn = 'tickets.createdAt' | 'tickets.firstResponseAt' | 'tickets.closedAt';

/** 1970-01-01 was a Thursday: (day number + 4) mod 7 is the weekday, 0 being Sunday. */
const EPOCH_WEEKDAY = 4;

/** Local milliseconds of an epoch-milliseconds column `e`: plus the offset of the segment it falls in. */
export function localMs(clock: ReportClock): RawBuilder<number> {
  const e = sql.ref('e');
  if (clock.segments.length === 0) return sql<number>`(${e} + ${sql.lit(clock.lastOffsetMs)})`;
  const whens = clock.segments.map((s) => sql`when ${e} < ${sql.lit(s.untilMs)} then ${sql.lit(s.offsetMs)}`);
  return sql<number>`(${e} + case ${sql.join(whens, sql` `)} else ${sql.lit(clock.lastOffsetMs)} end)`;
}

export function filtered(db: Db, scope: ReportScope, rangeColumn: TicketColumn) {
  const { filters } = scope;
  let query = db.selectFrom('tickets').where(rangeColumn, '>=', scope.from).where(rangeColumn, '<', scope.before);
  // `+column` (unary plus, on both databases) keeps the planner on the range's covering index:
  // without statistics SQLite would rather walk an index of the filter (one connection holds
  // every ticket) and read each row.
  const unindexed = (column: 'tickets.queueId' | 'tickets.userId' | 'tickets.whatsappId') => sql<number>`+${sql.ref(column)}`;
  if (filters.queueId !== undefined) query = query.where(unindexed('tickets.queueId'), '=', filters.queueId);
  if (filters.userId !== undefined) query = query.where(unindexed('tickets.userId'), '=', filters.userId);
  if (filters.whatsappId !== undefined) query = query.where(unindexed('tickets.whatsappId'), '=', filters.whatsappId);
  const { labelId } = filters;
  // The label's tickets first (a label holds a few of them), then each one's row.
  if (labelId !== undefined) query = query.where('tickets.id', 'in', (eb) => eb.selectFrom('ticketLabels').select('ticketLabels.ticketId').where('ticketLabels.labelId', '=', labelId));
  return query;
}

/** The weekday (0 Sunday … 6 Saturday) of a local day number: 1970-01-01 was a Thursday. */
export function weekdayOf(dayNumber: number): number {
  return (dayNumber + EPOCH_WEEKDAY) % 7;
}

/**
 * Answers to the satisfaction question given in the range: their count and the sum of their scores
 * (the caller divides, so both databases give the same average). The queue, agent and connection
 * are the ones the rating recorded when it was asked.
 */
export async function csatTotals(db: Db, scope: ReportScope): Promise<{ count: number; sum: number }> {
  const { filters } = scope;
  let query = db.selectFrom('ticketRatings').where('ticketRatings.answeredAt', '>=', scope.from).where('ticketRatings.answeredAt', '<', scope.before).where('ticketRatings.score', 'is not', null);
  if (filters.queueId !== undefined) query = query.where('ticketRatings.queueId', '=', filters.queueId);
  if (filters.userId !== undefined) query = query.where('ticketRatings.userId', '=', filters.userId);
  if (filters.whatsappId !== undefined) query = query.where('ticketRatings.whatsappId', '=', filters.whatsappId);
  const { labelId } = filters;
  if (labelId !== undefined)
    query = query.where((eb) =>
      eb.exists(eb.selectFrom('ticketLabels').select('ticketLabels.ticketId').whereRef('ticketLabels.ticketId', '=', 'ticketRatings.ticketId').where('ticketLabels.labelId', '=', labelId)),
    );
  const row = await query.select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number | null>('ticketRatings.score').as('total')]).executeTakeFirst();
  return { count: Number(row?.n ?? 0), sum: Number(row?.total ?? 0) };
}
