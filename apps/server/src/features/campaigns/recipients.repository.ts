/**
 * Campaign recipients, one row each. A recipient goes queued -> sending (claimed, with its
 * provider id) -> sent / failed, and each step is committed before the next one starts.
 */
import { CAMPAIGN_KINDS, RECIPIENT_STATUSES, type CampaignKind, type RecipientStatus } from '@zapdesk/shared/campaigns';
import type { Db } from '../../core/db/database.js';

/** Rows per INSERT: well under SQLite's limit of bound values for the columns written. */
const INSERT_CHUNK = 1_000;

export type RecipientRow = {
  id: number;
  campaignId: number;
  input: string;
  number: string | null;
  groupId: string | null;
  status: RecipientStatus;
  error: string | null;
  providerId: string | null;
  delivery: string | null;
  attempts: number;
  sentAt: string | null;
  updatedAt: string;
};

const columns = ['id', 'campaignId', 'input', 'number', 'groupId', 'status', 'error', 'providerId', 'delivery', 'attempts', 'sentAt', 'updatedAt'] as const;

/**
 * A sending lane: a connection's id, or null for the telephony provider (SMS and calls). Each
 * lane sends one message at a time at its own pace.
 */
export type Lane = number | null;

function toRow(r: Omit<RecipientRow, 'status'> & { status: string }): RecipientRow {
  return { ...r, status: RECIPIENT_STATUSES.find((s) => s === r.status) ?? 'failed' };
}

/** A person (`number`) or a group (`groupId`). */
export type RecipientInsert = { input: string; number: string | null; groupId: string | null; status: RecipientStatus; error: string | null };

export async function insertRecipients(db: Db, campaignId: number, recipients: RecipientInsert[], now: string): Promise<void> {
  for (let start = 0; start < recipients.length; start += INSERT_CHUNK) {
    const chunk = recipients.slice(start, start + INSERT_CHUNK).map((r) => ({ ...r, campaignId, providerId: null, sentAt: null, updatedAt: now }));
    await db.insertInto('campaignRecipients').values(chunk).execute();
  }
}

/** A recipient to send to: a person by number, or a group. */
export type NextRecipient = RecipientRow & ({ number: string; groupId: null } | { number: null; groupId: string });

function sendable(row: RecipientRow): NextRecipient | undefined {
  if (row.groupId !== null) return { ...row, number: null, groupId: row.groupId };
  if (row.number !== null) return { ...row, number: row.number, groupId: null };
  return undefined;
}

/**
 * The next recipient to send on a lane: the oldest running campaign's first queued
 * recipient. One node owns a connection's session, so one sender asks this at a time.
 */
export async function nextQueuedRecipient(db: Db, whatsappId: Lane): Promise<NextRecipient | undefined> {
  const row = await db
    .selectFrom('campaignRecipients')
    .innerJoin('campaigns', 'campaigns.id', 'campaignRecipients.campaignId')
    .select(columns.map((c) => `campaignRecipients.${c}` as const))
    .where('campaigns.whatsappId', whatsappId === null ? 'is' : '=', whatsappId)
    .where('campaigns.status', '=', 'running')
    .where('campaignRecipients.status', '=', 'queued')
    .orderBy('campaigns.id')
    .orderBy('campaignRecipients.id')
    .limit(1)
    .executeTakeFirst();
  return row && sendable(toRow(row));
}

/**
 * Claims a recipient for its send, with the id it will go out under (null when the provider
 * gives the id in its answer, as Vonage does); only while it is queued
 * and its campaign runs (a pause or cancel that came first wins). False when not claimed.
 */
