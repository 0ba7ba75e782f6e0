/**
 * Handing out a queue's waiting tickets: each hand-out is one transaction that holds the queue's
 * assignment row (the lock), takes the oldest waiting ticket, gives it to the next online agent
 * in turn who is below the limit, and moves the pointer. Two nodes handing out the same queue
 * wait for each other on that row, so a ticket is never given twice and no agent is pushed past
 * the limit; the ticket's update also checks that it is still waiting (a manual accept may win).
 */
import { isOpenAt } from '@zapdesk/shared/business-hours';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { AppContext } from '../../core/context.js';
import { nowIso } from '../../core/time.js';
import { findHoursOfQueue } from '../business-hours/business-hours.repository.js';
import { findTicketById } from '../tickets/tickets.repository.js';
import * as repo from './assignment.repository.js';
import { nextInTurn } from './round-robin.js';

/** A guard against a ticket that keeps changing under the hand-out: the next round picks it up. */
const MAX_HAND_OUTS_PER_ROUND = 1000;

type HandOut = { ticketId: number; userId: number; previous: TTicket | undefined } | 'taken' | undefined;

async function handOutOne(ctx: AppContext, queueId: number, online: Set<number>): Promise<HandOut> {
  return ctx.db.transaction().execute(async (trx): Promise<HandOut> => {
    const row = await repo.lockQueue(trx, ctx.dbKind, queueId);
    if (!row?.enabled) return undefined;
    const ticketId = await repo.oldestWaitingTicketId(trx, queueId);
    if (ticketId === undefined) return undefined;
    const candidates = (await repo.queueMemberIds(trx, queueId)).filter((id) => online.has(id));
    const loads = await repo.openLoads(trx, queueId, candidates);
    const userId = nextInTurn({ candidates, lastUserId: row.lastUserId, loads, maxPerAgent: row.maxPerAgent });
    if (userId === undefined) return undefined;
    const previous = await findTicketById(trx, ticketId);
    const now = nowIso();
    if (!(await repo.assignWaitingTicket(trx, { ticketId, queueId, userId, now }))) return 'taken';
    await repo.movePointer(trx, queueId, userId, now);
    return { ticketId, userId, previous };
  });
}

/**
 * Gives the queue's waiting tickets, oldest first, to its online agents in turn until nothing
 * waits or nobody can take more. Each given ticket is announced as an accept is: the agent sees
 * it in 'Atendendo', the others' waiting lists lose it. Returns the tickets given.
 */
export async function handOutQueue(ctx: AppContext, queueId: number): Promise<{ ticketId: number; userId: number }[]> {
  const given: { ticketId: number; userId: number }[] = [];
  // A queue closed by its business hours (its own, else the default) hands nothing out: its
  // tickets wait for the morning, and the sweep hands them out once it opens.
  if (!isOpenAt(await findHoursOfQueue(ctx.db, queueId), Date.now())) return given;
  const online = new Set(await ctx.presence.onlineUserIds());
  if (online.size === 0) return given;
  for (let i = 0; i < MAX_HAND_OUTS_PER_ROUND; i += 1) {
    const result = await handOutOne(ctx, queueId, online);
    if (result === undefined) break;
    if (result === 'taken') continue;
    given.push({ ticketId: result.ticketId, userId: result.userId });
    const ticket = await findTicketById(ctx.db, result.ticketId);
    if (ticket) ctx.events.publish('ticket.saved', result.previous ? { ticket, previous: result.previous } : { ticket });
  }
  return given;
}
