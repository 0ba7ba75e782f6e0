/** A queue's auto-assignment settings (admins), and the hand-outs the rest of the app asks for. */
import type { TQueueAssignment, TQueueAssignmentInput } from '@zapdesk/shared/assignment';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import { findQueueById } from '../queues/queues.repository.js';
import * as repo from './assignment.repository.js';
import { handOutQueue } from './hand-out.js';

export async function getQueueAssignment(ctx: AppContext, queueId: number): Promise<TQueueAssignment> {
  if (!(await findQueueById(ctx.db, queueId))) throw new AppError('ERR_NO_QUEUE_FOUND');
  return repo.findAssignment(ctx.db, queueId);
}

/** Saved, then the queue's waiting tickets are handed out at once when it was turned on. */
export async function saveQueueAssignment(ctx: AppContext, queueId: number, input: TQueueAssignmentInput): Promise<TQueueAssignment> {
  if (!(await findQueueById(ctx.db, queueId))) throw new AppError('ERR_NO_QUEUE_FOUND');
  await repo.saveAssignment(ctx.db, queueId, input, nowIso());
  if (input.enabled) void scheduleHandOut(ctx, queueId);
  return repo.findAssignment(ctx.db, queueId);
}

type Round = { again: boolean; done: Promise<void> };
const rounds = new WeakMap<AppContext, Map<number, Round>>();

/**
 * Hands out a queue's waiting tickets on this node. Asked again while a round runs, the round
 * runs once more when it ends (it may have read the queue before the newest ticket was there);
 * both callers wait for that. Failures are the caller's to report.
 */
export function scheduleHandOut(ctx: AppContext, queueId: number): Promise<void> {
  let running = rounds.get(ctx);
  if (!running) {
    running = new Map<number, Round>();
    rounds.set(ctx, running);
  }
  const current = running.get(queueId);
  if (current) {
    current.again = true;
    return current.done;
  }
  const round: Round = { again: true, done: Promise.resolve() };
  const queues = running;
  round.done = (async () => {
    try {
      while (round.again) {
        round.again = false;
        await handOutQueue(ctx, queueId);
      }
    } finally {
      queues.delete(queueId);
    }
  })();
  queues.set(queueId, round);
  return round.done;
}

/** Rounds under way on this node, for a clean stop. */
export async function handOutsUnderWay(ctx: AppContext): Promise<void> {
  await Promise.allSettled([...(rounds.get(ctx)?.values() ?? [])].map((r) => r.done));
}

/**
 * The inbound pipeline's call, once a batch is committed and before it is announced: the
 * tickets of the batch that wait in a queue with auto-assignment on are handed out (the oldest
 * waiting ticket of the queue first), so the agent hears of a new ticket already in 'Atendendo'.
 */
export async function assignNewTickets(ctx: AppContext, ticketIds: number[]): Promise<void> {
  if (!(await repo.anyQueueAssigns(ctx.db))) return;
  const queueIds = await repo.queuesWithWaiting(ctx.db, ticketIds);
  await Promise.all(queueIds.map((queueId) => scheduleHandOut(ctx, queueId)));
}
