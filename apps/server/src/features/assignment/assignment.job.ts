/**
 * When waiting tickets are picked up later (the rule in docs/teamwork.md): when an agent comes
 * online, when an agent's open ticket of a queue is resolved, returned or transferred, and by a
 * sweep every few seconds on every node for whatever those missed (close all, auto-close, a
 * node that stopped mid-way). Each pick-up hands out the queue's oldest waiting ticket first.
 */
import type { TTicket } from '@zapdesk/shared/messaging';
import type { AppContext } from '../../core/context.js';
import { pollLoop } from '../../core/poll-loop.js';
import { userQueueIds } from '../tickets/tickets.repository.js';
import * as repo from './assignment.repository.js';
import { handOutsUnderWay, scheduleHandOut } from './assignment.service.js';

export const ASSIGNMENT_SWEEP_MS = 10_000;

/** The queues a ticket's change may have freed a place in, or put a waiting ticket in. */
function queuesTouched(ticket: TTicket, previous: TTicket | undefined): number[] {
  const ids = new Set<number>();
  if (previous?.status === 'open' && previous.userId !== null && previous.queueId !== null) {
    if (ticket.status !== 'open' || ticket.userId !== previous.userId || ticket.queueId !== previous.queueId) ids.add(previous.queueId);
  }
  if (previous && ticket.status === 'pending' && ticket.userId === null && ticket.queueId !== null) ids.add(ticket.queueId);
  return [...ids];
}

export function startAutoAssignment(ctx: AppContext, onError: (error: unknown) => void): () => Promise<void> {
  const handOut = (queueIds: number[]) => {
    for (const queueId of queueIds) scheduleHandOut(ctx, queueId).catch(onError);
  };
  const unsubscribe = ctx.events.subscribe('ticket.saved', ({ ticket, previous }) => {
    const touched = queuesTouched(ticket, previous);
    if (touched.length) void repo.enabledQueueIds(ctx.db, touched).then(handOut, onError);
  });
  const stopArrivals = ctx.presence.onArrival((userId) => {
    void userQueueIds(ctx.db, userId)
      .then((queueIds) => repo.enabledQueueIds(ctx.db, queueIds))
      .then(handOut, onError);
  });
  const sweep = pollLoop(async () => handOut(await repo.queuesWithWaiting(ctx.db)), ASSIGNMENT_SWEEP_MS, onError, 'assignment', ctx.metrics.loop('assignment'));
  return async () => {
    unsubscribe();
    stopArrivals();
    await sweep.stop();
    await handOutsUnderWay(ctx);
  };
}
