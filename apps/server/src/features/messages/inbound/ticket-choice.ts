/** Step: the ticket a message belongs to. */
import type { Db } from '../../../core/db/database.js';
import { isUniqueViolation } from '../../../core/db/database.js';
import { nowIso } from '../../../core/time.js';
import * as tickets from '../../tickets/tickets.repository.js';
import type { ActiveTicket } from './chat-state.repository.js';

export type TicketRef = { id: number; created: boolean; queueId: number | null; userId: number | null; reopened?: boolean };

/**
 * Reuses the open or pending ticket; else reopens the last one closed less than
 * `timeCreateNewTicket` seconds ago as pending; else creates a pending one. Two first messages
 * racing meet the unique index, and the loser takes the winner's ticket.
 */
export async function findOrCreateTicket(db: Db, options: { contactId: number; whatsappId: number; isGroup: boolean; reopenWithinSeconds: number; active?: ActiveTicket | null }): Promise<TicketRef> {
  // `active`: the open or pending ticket as the caller read it in this transaction (null: none).
  const active = options.active === undefined ? await tickets.findActiveTicket(db, options.contactId, options.whatsappId) : options.active;
  if (active) return { ...active, created: false };
  const now = nowIso();
  const closed = await tickets.findLastClosedTicket(db, options.contactId, options.whatsappId);
  if (closed && Date.now() - Date.parse(closed.updatedAt) < options.reopenWithinSeconds * 1000) {
    try {
      await tickets.updateTicket(db, closed.id, { status: 'pending', userId: null }, now);
      return { id: closed.id, created: false, reopened: true, queueId: closed.queueId, userId: null };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  } else {
    const id = await tickets.insertActiveTicketOnce(db, { contactId: options.contactId, whatsappId: options.whatsappId, isGroup: options.isGroup, status: 'pending', userId: null }, now);
    if (id !== undefined) return { id, created: true, queueId: null, userId: null };
  }
  const winner = await tickets.findActiveTicket(db, options.contactId, options.whatsappId);
  if (!winner) throw new Error('ticket race lost and no active ticket found');
  return { ...winner, created: false };
}
