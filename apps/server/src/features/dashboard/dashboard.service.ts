/**
 * The dashboard: tickets in service, waiting and closed within the user's queues, and today's
 * new tickets per hour in the server's time zone (TZ): `today` from 08:00 to 19:00 (the spec's
 * chart), widened to any earlier or later hour that had a ticket, and `newToday` the whole day's count. With a range, also new tickets per day and the
 * figures per queue and per agent over it (see dashboard-figures.ts).
 */
import type { DashboardRange, TDashboard } from '@zapdesk/shared/messaging';
import type { AuthUser } from '../../core/auth/identity.js';
import type { AppContext } from '../../core/context.js';
import { userQueueIds } from '../tickets/tickets.repository.js';
import { dashboardFigures } from './dashboard-figures.js';
import { ticketCountsBetween, ticketCountsByStatus } from './dashboard.repository.js';

export const DASHBOARD_HOURS = { first: 8, last: 19 } as const;

/** Days in each range, today included. */
export const DASHBOARD_RANGE_DAYS: Record<DashboardRange, number> = { today: 1, '7d': 7, '30d': 30 };

/** Local midnight `offset` days from `now`'s day, in the process time zone, as an instant. */
function localDay(now: Date, offset: number): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset);
}

function dayLabel(day: Date): string {
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
}

export async function dashboard(ctx: AppContext, actor: AuthUser, options: { range?: DashboardRange | undefined; now?: Date } = {}): Promise<TDashboard> {
  const { range, now = new Date() } = options;
  // Everyone's figures for admins and the dashboardAll permission; one's own queues' otherwise.
  const queueIds = actor.permissions.has('dashboardAll') ? undefined : await userQueueIds(ctx.db, actor.id);
  const view = await todayView(ctx, queueIds, now);
  if (range === undefined) return view;
  const length = DASHBOARD_RANGE_DAYS[range];
  const starts = Array.from({ length }, (_, i) => localDay(now, i + 1 - length));
  const tomorrow = localDay(now, 1);
  const period = { from: localDay(now, 1 - length).toISOString(), before: tomorrow.toISOString() };
  const figures = await dashboardFigures(ctx.db, ctx.dbKind, queueIds, period);
  if (range === 'today') return { ...view, range, ...figures };
  const counts = await ticketCountsBetween(
    ctx.db,
    ctx.dbKind,
    queueIds,
    [...starts, tomorrow].map((day) => day.toISOString()),
  );
  return { ...view, range, days: starts.map((start, i) => ({ day: dayLabel(start), count: counts[i] ?? 0 })), ...figures };
}

/** The spec's view: the three counters and today's chart. */
async function todayView(ctx: AppContext, queueIds: number[] | undefined, now: Date): Promise<TDashboard> {
  const counts = await ticketCountsByStatus(ctx.db, queueIds);
  // Today's local hours as instants (at a clock change an hour can be missing or twice as long).
  const bounds = Array.from({ length: 25 }, (_, h) => new Date(now.getFullYear(), now.getMonth(), now.getDate(), h).toISOString());
  const perHourCounts = await ticketCountsBetween(ctx.db, ctx.dbKind, queueIds, bounds);
  const perHour = new Map<number, number>();
  perHourCounts.forEach((count, hour) => {
    if (count > 0) perHour.set(hour, (perHour.get(hour) ?? 0) + count);
  });
  // Office hours, widened to every hour that had a ticket (a 06:40 or 22:15 ticket has its bar).
  const hours = [...perHour.keys()];
  const first = Math.min(DASHBOARD_HOURS.first, ...hours);
  const last = Math.max(DASHBOARD_HOURS.last, ...hours);
  const today = [];
  for (let h = first; h <= last; h += 1) today.push({ hour: `${String(h).padStart(2, '0')}:00`, count: perHour.get(h) ?? 0 });
  const newToday = [...perHour.values()].reduce((sum, n) => sum + n, 0);
  return { counters: { open: counts.get('open') ?? 0, pending: counts.get('pending') ?? 0, closed: counts.get('closed') ?? 0 }, today, newToday };
}
