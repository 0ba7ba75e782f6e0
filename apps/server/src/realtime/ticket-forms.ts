/**
 * A ticket's change, in the two forms clients expect.
 *
 * Our app: one `ticket {action:'update'}` to every list that may hold it (the status it has and
 * the one it left) and to everyone who could see it before, so each screen decides.
 *
 * whaticket's frontend adds any ticket an `update` names to the list that hears it, and drops a
 * ticket only on `delete`. So the list a ticket LEAVES gets `ticket {action:'delete', ticketId}`
 * (a change of status or of agent, as whaticket's backend does), the status it has gets the
 * `update`, and its bell clears on `updateUnread` when the change read the ticket (accepting).
 */
import { TICKET_STATUSES } from '@zapdesk/shared/domain';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { AppNamespace } from './connection.js';
import { TOPICS, ticketRooms, topicRooms } from './rooms.js';

/** Our app's form. Without `previous` the status it left is unknown: every status list hears it. */
export function emitTicketSaved(nsp: AppNamespace, ticket: TTicket, previous: TTicket | undefined): void {
  const statuses = previous ? [ticket.status, previous.status] : TICKET_STATUSES;
  const topics = [...statuses.map(TOPICS.status), TOPICS.notification, TOPICS.chat(ticket.id)];
  const audience = [...ticketRooms(ticket), ...(previous ? ticketRooms(previous) : [])];
  nsp.to(topicRooms(topics, audience)).emit('ticket', { action: 'update', ticket });
}

/** whaticket's form: `delete` to the lists it left, `updateUnread` when it was read, then `update` where it is. */
export function emitWhaticketTicketSaved(nsp: AppNamespace, ticket: TTicket, previous: TTicket | undefined): void {
  const ticketId = ticket.id;
  const now = ticketRooms(ticket);
  const before = previous ? ticketRooms(previous) : [];
  // Without `previous` (close all, auto-close, a closed ticket reopened by a message) it left whichever other status it had.
  const left = previous ? (previous.status !== ticket.status || previous.userId !== ticket.userId ? [previous.status] : []) : TICKET_STATUSES.filter((status) => status !== ticket.status);
  if (left.length > 0) nsp.to(topicRooms(left.map(TOPICS.status), [...new Set([...now, ...before])])).emit('ticket', { action: 'delete', ticketId });
  // Those who could see it and no longer may (another queue, another agent): their lists drop it.
  const lists = [TOPICS.status(ticket.status), TOPICS.notification];
  if (previous) nsp.to(topicRooms(lists, before)).except(topicRooms(lists, now)).emit('ticket', { action: 'delete', ticketId });
  if (previous && previous.unreadMessages > 0 && ticket.unreadMessages === 0) {
    nsp.to(topicRooms([...lists, TOPICS.chat(ticketId)], now)).emit('ticket', { action: 'updateUnread', ticketId });
  }
  // An open chat follows its ticket, as in our app, also for one who may no longer see it.
  nsp.to([...topicRooms([...lists, TOPICS.chat(ticketId)], now), ...topicRooms([TOPICS.chat(ticketId)], before)]).emit('ticket', { action: 'update', ticket });
}
