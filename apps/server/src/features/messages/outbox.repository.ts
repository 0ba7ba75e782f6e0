/**
 * Persisted outbound work: each message to send is a row before it is a send. A row goes
 * queued -> sending -> sent, or back to queued (a later try) or to failed; 'sending' left behind
 * by a crash is queued again at start, and sent again under the same provider id.
 */
import type { MediaType } from '@zapdesk/shared/domain';
import type { Selectable } from 'kysely';
import type { Db } from '../../core/db/database.js';
import type { OutboxTable } from '../../core/db/schema.js';
import type { ChatAddress } from '../../channels/channel.js';

export const OUTBOX_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/** What to send, as stored: media by its stored file, not its bytes. */
export type OutboxContent =
  | { kind: 'text'; body: string }
  | { kind: 'media'; mediaType: MediaType; mediaPath: string; mimetype: string; filename: string; caption?: string }
  | { kind: 'voice'; mediaPath: string; mimetype: string };

export type OutboxJob = {
  id: number;
  whatsappId: number;
  providerId: string;
  messageId: number | null;
  chat: ChatAddress;
  content: OutboxContent;
  quotedProviderId: string | null;
  status: OutboxStatus;
  attempts: number;
  createdAt: string;
};

const columns = ['id', 'whatsappId', 'providerId', 'messageId', 'chat', 'content', 'quotedProviderId', 'status', 'attempts', 'createdAt'] as const;
type Row = Pick<Selectable<OutboxTable>, (typeof columns)[number]>;

function toJob(r: Row): OutboxJob {
  return {
    ...r,
    // Written by insertJob from these same types.
    chat: JSON.parse(r.chat) as ChatAddress,
    content: JSON.parse(r.content) as OutboxContent,
    status: OUTBOX_STATUSES.find((s) => s === r.status) ?? 'failed',
  };
}

export async function insertJob(
  db: Db,
  job: { whatsappId: number; providerId: string; messageId: number | null; chat: ChatAddress; content: OutboxContent; quotedProviderId: string | null },
  now: string,
): Promise<number> {
  const row = await db
    .insertInto('outbox')
    .values({ ...job, chat: JSON.stringify(job.chat), content: JSON.stringify(job.content), status: 'queued', error: null, dueAt: now, sentAt: null, createdAt: now, updatedAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findJob(db: Db, id: number): Promise<OutboxJob | undefined> {
  const row = await db.selectFrom('outbox').select(columns).where('id', '=', id).executeTakeFirst();
  return row && toJob(row);
}

export async function findJobByMessageId(db: Db, messageId: number): Promise<OutboxJob | undefined> {
  const row = await db.selectFrom('outbox').select(columns).where('messageId', '=', messageId).executeTakeFirst();
  return row && toJob(row);
}

/** Takes a queued job for one try; false when another worker (or an earlier try) has it. */
export async function claimJob(db: Db, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('outbox')
    .set((eb) => ({ status: 'sending', attempts: eb('attempts', '+', 1), updatedAt: now }))
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function finishJob(db: Db, id: number, result: { status: 'sent' } | { status: 'failed'; error: string } | { status: 'queued'; error: string; dueAt: string }, now: string): Promise<void> {
  await db
    .updateTable('outbox')
    .set({
      status: result.status,
      error: result.status === 'sent' ? null : result.error,
      ...(result.status === 'sent' ? { sentAt: now } : {}),
      ...(result.status === 'queued' ? { dueAt: result.dueAt } : {}),
      updatedAt: now,
    })
    .where('id', '=', id)
    .execute();
}

/**
 * Queued jobs due by `now`, oldest first: the order they were written in is the order they go
 * out. Only those of `whatsappIds` when given (the sessions a cluster node runs).
 */
export async function dueJobs(db: Db, now: string, limit: number, whatsappIds?: number[]): Promise<OutboxJob[]> {
  if (whatsappIds?.length === 0) return [];
  let query = db.selectFrom('outbox').select(columns).where('status', '=', 'queued').where('dueAt', '<=', now);
  if (whatsappIds) query = query.where('whatsappId', 'in', whatsappIds);
  const rows = await query.orderBy('id').limit(limit).execute();
  return rows.map(toJob);
}

/**
 * At start (or, in the cluster mode, when a node takes a connection over from one that died):
 * a try that was cut off is queued again, due now.
 */
export async function requeueInterrupted(db: Db, now: string, whatsappId?: number): Promise<number> {
  let update = db.updateTable('outbox').set({ status: 'queued', dueAt: now, updatedAt: now }).where('status', '=', 'sending');
  if (whatsappId !== undefined) update = update.where('whatsappId', '=', whatsappId);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A failed job tried again on request, to `chat`: queued, due now, with a fresh count of tries. */
export async function requeueFailed(db: Db, id: number, chat: ChatAddress, now: string): Promise<boolean> {
  const result = await db
    .updateTable('outbox')
    .set({ status: 'queued', chat: JSON.stringify(chat), attempts: 0, error: null, dueAt: now, updatedAt: now })
    .where('id', '=', id)
    .where('status', '=', 'failed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * The queue as the metrics show it: how many sends wait (queued) or are under way (sending),
 * and when the oldest waiting one was written. One statement over the status index.
 */
export async function queueStats(db: Db): Promise<{ queued: number; sending: number; oldestQueuedAt: string | null }> {
  const rows = await db
    .selectFrom('outbox')
    .select((eb) => ['status', eb.fn.countAll<number>().as('n'), eb.fn.min('createdAt').as('oldest')])
    .where('status', 'in', ['queued', 'sending'])
    .groupBy('status')
    .execute();
  const queued = rows.find((r) => r.status === 'queued');
  const sending = rows.find((r) => r.status === 'sending');
  return { queued: Number(queued?.n ?? 0), sending: Number(sending?.n ?? 0), oldestQueuedAt: queued?.oldest ?? null };
}
