/** E-mail rows: written before anything is sent, claimed by the sender, moved on with each attempt. */
import { EMAIL_KINDS, EMAIL_STATUSES, type EmailKind, type EmailStatus } from '@zapdesk/shared/email';
import type { Db } from '../../core/db/database.js';

export type StoredAttachment = { filename: string; contentType: string; base64: string };

export type EmailRow = {
  id: number;
  kind: EmailKind;
  ticketId: number | null;
  toAddresses: string;
  subject: string;
  body: string;
  attachments: StoredAttachment[];
  status: EmailStatus;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string | null;
  sentAt: string | null;
  createdAt: string;
};

export type EmailInsert = { kind: EmailKind; ticketId: number | null; toAddresses: string; subject: string; body: string; attachments: StoredAttachment[] };

const columns = ['id', 'kind', 'ticketId', 'toAddresses', 'subject', 'body', 'attachments', 'status', 'attempts', 'lastError', 'nextAttemptAt', 'sentAt', 'createdAt'] as const;

type RawRow = Omit<EmailRow, 'kind' | 'status' | 'attachments'> & { kind: string; status: string; attachments: string };

function parseAttachments(raw: string): StoredAttachment[] {
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? (parsed as StoredAttachment[]) : [];
  } catch {
    return [];
  }
}

function toRow(r: RawRow): EmailRow {
  return {
    ...r,
    kind: EMAIL_KINDS.find((k) => k === r.kind) ?? 'api',
    status: EMAIL_STATUSES.find((s) => s === r.status) ?? 'failed',
    attachments: parseAttachments(r.attachments),
  };
}

export async function insertEmail(db: Db, mail: EmailInsert, now: string): Promise<number> {
  const row = await db
    .insertInto('emails')
    .values({ ...mail, attachments: JSON.stringify(mail.attachments), status: 'queued', attempts: 0, lastError: null, nextAttemptAt: now, sentAt: null, createdAt: now, updatedAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findEmail(db: Db, id: number): Promise<EmailRow | undefined> {
  const row = await db.selectFrom('emails').select(columns).where('id', '=', id).executeTakeFirst();
  return row && toRow(row);
}

/** Mails whose time has come, oldest first. */
export async function dueEmailIds(db: Db, now: string, limit: number): Promise<number[]> {
  const rows = await db.selectFrom('emails').select('id').where('status', '=', 'queued').where('nextAttemptAt', '<=', now).orderBy('nextAttemptAt').orderBy('id').limit(limit).execute();
  return rows.map((r) => r.id);
}

/** Takes a queued mail for sending; false when another sender took it or it moved on. */
export async function claimEmail(db: Db, id: number, now: string): Promise<boolean> {
  const result = await db.updateTable('emails').set({ status: 'sending', updatedAt: now }).where('id', '=', id).where('status', '=', 'queued').executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function updateEmail(
  db: Db,
  id: number,
  change: { status: EmailStatus; attempts?: number; lastError?: string | null; nextAttemptAt?: string | null; sentAt?: string | null },
  options: { from: readonly EmailStatus[]; now: string },
): Promise<boolean> {
  const result = await db
    .updateTable('emails')
    .set({ ...change, updatedAt: options.now })
    .where('id', '=', id)
    .where('status', 'in', options.from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** At start: a mail left 'sending' by a stopped server goes again (the SMTP server may have it: at least once). */
export async function requeueSending(db: Db, now: string): Promise<number> {
  const result = await db.updateTable('emails').set({ status: 'queued', nextAttemptAt: now, updatedAt: now }).where('status', '=', 'sending').executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function listEmails(db: Db, filters: { status?: EmailStatus | undefined }, page: { limit: number; offset: number }): Promise<{ rows: EmailRow[]; count: number }> {
  let query = db.selectFrom('emails');
  if (filters.status) query = query.where('status', '=', filters.status);
  const [rows, total] = await Promise.all([
    query.select(columns).orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toRow), count: Number(total.count) };
}

export type TicketFacts = { ticketId: number; name: string; number: string; email: string; protocol: string | null; userName: string | null };

/** What a closing notice says of each ticket: its contact and who closed it. */
export async function ticketFacts(db: Db, ticketIds: number[]): Promise<TicketFacts[]> {
  if (ticketIds.length === 0) return [];
  const rows = await db
    .selectFrom('tickets')
    .innerJoin('contacts', 'contacts.id', 'tickets.contactId')
    .leftJoin('users', 'users.id', 'tickets.userId')
    .select(['tickets.id as ticketId', 'contacts.name', 'contacts.number', 'contacts.email', 'tickets.protocol', 'users.name as userName'])
    .where('tickets.id', 'in', ticketIds)
    .orderBy('tickets.id')
    .execute();
  return rows;
}
