/**
 * The mention part of the ticket access rule (tickets.service canReadTicket is the one place
 * that asks): a colleague mentioned in a note may read the ticket and write notes in it while
 * the mention is open: not marked done, and the ticket not resolved.
 */
import type { TicketStatus } from '@zapdesk/shared/domain';
import type { Db } from '../../core/db/database.js';

export async function hasMentionAccess(db: Db, userId: number, ticket: { id: number; status: TicketStatus }): Promise<boolean> {
  if (ticket.status === 'closed') return false;
  const row = await db.selectFrom('mentions').select('id').where('ticketId', '=', ticket.id).where('userId', '=', userId).where('closedAt', 'is', null).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** The colleagues with an open mention on a ticket (its live notes reach their open chat). */
export async function openMentionUserIds(db: Db, ticketId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('mentions')
    .innerJoin('tickets', 'tickets.id', 'mentions.ticketId')
    .select('mentions.userId')
    .distinct()
    .where('mentions.ticketId', '=', ticketId)
    .where('mentions.closedAt', 'is', null)
    .where('tickets.status', '!=', 'closed')
    .execute();
  return rows.map((r) => r.userId);
}
