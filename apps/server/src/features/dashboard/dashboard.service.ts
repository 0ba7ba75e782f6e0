/**
 * The dashboard: tickets in service, waiting and closed within the user's queues, and today's
 * new tickets per hour in the server's time zone (TZ): `today` from 08:00 to 19:00 (the spec's
 * chart), and `newToday` the whole day's count.
 */
import { isAdminProfile } from '@zapdesk/shared/domain';
import type { AuthUser } from '../../core/auth/identity.js';
import type { AppContext } from '../../core/context.js';
import { userQueueIds } from '../tickets/tickets.repository.js';
import { ticketCountsByStatus, ticketCreationTimesSince } from './dashboard.repository.js';

export const DASHBOARD_HOURS = { first: 8, last: 19 } as const;

/** Local midnight of `now` in the process time zone, as an instant. */
function startOfToday(now: Date): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate());
}

export async function dashboard(ctx: AppContext, actor: AuthUser, now = new Date()) {
  const queueIds = isAdminProfile(actor.profile) ? undefined : await userQueueIds(ctx.db, actor.id);
  const counts = await ticketCountsByStatus(ctx.db, queueIds);
  const perHour = new Map<number, number>();
  for (const createdAt of await ticketCreationTimesSince(ctx.db, queueIds, startOfToday(now).toISOString())) {
    const hour = new Date(createdAt).getHours();
    perHour.set(hour, (perHour.get(hour) ?? 0) + 1);
  }
  const today = [];
  for (let h = DASHBOARD_HOURS.first; h <= DASHBOARD_HOURS.last; h += 1) today.push({ hour: `${String(h).padStart(2, '0')}:00`, count: perHour.get(h) ?? 0 });
  const newToday = [...perHour.values()].reduce((sum, n) => sum + n, 0);
  return { counters: { open: counts.get('open') ?? 0, pending: counts.get('pending') ?? 0, closed: counts.get('closed') ?? 0 }, today, newToday };
}
