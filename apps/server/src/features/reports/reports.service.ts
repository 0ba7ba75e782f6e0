/**
 * A report over a range of days in the report's time zone (report-time-zone.ts): tickets opened
 * and resolved, first response and resolution times (median and 90th percentile, nearest rank),
 * the satisfaction answers, the busiest weekdays and hours, and the counts per day.
 */
import { REPORT_MAX_DAYS, REPORT_PERCENTILES, type TDurationFigures, type TReport, type TReportOptions, type TReportQuery } from '@zapdesk/shared/reports';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { dayStartMs, daysBetween, nextDay, offsetSegments } from './report-clock.js';
import { businessHoursInFigures } from '../business-hours/waiting-time.js';
import { listEntries } from '../business-hours/business-hours.repository.js';
import { openDurationPercentiles } from './open-durations.repository.js';
import { openTimeGroups } from './open-time-table.js';
import { reportOptions } from './report-options.repository.js';
import { reportTimeZone } from './report-time-zone.js';
import { reportSide } from './report-sides.repository.js';
import { csatTotals, weekdayOf, type ReportClock, type ReportScope } from './reports.repository.js';

const PERCENTS = [REPORT_PERCENTILES.median * 100, REPORT_PERCENTILES.p90 * 100] as const;
const DAY_MS = 86_400_000;

function figures(result: { count: number; values: (number | null)[] }): TDurationFigures {
  return { count: result.count, medianMs: result.values[0] ?? null, p90Ms: result.values[1] ?? null };
}

/** A real calendar day (2026-02-30 is none). */
function isDay(day: string): boolean {
  return new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day;
}

export async function report(ctx: AppContext, query: TReportQuery): Promise<TReport> {
  const { from, to } = query;
  if (!isDay(from) || !isDay(to) || to < from) throw new AppError('ERR_REPORT_RANGE');
  const days = daysBetween(from, to);
  if (days.length > REPORT_MAX_DAYS) throw new AppError('ERR_REPORT_RANGE');
  const [timeZone, hoursOn] = await Promise.all([reportTimeZone(ctx), businessHoursInFigures(ctx.db)]);
  const fromMs = dayStartMs(timeZone, from);
  const beforeMs = dayStartMs(timeZone, nextDay(to));
  const clock: ReportClock = offsetSegments(timeZone, fromMs, beforeMs);
  const scope: ReportScope = {
    kind: ctx.dbKind,
    from: new Date(fromMs).toISOString(),
    before: new Date(beforeMs).toISOString(),
    filters: { queueId: query.queueId, userId: query.userId, whatsappId: query.whatsappId, labelId: query.labelId },
  };
  // With `businessHoursInFigures` on, durations count only the opening hours of the ticket's queue
  // (open-durations.repository.ts); else each side ranks its own durations in the same statement.
  const groups = hoursOn ? openTimeGroups(await listEntries(ctx.db)) : null;
  const businessHoursOnly = groups !== null && groups.hours.length > 0;
  const firstResponseSpan = { start: 'tickets.createdAt', end: 'tickets.firstResponseAt', percents: PERCENTS } as const;
  const resolutionSpan = { start: 'tickets.createdAt', end: 'tickets.closedAt', percents: PERCENTS } as const;
  const inHours = (span: typeof firstResponseSpan | typeof resolutionSpan, rangeColumn: 'tickets.createdAt' | 'tickets.closedAt') =>
    groups && businessHoursOnly ? openDurationPercentiles(ctx.db, scope, groups, { ...span, rangeColumn }) : Promise.resolve(null);
  const [createdSide, closedSide, firstResponseInHours, resolutionInHours, csat] = await Promise.all([
    reportSide(ctx.db, scope, clock, { rangeColumn: 'tickets.createdAt', byHour: true, durations: businessHoursOnly ? null : firstResponseSpan }),
    reportSide(ctx.db, scope, clock, { rangeColumn: 'tickets.closedAt', byHour: false, durations: businessHoursOnly ? null : resolutionSpan }),
    inHours(firstResponseSpan, 'tickets.createdAt'),
    inHours(resolutionSpan, 'tickets.closedAt'),
    csatTotals(ctx.db, scope),
  ]);
  const created = createdSide.cells;
  const resolvedByDay = new Map(closedSide.cells.map((cell) => [cell.day, cell.count]));
  const resolved = closedSide.cells.reduce((sum, cell) => sum + cell.count, 0);
  const none = { count: 0, values: [null, null] };
  const firstResponse = firstResponseInHours ?? createdSide.durations ?? none;
  const resolution = resolutionInHours ?? closedSide.durations ?? none;
  const openedByDay = new Map<number, number>();
  const busiest = new Map<string, { weekday: number; hour: number; count: number }>();
  for (const cell of created) {
    openedByDay.set(cell.day, (openedByDay.get(cell.day) ?? 0) + cell.count);
    const weekday = weekdayOf(cell.day);
    const key = `${weekday}-${cell.hour}`;
    const entry = busiest.get(key) ?? { weekday, hour: cell.hour, count: 0 };
    entry.count += cell.count;
    busiest.set(key, entry);
  }
  const firstDay = Math.round(Date.parse(`${from}T00:00:00Z`) / DAY_MS);
  return {
    from,
    to,
    timeZone,
    businessHoursOnly,
    opened: created.reduce((sum, cell) => sum + cell.count, 0),
    resolved,
    firstResponse: figures(firstResponse),
    resolution: figures(resolution),
    // Two decimals: the same rounding of the same integers on both databases.
    csat: { count: csat.count, average: csat.count === 0 ? null : Math.round((csat.sum * 100) / csat.count) / 100 },
    busiest: [...busiest.values()].sort((a, b) => a.weekday - b.weekday || a.hour - b.hour),
    days: days.map((day, i) => ({ day, opened: openedByDay.get(firstDay + i) ?? 0, resolved: resolvedByDay.get(firstDay + i) ?? 0 })),
  };
}

/** What the filters offer: every queue, user, connection and label (reports read every queue). */
export function filterOptions(ctx: AppContext): Promise<TReportOptions> {
  return reportOptions(ctx.db);
}
