import { ZBusinessHoursSchema, type BusinessHours, type TBusinessHoursEntry } from '@zapdesk/shared/business-hours';
import { configCache } from '../../core/db/config-cache.js';
import type { Db } from '../../core/db/database.js';
import type { BusinessHoursTable } from '../../core/db/schema-hours.js';

type Row = Pick<BusinessHoursTable, 'queueId' | 'timezone' | 'week' | 'holidays' | 'outOfHoursMessage'>;
const columns = ['queueId', 'timezone', 'week', 'holidays', 'outOfHoursMessage'] as const;

/** A stored row as hours; a row that no longer parses counts as none (never a 500 on the inbound path). */
function hoursOf(row: Row): BusinessHours | null {
  const parsed = ZBusinessHoursSchema.safeParse({ timezone: row.timezone, week: safeJson(row.week), holidays: safeJson(row.holidays) });
  return parsed.success ? parsed.data : null;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function rowOf(db: Db, queueId: number | null): Promise<Row | undefined> {
  const q = db.selectFrom('businessHours').select(columns);
  return (queueId === null ? q.where('queueId', 'is', null) : q.where('queueId', '=', queueId)).executeTakeFirst();
}

/** The row saved for exactly this queue (null = the default), not falling back. */
export async function findOwnEntry(db: Db, queueId: number | null): Promise<TBusinessHoursEntry> {
  const row = await rowOf(db, queueId);
  return { queueId, hours: row ? hoursOf(row) : null, outOfHoursMessage: row?.outOfHoursMessage ?? '' };
}

/** What applies to a queue: its hours (null: always open) and its out-of-hours message. */
export type QueueRule = { hours: BusinessHours | null; message: string };
type SavedRule = { queueId: number | null; hours: BusinessHours | null; message: string };

/**
 * Every saved row, parsed: read for every inbound message, so kept for a moment (see
 * config-cache.ts); saveEntry and deleteEntry tell it of their changes.
 */
const savedRules = configCache(async (db): Promise<readonly SavedRule[]> => {
  const rows = await db.selectFrom('businessHours').select(columns).execute();
  return rows.map((row) => ({ queueId: row.queueId, hours: hoursOf(row), message: row.outOfHoursMessage }));
});

/** The queue's own hours and message, else the default's (a queue's empty message falls back to the default's). */
function ruleFrom(rules: readonly SavedRule[], queueId: number | null): QueueRule {
  const own = queueId === null ? undefined : rules.find((r) => r.queueId === queueId);
  const fallback = own && own.message.trim() !== '' ? undefined : rules.find((r) => r.queueId === null);
  const hours = own ? own.hours : fallback ? fallback.hours : null;
  const message = own?.message.trim() ? own.message : (fallback?.message ?? '');
  return { hours, message };
}

/** Each queue's rule (null queueId: the default), from one read of the saved rows. */
export async function readQueueRules(db: Db): Promise<(queueId: number | null) => QueueRule> {
  const rules = await savedRules.read(db);
  return (queueId) => ruleFrom(rules, queueId);
}

/**
 * The hours that apply to a queue: its own, else the default's. Null queueId = the default hours.
 * Null when none are set: always open.
 */
export async function findHoursOfQueue(db: Db, queueId: number | null): Promise<BusinessHours | null> {
  return (await readQueueRules(db))(queueId).hours;
}

/** Every saved row: the default (queueId null) and the queues with their own hours. */
export async function listEntries(db: Db): Promise<TBusinessHoursEntry[]> {
  const rows = await db.selectFrom('businessHours').select(columns).execute();
  return rows.map((row) => ({ queueId: row.queueId, hours: hoursOf(row), outOfHoursMessage: row.outOfHoursMessage }));
}

export async function saveEntry(db: Db, entry: { queueId: number | null; hours: BusinessHours; outOfHoursMessage: string }, now: string): Promise<void> {
  const values = {
    timezone: entry.hours.timezone,
    week: JSON.stringify(entry.hours.week),
    holidays: JSON.stringify([...new Set(entry.hours.holidays)].sort()),
    outOfHoursMessage: entry.outOfHoursMessage,
    updatedAt: now,
  };
  await db.transaction().execute(async (trx) => {
    const existing = await rowOf(trx, entry.queueId);
    if (!existing) {
      await trx
        .insertInto('businessHours')
        .values({ queueId: entry.queueId, ...values })
        .execute();
      return;
    }
    const q = trx.updateTable('businessHours').set(values);
    await (entry.queueId === null ? q.where('queueId', 'is', null) : q.where('queueId', '=', entry.queueId)).execute();
  });
  savedRules.changed();
}

export async function deleteEntry(db: Db, queueId: number | null): Promise<boolean> {
  const q = db.deleteFrom('businessHours');
  const result = await (queueId === null ? q.where('queueId', 'is', null) : q.where('queueId', '=', queueId)).executeTakeFirst();
  savedRules.changed();
  return Number(result.numDeletedRows) > 0;
}

/** Marks that a ticket got its out-of-hours reply; false when it already had it (once per conversation, across nodes). */
export async function claimOutOfHoursReply(db: Db, ticketId: number, now: string): Promise<boolean> {
  const inserted = await db
    .insertInto('outOfHoursReplies')
    .values({ ticketId, sentAt: now })
    .onConflict((oc) => oc.column('ticketId').doNothing())
    .returning('ticketId')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** A reopened ticket starts a new conversation: its earlier out-of-hours reply no longer counts. */
export async function forgetOutOfHoursReply(db: Db, ticketId: number): Promise<void> {
  await db.deleteFrom('outOfHoursReplies').where('ticketId', '=', ticketId).execute();
}
