import { isAdminProfile, type TicketStatus } from '@zapdesk/shared/domain';
import type { TTicket, TTicketListQuery } from '@zapdesk/shared/messaging';
import { renderVariables } from '@zapdesk/shared/variables';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import { sendOnTicket } from '../messages/outbound.service.js';
import type { AuthUser } from '../users/users.repository.js';
import { findWhatsappById } from '../whatsapps/whatsapps.repository.js';
import * as repo from './tickets.repository.js';

/** Whether a user may see a ticket: admins all; others their queues (or none), unassigned or their own. */
export async function canSeeTicket(ctx: AppContext, actor: AuthUser, ticket: TTicket): Promise<boolean> {
  if (isAdminProfile(actor.profile)) return true;
  if (ticket.userId !== null && ticket.userId !== actor.id) return false;
  if (ticket.queueId === null) return true;
  return (await repo.userQueueIds(ctx.db, actor.id)).includes(ticket.queueId);
}

export async function getVisibleTicket(ctx: AppContext, actor: AuthUser, id: number): Promise<TTicket> {
  const ticket = await repo.findTicketById(ctx.db, id);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  if (!(await canSeeTicket(ctx, actor, ticket))) throw new AppError('ERR_NO_PERMISSION');
  return ticket;
}

export async function listTickets(ctx: AppContext, actor: AuthUser, query: TTicketListQuery) {
  const admin = isAdminProfile(actor.profile);
  return repo.listTickets(ctx.db, ctx.dbKind, {
    scope: { userId: actor.id, admin, showAll: admin && query.showAll === 'true', queueIds: await repo.userQueueIds(ctx.db, actor.id) },
    filters: {
      status: query.status,
      searchParam: query.searchParam,
      queueIds: query.queueIds,
      withUnreadMessages: query.withUnreadMessages === 'true',
      isGroup: query.isGroup === undefined ? undefined : query.isGroup === 'true',
    },
    pageNumber: query.pageNumber,
  });
}

/**
 * Accept (pending -> open, assigned to the actor), return (open -> pending, unassigned),
 * resolve (-> closed, with the connection's farewell) and reopen (closed -> open).
 */
export async function changeStatus(ctx: AppContext, sessions: SessionManager, actor: AuthUser, id: number, status: TicketStatus): Promise<TTicket> {
  const ticket = await getVisibleTicket(ctx, actor, id);
  const now = nowIso();
  if (status === 'open') await repo.updateTicket(ctx.db, id, { status, userId: actor.id }, now);
  else if (status === 'pending') await repo.updateTicket(ctx.db, id, { status, userId: null }, now);
  else {
    const connection = await findWhatsappById(ctx.db, ticket.whatsappId);
    const farewell = connection ? renderVariables(connection.farewellMessage, { name: ticket.contact.name, user: actor.name, ticketId: ticket.id, connection: connection.name, queue: ticket.queue?.name ?? '' }) : '';
    if (farewell.trim() && ticket.status !== 'closed' && sessions.driver(ticket.whatsappId)) {
      await sendOnTicket(ctx, sessions, { ticket, content: { kind: 'text', body: farewell } }).catch((error: unknown) => ctx.events.publish('channel.error', { whatsappId: ticket.whatsappId, error }));
    }
    await repo.updateTicket(ctx.db, id, { status, userId: actor.id }, now);
  }
  const updated = await repo.findTicketById(ctx.db, id);
  if (!updated) throw new AppError('ERR_NO_TICKET_FOUND');
  ctx.events.publish('ticket.saved', { ticket: updated });
  return updated;
}
