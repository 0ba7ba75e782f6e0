/**
 * The dashboard: tickets in service, waiting and closed within the user's queues, and today's
 * new tickets per hour from 08:00 to 19:00 in the server's time zone (TZ).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isAdminProfile } from '@zapdesk/shared/domain';
import { ZDashboardSchema } from '@zapdesk/shared/messaging';
import type { AppContext } from '../../core/context.js';
import { authenticate, currentUser } from '../../core/http/auth-hooks.js';
import { userQueueIds } from '../tickets/tickets.repository.js';

export const DASHBOARD_HOURS = { first: 8, last: 19 } as const;

/** Local midnight of `now` in the process time zone, as an instant. */
function startOfToday(now: Date): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate());
}

export const dashboardRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/dashboard', { schema: { tags: ['dashboard'], response: { 200: ZDashboardSchema } }, onRequest: authenticate(ctx) }, async (req) => {
    const actor = currentUser(req);
    const admin = isAdminProfile(actor.profile);
    const queueIds = admin ? [] : await userQueueIds(ctx.db, actor.id);
    let base = ctx.db.selectFrom('tickets');
    if (!admin) base = base.where((eb) => eb.or([eb('queueId', 'is', null), ...(queueIds.length ? [eb('queueId', 'in', queueIds)] : [])]));
    const counts = await base.select(['status', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('status').execute();
    const count = (status: string) => Number(counts.find((c) => c.status === status)?.n ?? 0);

    const now = new Date();
    const from = startOfToday(now);
    const created = await base.select('createdAt').where('createdAt', '>=', from.toISOString()).execute();
    const perHour = new Map<number, number>();
    for (const row of created) {
      const hour = new Date(row.createdAt).getHours();
      perHour.set(hour, (perHour.get(hour) ?? 0) + 1);
    }
    const today = [];
    for (let h = DASHBOARD_HOURS.first; h <= DASHBOARD_HOURS.last; h += 1) today.push({ hour: `${String(h).padStart(2, '0')}:00`, count: perHour.get(h) ?? 0 });
    return { counters: { open: count('open'), pending: count('pending'), closed: count('closed') }, today };
  });
};