export async function claimRecipient(db: Db, id: number, providerId: string | null, now: string): Promise<boolean> {
  const result = await db
    .updateTable('campaignRecipients')
    .set({ status: 'sending', providerId, updatedAt: now })
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .where((eb) => eb.exists(eb.selectFrom('campaigns').select('campaigns.id').whereRef('campaigns.id', '=', 'campaignRecipients.campaignId').where('campaigns.status', '=', 'running')))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Moves a recipient on from one of `from`; false when it was elsewhere already. */
export async function setRecipientStatus(
  db: Db,
  id: number,
  change: { status: RecipientStatus; error?: string | null; sentAt?: string | null; providerId?: string | null },
  options: { from: readonly RecipientStatus[]; now: string },
): Promise<boolean> {
  const result = await db
    .updateTable('campaignRecipients')
    .set({ ...change, updatedAt: options.now })
    .where('id', '=', id)
    .where('status', 'in', options.from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Every recipient of these campaigns in one status moves to another (cancel, resend). */
export async function moveRecipients(db: Db, campaignId: number, change: { from: readonly RecipientStatus[]; to: RecipientStatus; clear?: boolean }, now: string): Promise<number> {
  const result = await db
    .updateTable('campaignRecipients')
    .set({ status: change.to, updatedAt: now, ...(change.clear ? { error: null, providerId: null, sentAt: null, delivery: null, attempts: 0 } : {}) })
    .where('campaignId', '=', campaignId)
    .where('status', 'in', change.from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Recipients left 'sending' on a lane: a crash came between their send and its result. */
export async function recipientsInDoubt(db: Db, whatsappId: Lane): Promise<(RecipientRow & { campaignKind: CampaignKind })[]> {
  const rows = await db
    .selectFrom('campaignRecipients')
    .innerJoin('campaigns', 'campaigns.id', 'campaignRecipients.campaignId')
    .select(columns.map((c) => `campaignRecipients.${c}` as const))
    .select('campaigns.kind as campaignKind')
    .where('campaigns.whatsappId', whatsappId === null ? 'is' : '=', whatsappId)
    .where('campaignRecipients.status', '=', 'sending')
    .orderBy('campaignRecipients.id')
    .execute();
  return rows.map((r) => ({ ...toRow(r), campaignKind: CAMPAIGN_KINDS.find((k) => k === r.campaignKind) ?? 'text' }));
}

/** Lanes with recipients left 'sending' (checked once at start). */
export async function connectionsWithRecipientsInDoubt(db: Db): Promise<Lane[]> {
  const rows = await db
    .selectFrom('campaignRecipients')
    .innerJoin('campaigns', 'campaigns.id', 'campaignRecipients.campaignId')
    .select('campaigns.whatsappId')
    .distinct()
    .where('campaignRecipients.status', '=', 'sending')
    .execute();
  return rows.map((r) => r.whatsappId);
}

/** An ack for a send in doubt says it went out. Returns the campaign of the recipient confirmed. */
export async function confirmUnknown(db: Db, providerId: string, now: string): Promise<number | undefined> {
  const row = await db
    .updateTable('campaignRecipients')
    .set({ status: 'sent', sentAt: now, error: null, updatedAt: now })
    .where('providerId', '=', providerId)
    .where('status', '=', 'unknown')
    .returning('campaignId')
    .executeTakeFirst();
  return row?.campaignId;
}

/**
 * A try that failed for a reason that passes: the recipient waits its turn again, one try
 * counted. False when it had moved on (a cancel came first).
 */
export async function retryRecipient(db: Db, id: number, error: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('campaignRecipients')
    .set((eb) => ({ status: 'queued', error, attempts: eb('attempts', '+', 1), updatedAt: now }))
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countRecipients(db: Db, campaignId: number, statuses: readonly RecipientStatus[]): Promise<number> {
  const row = await db
    .selectFrom('campaignRecipients')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('campaignId', '=', campaignId)
    .where('status', 'in', statuses)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function hasUnknownRecipients(db: Db): Promise<boolean> {
  return (await db.selectFrom('campaignRecipients').select('id').where('status', '=', 'unknown').limit(1).executeTakeFirst()) !== undefined;
}

export async function listRecipients(
  db: Db,
  campaignId: number,
  filters: { status?: RecipientStatus | undefined; number?: string | undefined },
  page: { limit: number; offset: number },
): Promise<{ rows: RecipientRow[]; count: number }> {
  let query = db.selectFrom('campaignRecipients').where('campaignId', '=', campaignId);
  if (filters.status) query = query.where('status', '=', filters.status);
  if (filters.number) query = query.where('number', 'like', `%${filters.number}%`);
  const [rows, total] = await Promise.all([
    query.select(columns).orderBy('id').limit(page.limit).offset(page.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toRow), count: Number(total.count) };
}

/** Every recipient of a campaign, in batches (CSV export). */
export async function* allRecipients(db: Db, campaignId: number, batch = 1_000): AsyncGenerator<RecipientRow[]> {
  let after = 0;
  for (;;) {
    const rows = await db.selectFrom('campaignRecipients').select(columns).where('campaignId', '=', campaignId).where('id', '>', after).orderBy('id').limit(batch).execute();
    if (rows.length === 0) return;
    yield rows.map(toRow);
    after = rows[rows.length - 1]?.id ?? after;
  }
}
