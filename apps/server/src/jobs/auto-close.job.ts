/**
 * Auto-close: open tickets idle for 24 hours are closed by the server, not by a browser. The
 * sweep is one idempotent UPDATE, so it runs at start (catching up after downtime) and then on
 * an interval on every node without coordination.
 */
import { LIMITS } from '@zapdesk/shared/domain';
import type { AppContext } from '../core/context.js';
import { jobRound } from '../core/log-context.js';
import { nowIso } from '../core/time.js';
import { closeNoticePlan, queueCloseNotices } from '../features/email/email.service.js';
import { closeTicketsIdleSince, findTicketsByIds } from '../features/tickets/tickets.repository.js';

export const AUTO_CLOSE_INTERVAL_MS = 5 * 60 * 1000;

export async function closeIdleTickets(ctx: AppContext, now = new Date()): Promise<number[]> {
  const cutoff = new Date(now.getTime() - LIMITS.autoCloseHours * 3600 * 1000).toISOString();
  const notices = await closeNoticePlan(ctx);
  const at = nowIso();
  // Each closed ticket's notice is stored with the close.
  const { ids, queued } = await ctx.db.transaction().execute(async (trx) => {
    const closed = await closeTicketsIdleSince(trx, cutoff, at);
    return { ids: closed, queued: await queueCloseNotices(trx, notices, closed, at) };
  });
  if (queued) ctx.events.publish('email.queued', { count: queued });
  for (let i = 0; i < ids.length; i += 100) {
    for (const ticket of await findTicketsByIds(ctx.db, ids.slice(i, i + 100))) ctx.events.publish('ticket.saved', { ticket });
  }
  return ids;
}

export function scheduleAutoClose(ctx: AppContext, onError: (error: unknown) => void): () => void {
  const run = () => void jobRound('auto-close', () => closeIdleTickets(ctx).catch(onError));
  run();
  const timer = setInterval(run, AUTO_CLOSE_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
