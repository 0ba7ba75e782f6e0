/** The queries of history import: where a chat's stored history begins, and which chats to import. */
import type { TicketStatus } from '@zapdesk/shared/domain';
import type { Db } from '../../core/db/database.js';
import { bool } from '../../core/db/sql-helpers.js';

export type ChatMessageRef = { providerId: string; fromMe: boolean; createdAt: string };

/** The oldest (or newest) stored message of a contact's chat on a connection, over all its tickets. */
export async function chatMessageAtEnd(db: Db, whatsappId: number, contactId: number, end: 'oldest' | 'newest'): Promise<ChatMessageRef | undefined> {
  const direction = end === 'oldest' ? 'asc' : 'desc';
  const row = await db
    .selectFrom('messages')
    .innerJoin('tickets', 'tickets.id', 'messages.ticketId')
    .select(['messages.providerId', 'messages.fromMe', 'messages.createdAt'])
    .where('messages.whatsappId', '=', whatsappId)
    .where('tickets.contactId', '=', contactId)
    // A note is no message of the chat on the phone: history is read from real ones only.
    .where('messages.isNote', '=', 0)
    .orderBy('messages.createdAt', direction)
    .orderBy('messages.id', direction)
    .limit(1)
    .executeTakeFirst();
  return row && { providerId: row.providerId, fromMe: bool(row.fromMe), createdAt: row.createdAt };
}

/** The open and pending tickets of a connection, most recently active first. */
export async function activeTicketIdsOfConnection(db: Db, whatsappId: number, limit: number): Promise<number[]> {
  const statuses: TicketStatus[] = ['open', 'pending'];
  const rows = await db
    .selectFrom('tickets')
    .select('id')
    .where('whatsappId', '=', whatsappId)
    .where('status', 'in', statuses)
    .orderBy('updatedAt', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export type RecentChat = { number: string; isGroup: boolean; newest: ChatMessageRef };

/**
 * The chats of a connection active since `since` (their tickets' last activity), most recent
 * first, each with its newest stored message: where a catch-up after a crash starts reading.
 */
export async function recentChatsOfConnection(db: Db, whatsappId: number, since: string, limit: number): Promise<RecentChat[]> {
  const rows = await db
    .selectFrom('tickets')
    .innerJoin('contacts', 'contacts.id', 'tickets.contactId')
    .select(['tickets.contactId', 'contacts.number', 'contacts.isGroup'])
    .where('tickets.whatsappId', '=', whatsappId)
    .where('tickets.updatedAt', '>=', since)
    .groupBy(['tickets.contactId', 'contacts.number', 'contacts.isGroup'])
    .orderBy((eb) => eb.fn.max('tickets.updatedAt'), 'desc')
    .limit(limit)
    .execute();
  const chats: RecentChat[] = [];
  for (const row of rows) {
    const newest = await chatMessageAtEnd(db, whatsappId, row.contactId, 'newest');
    if (newest) chats.push({ number: row.number, isGroup: bool(row.isGroup), newest });
  }
  return chats;
}
