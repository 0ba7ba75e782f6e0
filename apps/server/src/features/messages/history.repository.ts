/** The queries of history import: where a chat's stored history begins, and which chats to import. */
import type { TicketStatus } from '@zapdesk/shared/domain';
import type { Db } from '../../core/db/database.js';
import { bool } from '../../core/db/sql-helpers.js';

/** The oldest stored message of a contact's chat on a connection, over all its tickets. */
export async function oldestChatMessage(db: Db, whatsappId: number, contactId: number): Promise<{ providerId: string; fromMe: boolean; createdAt: string } | undefined> {
  const row = await db
    .selectFrom('messages')
    .innerJoin('tickets', 'tickets.id', 'messages.ticketId')
    .select(['messages.providerId', 'messages.fromMe', 'messages.createdAt'])
    .where('messages.whatsappId', '=', whatsappId)
    .where('tickets.contactId', '=', contactId)
    .orderBy('messages.createdAt', 'asc')
    .orderBy('messages.id', 'asc')
    .limit(1)
    .executeTakeFirst();
  return row && { providerId: row.providerId, fromMe: bool(row.fromMe), createdAt: row.createdAt };
}

/** The open and pending tickets of a connection, most recently active first. */
export async function activeTicketIdsOfConnection(db: Db, whatsappId: number, limit: number): Promise<number[]> {
  const statuses: TicketStatus[] = ['open', 'pending'];
  const rows = await db.selectFrom('tickets').select('id').where('whatsappId', '=', whatsappId).where('status', 'in', statuses).orderBy('updatedAt', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => r.id);
}
