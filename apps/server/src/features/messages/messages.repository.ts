import { foldText, MEDIA_TYPES, SEND_STATUSES, type MediaType, type SendStatus } from '@zapdesk/shared/domain';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../core/db/database.js';
import { prepared } from '../../core/db/prepared.js';
import type { MessagesTable } from '../../core/db/schema.js';
import { bool } from '../../core/db/sql-helpers.js';

export type MessageRow = {
  id: number;
  ticketId: number;
  whatsappId: number;
  providerId: string;
  contactId: number | null;
  body: string;
  fromMe: boolean;
  read: boolean;
  ack: number;
  mediaType: MediaType | null;
  mediaPath: string | null;
  /** The file's own name and its size in bytes; null on messages stored before they were kept. */
  mediaName: string | null;
  mediaSize: number | null;
  quotedMsgId: number | null;
  isDeleted: boolean;
  isEdited: boolean;
  /** Sent by the chatbot. */
  fromBot: boolean;
  /** A private note of the team (migration 034): never sent, never the ticket's last message. */
  isNote: boolean;
  /** The agent who wrote an own message or a note; null for everything else. */
  userId: number | null;
  sendStatus: SendStatus;
  sendError: string | null;
  createdAt: string;
  updatedAt: string;
};

const columns = [
  'id',
  'ticketId',
  'whatsappId',
  'providerId',
  'contactId',
  'body',
  'fromMe',
  'read',
  'ack',
  'mediaType',
  'mediaPath',
  'mediaName',
  'mediaSize',
  'quotedMsgId',
  'isDeleted',
  'isEdited',
  'fromBot',
  'isNote',
  'userId',
  'sendStatus',
  'sendError',
  'createdAt',
  'updatedAt',
] as const;

/** A stored row as selected, before booleans and media type are read back. */
type StoredMessage = Pick<Selectable<MessagesTable>, (typeof columns)[number]>;

function toRow(r: StoredMessage): MessageRow {
  return {
    ...r,
    fromMe: bool(r.fromMe),
    read: bool(r.read),
    isDeleted: bool(r.isDeleted),
    isEdited: bool(r.isEdited),
    fromBot: bool(r.fromBot),
    isNote: bool(r.isNote),
    mediaType: MEDIA_TYPES.find((m) => m === r.mediaType) ?? null,
    sendStatus: SEND_STATUSES.find((v) => v === r.sendStatus) ?? 'sent',
  };
}

export async function findMessageById(db: Db, id: number): Promise<MessageRow | undefined> {
  const r = await db.selectFrom('messages').select(columns).where('id', '=', id).executeTakeFirst();
  return r && toRow(r);
}

/** In the order they were stored (PostgreSQL returns updated rows in no fixed order). */
export async function findMessagesByIds(db: Db, ids: number[]): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('messages').select(columns).where('id', 'in', ids).orderBy('id').execute();
  return rows.map(toRow);
}

export async function findMessageByProviderId(db: Db, whatsappId: number, providerId: string): Promise<MessageRow | undefined> {
  const r = await db.selectFrom('messages').select(columns).where('whatsappId', '=', whatsappId).where('providerId', '=', providerId).executeTakeFirst();
  return r && toRow(r);
}

