/**
 * Reading a ticket: its incoming messages become read, its unread count drops to zero and the
 * phone is told (blue checks for the contact). Only the agent working on a ticket reads it:
 * someone looking in ('Spy', an admin) leaves it unread for whoever takes it.
 */
import type { TTicket } from '@zapdesk/shared/messaging';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../core/context.js';
import { nowIso } from '../../core/time.js';
import { updateTicket } from '../tickets/tickets.repository.js';
import type { AuthUser } from '../users/users.repository.js';
import { markTicketRead } from './messages.repository.js';
import { chatOf } from './outbound.service.js';

/** Whether opening this ticket's chat reads it: the caller works on it (open, and theirs). */
export function readsTicket(actor: AuthUser, ticket: Pick<TTicket, 'status' | 'userId'>): boolean {
  return ticket.status === 'open' && ticket.userId === actor.id;
}

/** Marks the ticket read; true when something changed (the caller publishes the ticket). */
export async function readTicket(ctx: AppContext, sessions: SessionManager, ticket: TTicket): Promise<boolean> {
  if (ticket.unreadMessages <= 0) return false;
  const now = nowIso();
  const providerIds = await markTicketRead(ctx.db, ticket.id, now);
  await updateTicket(ctx.db, ticket.id, { unreadMessages: 0 }, now);
  const driver = providerIds.length ? await sessions.use(ticket.whatsappId).catch(() => undefined) : undefined;
  if (driver) await driver.markRead(chatOf(ticket), providerIds).catch((error: unknown) => ctx.events.publish('channel.error', { whatsappId: ticket.whatsappId, error }));
  return true;
}
