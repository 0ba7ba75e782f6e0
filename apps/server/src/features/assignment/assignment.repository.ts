/** Auto-assignment's SQL: the per-queue settings row (also the lock), waiting tickets, agents' loads. */
import { ASSIGNMENT_DEFAULT_MAX_PER_AGENT, type TQueueAssignment, type TQueueAssignmentInput } from '@zapdesk/shared/assignment';
import { configCache } from '../../core/db/config-cache.js';
import type { Db, DbKind } from '../../core/db/database.js';

/**
 * Whether any queue has auto-assignment on: asked for every inbound batch, kept for a moment
 * (config-cache.ts; a queue turned on elsewhere is caught by the job's sweep meanwhile).
 */
const anyOn = configCache(async (db) => (await db.selectFrom('queueAssignment').select('queueId').where('enabled', '=', 1).limit(1).execute()).length > 0);

export function anyQueueAssigns(db: Db): Promise<boolean> {
  return anyOn.read(db);
}

export async function findAssignment(db: Db, queueId: number): Promise<TQueueAssignment> {
  const row = await db.selectFrom('queueAssignment').select(['queueId', 'enabled', 'maxPerAgent']).where('queueId', '=', queueId).executeTakeFirst();
  return row ? { queueId, enabled: row.enabled === 1, maxPerAgent: row.maxPerAgent } : { queueId, enabled: false, maxPerAgent: ASSIGNMENT_DEFAULT_MAX_PER_AGENT };
}

/** The queues whose auto-assignment is on, among `queueIds` (all when omitted). */
export async function enabledQueueIds(db: Db, queueIds?: number[]): Promise<number[]> {
  if (queueIds?.length === 0) return [];
  let query = db.selectFrom('queueAssignment').select('queueId').where('enabled', '=', 1);
  if (queueIds) query = query.where('queueId', 'in', queueIds);
  return (await query.execute()).map((r) => r.queueId);
}

export async function saveAssignment(db: Db, queueId: number, input: TQueueAssignmentInput, now: string): Promise<void> {
  const values = { enabled: input.enabled ? 1 : 0, maxPerAgent: input.maxPerAgent, updatedAt: now };
  await db
    .insertInto('queueAssignment')
    .values({ queueId, lastUserId: null, ...values })
    .onConflict((oc) => oc.column('queueId').doUpdateSet(values))
    .execute();
  anyOn.changed();
}

/**
 * The queue's row, locked until the transaction ends: on PostgreSQL with FOR UPDATE (every node
 * waits its turn on it); SQLite has one writer at a time, and this process's transactions run
 * one after the other.
 */
export async function lockQueue(trx: Db, kind: DbKind, queueId: number): Promise<{ enabled: boolean; maxPerAgent: number; lastUserId: number | null } | undefined> {
  let query = trx.selectFrom('queueAssignment').select(['enabled', 'maxPerAgent', 'lastUserId']).where('queueId', '=', queueId);
  if (kind === 'postgres') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? { enabled: row.enabled === 1, maxPerAgent: row.maxPerAgent, lastUserId: row.lastUserId } : undefined;
}

const waiting = (db: Db) => db.selectFrom('tickets').where('status', '=', 'pending').where('userId', 'is', null).where('isGroup', '=', 0);

/** The queue's oldest waiting ticket: first come, first served. */
export async function oldestWaitingTicketId(db: Db, queueId: number): Promise<number | undefined> {
  const row = await waiting(db).select('id').where('queueId', '=', queueId).orderBy('createdAt').orderBy('id').limit(1).executeTakeFirst();
  return row?.id;
}

/** The queues with auto-assignment on that have a waiting ticket, among `ticketIds` (all when omitted). */
export async function queuesWithWaiting(db: Db, ticketIds?: number[]): Promise<number[]> {
  if (ticketIds?.length === 0) return [];
  let query = waiting(db).innerJoin('queueAssignment', 'queueAssignment.queueId', 'tickets.queueId').where('queueAssignment.enabled', '=', 1).select('tickets.queueId').distinct();
  if (ticketIds) query = query.where('tickets.id', 'in', ticketIds);
  return (await query.execute()).flatMap((r) => (r.queueId === null ? [] : [r.queueId]));
}

/** The queue's agents, by id. */
export async function queueMemberIds(db: Db, queueId: number): Promise<number[]> {
  const rows = await db.selectFrom('userQueues').select('userId').where('queueId', '=', queueId).orderBy('userId').execute();
  return rows.map((r) => r.userId);
}

/** How many open tickets of the queue each of `userIds` has. */
export async function openLoads(db: Db, queueId: number, userIds: number[]): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('tickets')
    .select(['userId', (eb) => eb.fn.countAll<number>().as('n')])
    .where('queueId', '=', queueId)
    .where('status', '=', 'open')
    .where('userId', 'in', userIds)
    .groupBy('userId')
    .execute();
  return new Map(rows.flatMap((r) => (r.userId === null ? [] : [[r.userId, Number(r.n)] as const])));
}

/** Gives a waiting ticket to an agent, only if it is still waiting in that queue (so never twice). */
export async function assignWaitingTicket(db: Db, options: { ticketId: number; queueId: number; userId: number; now: string }): Promise<boolean> {
  const result = await db
    .updateTable('tickets')
    .set({ status: 'open', userId: options.userId, updatedAt: options.now })
    .where('id', '=', options.ticketId)
    .where('queueId', '=', options.queueId)
    .where('status', '=', 'pending')
    .where('userId', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function movePointer(db: Db, queueId: number, userId: number, now: string): Promise<void> {
  await db.updateTable('queueAssignment').set({ lastUserId: userId, updatedAt: now }).where('queueId', '=', queueId).execute();
}