/** The ids of the messages of these provider ids already stored on a connection (one statement for a batch). */
export async function storedIdsByProviderId(db: Db, whatsappId: number, providerIds: readonly string[]): Promise<Map<string, number>> {
  if (providerIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('messages')
    .select(['id', 'providerId'])
    .where('whatsappId', '=', whatsappId)
    .where('providerId', 'in', [...new Set(providerIds)])
    .execute();
  return new Map(rows.map((r) => [r.providerId, r.id]));
}

/** Own messages stored before their send are 'queued'; everything else arrives 'sent'. */
export type MessageInsert = Omit<MessageRow, 'id' | 'isDeleted' | 'isEdited' | 'fromBot' | 'isNote' | 'userId' | 'sendStatus' | 'sendError' | 'mediaName' | 'mediaSize' | 'updatedAt'> & {
  sendStatus?: SendStatus;
  fromBot?: boolean;
  /** Who sent an own message: the agent in the inbox, or the product itself (see migration 020). */
  userId?: number | null;
  automatic?: boolean;
  mediaName?: string | null;
  mediaSize?: number | null;
};

/** Inserts unless the provider id is already stored; returns the stored row, or undefined for a redelivery. */
export async function insertMessageRowOnce(db: Db, data: MessageInsert): Promise<MessageRow | undefined> {
  const [row] = (
    await insertOnce(
      db,
      data.ticketId,
      data.whatsappId,
      data.providerId,
      data.contactId,
      data.body,
      data.fromMe ? 1 : 0,
      data.read ? 1 : 0,
      data.ack,
      data.mediaType,
      data.mediaPath,
      data.mediaName ?? null,
      data.mediaSize ?? null,
      data.quotedMsgId,
      data.sendStatus ?? 'sent',
      data.fromBot ? 1 : 0,
      data.userId ?? null,
      data.automatic ? 1 : 0,
      foldText(data.body),
      data.createdAt,
    )
  ).rows;
  return row && toRow(row);
}

// Built once (see core/db/prepared.ts): every message stored goes through it. Each column is
// given, the table's defaults included ('sent', null), so the statement keeps one shape.
const insertOnce = prepared(
  (
    db: Db,
    ticketId: number,
    whatsappId: number,
    providerId: string,
    contactId: number | null,
    body: string,
    fromMe: number,
    read: number,
    ack: number,
    mediaType: string | null,
    mediaPath: string | null,
    mediaName: string | null,
    mediaSize: number | null,
    quotedMsgId: number | null,
    sendStatus: string,
    fromBot: number,
    userId: number | null,
    automatic: number,
    searchText: string,
    createdAt: string,
  ) =>
    db
      .insertInto('messages')
      .values({
        ticketId,
        whatsappId,
        providerId,
        contactId,
        body,
        fromMe,
        read,
        ack,
        mediaType,
        mediaPath,
        mediaName,
        mediaSize,
        quotedMsgId,
        sendStatus,
        fromBot,
        userId,
        automatic,
        isDeleted: 0,
        searchText,
        createdAt,
        updatedAt: createdAt,
      })
      .onConflict((oc) => oc.columns(['whatsappId', 'providerId']).doNothing())
      .returning(columns),
);

/** Inserts unless the provider id is already stored; returns the new id, or undefined for a redelivery. */
export async function insertMessageOnce(db: Db, data: MessageInsert): Promise<number | undefined> {
  return (await insertMessageRowOnce(db, data))?.id;
}

export async function updateMessage(db: Db, id: number, patch: Partial<{ ack: number; isDeleted: boolean; read: boolean; body: string }>, now: string): Promise<void> {
  const { isDeleted, read, ...rest } = patch;
  await db
    .updateTable('messages')
    .set({
      ...rest,
      ...(rest.body === undefined ? {} : { searchText: foldText(rest.body) }),
      ...(isDeleted === undefined ? {} : { isDeleted: isDeleted ? 1 : 0 }),
      ...(read === undefined ? {} : { read: read ? 1 : 0 }),
      updatedAt: now,
    })
    .where('id', '=', id)
    .execute();
}

/**
 * The author's new text of a message (an edit on the phone): stored with isEdited. Deleted
 * messages stay deleted. Returns the id when a row changed.
 */
export async function editMessageBody(db: Db, whatsappId: number, providerId: string, body: string, now: string): Promise<number | undefined> {
  const row = await db
    .updateTable('messages')
    .set({ body, searchText: foldText(body), isEdited: 1, updatedAt: now })
    .where('whatsappId', '=', whatsappId)
    .where('providerId', '=', providerId)
    .where('isDeleted', '=', 0)
    .where('body', '!=', body)
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** Whether a message is its ticket's latest, the one the ticket's list line shows (notes never are). */
export async function isLatestOfTicket(db: Db, ticketId: number, messageId: number): Promise<boolean> {
  const row = await db.selectFrom('messages').select('id').where('ticketId', '=', ticketId).where('isNote', '=', 0).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row?.id === messageId;
}

/** Raises the ack of a message; acks never go back (a late 'delivered' after 'read' is ignored). */
export async function raiseAck(db: Db, whatsappId: number, providerId: string, ack: number, now: string): Promise<number | undefined> {
  const row = await db
    .updateTable('messages')
    .set({ ack, updatedAt: now })
    .where('whatsappId', '=', whatsappId)
    .where('providerId', '=', providerId)
    .where('ack', '<', ack)
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** The outcome of an own message's send, and its ack once handed to the channel (acks never go back). */
export async function setSendStatus(db: Db, id: number, result: { status: SendStatus; error?: string | null; ack?: number }, now: string): Promise<void> {
  await db
    .updateTable('messages')
    .set({
      sendStatus: result.status,
      sendError: result.error ?? null,
      ...(result.ack === undefined ? {} : { ack: sql<number>`case when ${sql.ref('ack')} < ${result.ack} then ${result.ack} else ${sql.ref('ack')} end` }),
      updatedAt: now,
    })
    .where('id', '=', id)
    .execute();
}

/**
 * A page of a ticket's messages, newest first, and their count (memoised by the messages service
 * with its ticket); the team's notes only `withNotes`.
 */
export async function listTicketMessages(db: Db, ticketId: number, options: { limit: number; offset: number; withNotes: boolean }): Promise<{ rows: MessageRow[]; count: number }> {
  const ofTicket = db
    .selectFrom('messages')
    .where('ticketId', '=', ticketId)
    .$if(!options.withNotes, (q) => q.where('isNote', '=', 0));
  const [countRow, rows] = await Promise.all([
    ofTicket.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ofTicket.select(columns).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(options.limit).offset(options.offset).execute(),
  ]);
  return { rows: rows.map(toRow), count: Number(countRow.n) };
}

/** Marks the incoming messages of a ticket read and returns their provider ids. */
export async function markTicketRead(db: Db, ticketId: number, now: string): Promise<string[]> {
  const unread = await db.selectFrom('messages').select('providerId').where('ticketId', '=', ticketId).where('read', '=', 0).where('fromMe', '=', 0).execute();
  if (unread.length) await db.updateTable('messages').set({ read: 1, updatedAt: now }).where('ticketId', '=', ticketId).where('read', '=', 0).where('fromMe', '=', 0).execute();
  return unread.map((r) => r.providerId);
}
