import { isAdminProfile, type TicketStatus } from '@zapdesk/shared/domain';
import type { TTicket, TTicketListQuery, TTicketUpdate } from '@zapdesk/shared/messaging';
import { canSeeTicket as canSee } from '@zapdesk/shared/visibility';
import { searchWords } from '@zapdesk/shared/text-match';
import { renderVariables } from '@zapdesk/shared/variables';
import type { SessionManager } from '../../channels/session-manager.js';
import { assertPermission } from '../../core/auth/permissions.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { memoUntilWrite } from '../../core/db/read-cache.js';
import { nowIso } from '../../core/time.js';
import { queueOnTicket, sendOnTicket } from '../messages/outbound.service.js';
import { readTicket } from '../messages/read-receipts.service.js';
import type { AuthUser } from '../users/users.repository.js';
import { findWhatsappById } from '../whatsapps/whatsapps.repository.js';
import { isUniqueViolation } from '../../core/db/database.js';
import { findQueueById } from '../queues/queues.repository.js';
import { findAuthUserById } from '../users/users.repository.js';
import * as lists from './tickets-list.repository.js';
import { searchTickets } from './tickets-search.repository.js';
import { closeNoticePlan, queueCloseNotices } from '../email/email.service.js';
import { hasMentionAccess } from '../notes/mention-access.js';
import * as repo from './tickets.repository.js';
import { askAfterResolve } from '../csat/csat.service.js';

/** Whether a user may see a ticket: admins all; others their queues (or none), unassigned or their own. */
export async function canSeeTicket(ctx: AppContext, actor: AuthUser, ticket: Pick<TTicket, 'userId' | 'queueId'>): Promise<boolean> {
  if (isAdminProfile(actor.profile)) return true;
  return canSee({ id: actor.id, admin: false, allQueues: actor.permissions.has('allQueues'), queueIds: await repo.userQueueIds(ctx.db, actor.id) }, ticket, { all: true });
}

/** A ticket the user may see; one they may not see answers exactly as one that does not exist. */
export async function getVisibleTicket(ctx: AppContext, actor: AuthUser, id: number): Promise<TTicket> {
  const ticket = await repo.findTicketById(ctx.db, id);
  if (!ticket || !(await canSeeTicket(ctx, actor, ticket))) throw new AppError('ERR_NO_TICKET_FOUND');
  return ticket;
}

/**
 * Reading a ticket (its page, its messages) and writing notes in it: whoever may see it, and a
 * colleague mentioned in one of its notes while the mention is open. Everything else (replying,
 * accepting, resolving, transferring) stays with canSeeTicket.
 */
export async function canReadTicket(ctx: AppContext, actor: AuthUser, ticket: Pick<TTicket, 'id' | 'userId' | 'queueId' | 'status'>): Promise<boolean> {
  return (await canSeeTicket(ctx, actor, ticket)) || (await hasMentionAccess(ctx.db, actor.id, ticket));
}

/** A ticket the user may read (see canReadTicket); any other answers as one that does not exist. */
export async function getReadableTicket(ctx: AppContext, actor: AuthUser, id: number): Promise<TTicket> {
  const ticket = await repo.findTicketById(ctx.db, id);
  if (!ticket || !(await canReadTicket(ctx, actor, ticket))) throw new AppError('ERR_NO_TICKET_FOUND');
  return ticket;
}

/** A day (YYYY-MM-DD) in the server's time zone, as the instants it starts and the next one starts. */
function dayRange(day: string): { from: string; before: string } {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return { from: new Date(year, month - 1, date).toISOString(), before: new Date(year, month - 1, date + 1).toISOString() };
}

export async function listTickets(ctx: AppContext, actor: AuthUser, query: TTicketListQuery) {
  const admin = isAdminProfile(actor.profile);
  const allQueues = actor.permissions.has('allQueues');
  const showAll = allQueues && query.showAll === 'true';
  const filters = {
    status: query.status,
    searchParam: query.searchParam,
    queueIds: query.queueIds,
    withUnreadMessages: query.withUnreadMessages === 'true',
    isGroup: query.isGroup === undefined ? undefined : query.isGroup === 'true',
    createdOn: query.date === undefined ? undefined : dayRange(query.date),
    labelIds: query.labelIds,
  };
  // The user's queues are read with the page, and both again only after a write: a repeated
  // list costs one version check, not a queue lookup besides.
  const list = searchWords(query.searchParam ?? '').length ? searchTickets : lists.listTickets;
  return memoUntilWrite(ctx.db, `tickets.listFor:${JSON.stringify([actor.id, admin, allQueues, showAll, filters, query.pageNumber])}`, async () =>
    list(ctx.db, ctx.dbKind, { scope: { userId: actor.id, admin, allQueues, showAll, queueIds: await repo.userQueueIds(ctx.db, actor.id) }, filters, pageNumber: query.pageNumber }),
  );
}

/**
 * Accept (pending -> open, assigned to the actor), return (open -> pending, unassigned),
 * resolve (-> closed, with the connection's farewell) and reopen (closed -> open).
 */
export async function changeStatus(ctx: AppContext, sessions: SessionManager, actor: AuthUser, id: number, status: TicketStatus): Promise<TTicket> {
  const ticket = await getVisibleTicket(ctx, actor, id);
  const now = nowIso();
  if (status === 'open') {
    // Reopening while the contact already has another active ticket on that connection.
    await repo.updateTicket(ctx.db, id, { status, userId: actor.id }, now).catch((error: unknown) => {
      throw isUniqueViolation(error) ? new AppError('ERR_OTHER_OPEN_TICKET') : error;
    });
    // The agent taking the ticket is reading it now (spying did not).
    await readTicket(ctx, sessions, ticket);
  } else if (status === 'pending') await repo.updateTicket(ctx.db, id, { status, userId: null }, now);
  else {
    const notices = await closeNoticePlan(ctx);
    // The closing notice is stored with the close: committed together or not at all.
    const queued = await ctx.db.transaction().execute(async (trx) => {
      await repo.updateTicket(trx, id, { status, userId: actor.id }, now);
      return ticket.status === 'closed' ? 0 : queueCloseNotices(trx, notices, [id], now);
    });
    if (queued) ctx.events.publish('email.queued', { count: queued });
    // The farewell follows the close as outbound work: the answer never waits for the phone.
    if (ticket.status !== 'closed') await queueFarewell(ctx, sessions, actor, ticket);
    // Then the satisfaction question, when the connection asks it (see features/csat).
    await askAfterResolve(ctx, sessions, { ticket, resolvedBy: actor.id });
  }
  // Read after every write of the action (the farewell's too): the answer is the newest state.
  const updated = await repo.findTicketById(ctx.db, id);
  if (!updated) throw new AppError('ERR_NO_TICKET_FOUND');
  ctx.events.publish('ticket.saved', { ticket: updated, previous: ticket });
  return updated;
}

/** The connection's farewell to the contact of a ticket just closed, queued to go out (see queueOnTicket). */
async function queueFarewell(ctx: AppContext, sessions: SessionManager, actor: AuthUser, ticket: TTicket): Promise<void> {
  const connection = await findWhatsappById(ctx.db, ticket.whatsappId);
  const farewell = connection
    ? renderVariables(connection.farewellMessage, { name: ticket.contact.name, user: actor.name, ticketId: ticket.id, connection: connection.name, queue: ticket.queue?.name ?? '' })
    : '';
  if (!farewell.trim() || !(await sessions.use(ticket.whatsappId).catch(() => undefined))) return;
  await queueOnTicket(ctx, sessions, { ticket, content: { kind: 'text', body: farewell } }).catch((error: unknown) => ctx.events.publish('channel.error', { whatsappId: ticket.whatsappId, error }));
}

/**
 * The service-protocol number: the local date and time to the second (yyyyMMddHHmmss, in the
 * server's time zone, TZ) followed by the ticket id, so two tickets closed in the same second
 * never share a number and the number says when and which ticket.
 */
export function protocolNumber(ticketId: number, at: Date = new Date()): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}${parts.month}${parts.day}${parts.hour}${parts.minute}${parts.second}${ticketId}`;
}

/** What the contact receives, in the customers' Portuguese like the other notices. */
export function protocolNotice(protocol: string): string {
  return `Seu atendimento foi encerrado. O número de protocolo do seu atendimento é *${protocol}*. Guarde-o para futuras consultas.`;
}

/**
 * 'Protocolo': on an open ticket the caller may act on, the protocol number is sent to the
 * contact through the ticket's connection, then the ticket closes exactly like Resolve (the
 * farewell follows). The protocol must reach the contact: when it cannot be sent the ticket
 * stays open and the error is returned.
 */
export async function closeWithProtocol(ctx: AppContext, sessions: SessionManager, actor: AuthUser, id: number): Promise<{ protocol: string; ticket: TTicket }> {
  const ticket = await getVisibleTicket(ctx, actor, id);
  if (ticket.status !== 'open') throw new AppError('ERR_TICKET_NOT_OPEN', { message: 'Only an open ticket can be closed with a protocol.' });
  const protocol = protocolNumber(ticket.id);
  await sendOnTicket(ctx, sessions, { ticket, content: { kind: 'text', body: protocolNotice(protocol) } });
  // Kept on the ticket: the closing notice carries it, and /zdgProtocolo mails this one, never a number sent by a client.
  await repo.updateTicket(ctx.db, id, { protocol }, nowIso());
  return { protocol, ticket: await changeStatus(ctx, sessions, actor, id, 'closed') };
}

/** Who the contact is told now serves them: 'Vendas' and 'Ana', in the customers' Portuguese. */
export function transferNotice(queue: string | undefined, user: string | undefined): string {
  const parts = [queue ? `Seu atendimento foi transferido para o setor *${queue}*.` : 'Seu atendimento foi transferido.'];
  if (user) parts.push(`Quem vai te atender: *${user}*.`);
  return parts.join(' ');
}

/**
 * Transfer: a new user, queue and/or connection. A queue without a user puts the ticket back
 * in that queue (pending, unassigned); a user takes it open. Moving it to another connection
 * is for admins. The contact is told where the ticket went.
 */
export async function transferTicket(
  ctx: AppContext,
  sessions: SessionManager,
  actor: AuthUser,
  id: number,
  input: { userId?: number | null | undefined; queueId?: number | null | undefined; whatsappId?: number | undefined },
): Promise<TTicket> {
  const ticket = await getVisibleTicket(ctx, actor, id);
  if (input.whatsappId !== undefined && input.whatsappId !== ticket.whatsappId && !isAdminProfile(actor.profile)) throw new AppError('ERR_NO_PERMISSION');
  const queue = input.queueId ? await findQueueById(ctx.db, input.queueId) : undefined;
  if (input.queueId && !queue) throw new AppError('ERR_NO_QUEUE_FOUND');
  const user = input.userId ? await findAuthUserById(ctx.db, input.userId) : undefined;
  if (input.userId && !user) throw new AppError('ERR_NO_USER_FOUND');
  if (input.whatsappId !== undefined && !(await findWhatsappById(ctx.db, input.whatsappId))) throw new AppError('ERR_NO_WAPP_FOUND');

  const patch: repo.TicketPatch = {};
  if (input.queueId !== undefined) patch.queueId = input.queueId;
  if (input.whatsappId !== undefined) patch.whatsappId = input.whatsappId;
  if (user) Object.assign(patch, { userId: user.id, status: 'open' as const });
  else if (input.userId === null || input.queueId !== undefined) Object.assign(patch, { userId: null, status: 'pending' as const });
  try {
    await repo.updateTicket(ctx.db, id, patch, nowIso());
  } catch (error) {
    // The contact already has an open ticket on the connection it was moved to.
    if (isUniqueViolation(error)) throw new AppError('ERR_OTHER_OPEN_TICKET');
    throw error;
  }
  const moved = await repo.findTicketById(ctx.db, id);
  if (!moved) throw new AppError('ERR_NO_TICKET_FOUND');
  ctx.events.publish('ticket.saved', { ticket: moved, previous: ticket });
  if (!(queue || user) || !(await sessions.use(moved.whatsappId).catch(() => undefined))) return moved;
  // The notice goes out in the background (see queueOnTicket); the answer is the ticket after it was stored.
  await queueOnTicket(ctx, sessions, { ticket: moved, content: { kind: 'text', body: transferNotice(queue?.name, user?.name) } }).catch((error: unknown) =>
    ctx.events.publish('channel.error', { whatsappId: moved.whatsappId, error }),
  );
  return (await repo.findTicketById(ctx.db, id)) ?? moved;
}

/**
 * `PUT /tickets/{id} {status, userId, queueId, whatsappId}` as spec 7 has it. A request whose
 * status changes is a status change by the caller (accept, return, resolve, reopen), `userId`
 * saying who; accepting for someone else, or with a move to another queue or connection, is a
 * transfer. Without a status change it is a transfer only when the user, the queue or the
 * connection really changes (a queue alone puts the ticket back in that queue's waiting list);
 * otherwise nothing happens. Only a transfer tells the contact.
 */
export async function updateTicket(ctx: AppContext, sessions: SessionManager, actor: AuthUser, id: number, input: TTicketUpdate): Promise<TTicket> {
  const ticket = await getVisibleTicket(ctx, actor, id);
  const queueMoves = input.queueId !== undefined && input.queueId !== ticket.queueId;
  const connectionMoves = input.whatsappId !== undefined && input.whatsappId !== ticket.whatsappId;
  const moves = { ...(queueMoves ? { queueId: input.queueId } : {}), ...(connectionMoves ? { whatsappId: input.whatsappId } : {}) };

  if (input.status !== undefined && input.status !== ticket.status) {
    if (input.status === 'open') {
      const assignee = input.userId ?? actor.id;
      if (assignee === actor.id && !queueMoves && !connectionMoves) return changeStatus(ctx, sessions, actor, id, 'open');
      return transferTicket(ctx, sessions, actor, id, { userId: assignee, ...moves });
    }
    if (input.status === 'pending') {
      if (queueMoves || connectionMoves) return transferTicket(ctx, sessions, actor, id, { userId: null, ...moves });
      return changeStatus(ctx, sessions, actor, id, 'pending');
    }
    if (queueMoves || connectionMoves || (input.userId != null && input.userId !== actor.id)) {
      throw new AppError('ERR_RESOLVE_WITH_TRANSFER');
    }
    return changeStatus(ctx, sessions, actor, id, 'closed');
  }

  const targetUser = input.userId !== undefined ? input.userId : input.queueId !== undefined ? null : ticket.userId;
  if (targetUser === ticket.userId && !queueMoves && !connectionMoves) return ticket;
  return transferTicket(ctx, sessions, actor, id, { ...(input.userId !== undefined ? { userId: input.userId } : {}), ...(input.queueId !== undefined ? { queueId: input.queueId } : {}), ...moves });
}

export async function deleteTicket(ctx: AppContext, actor: AuthUser, id: number): Promise<void> {
  assertPermission(actor, 'ticketsDelete');
  const ticket = await repo.findTicketById(ctx.db, id);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  await repo.deleteTicket(ctx.db, id);
  ctx.events.publish('ticket.deleted', { ticket });
}

/** Close all: every open and pending ticket the caller may see is closed (no farewell flood). */
/**
 * The tickets 'Close all' closes: an admin's, every open and pending ticket (spec 4); an agent's,
 * only their own open tickets (a waiting ticket of the queue is left for whoever takes it).
 */
async function closeAllCandidates(ctx: AppContext, actor: AuthUser) {
  const admin = isAdminProfile(actor.profile);
  const scope = { userId: actor.id, admin, allQueues: admin, showAll: admin, queueIds: await repo.userQueueIds(ctx.db, actor.id) };
  const tickets = await lists.visibleActiveTickets(ctx.db, scope);
  return admin ? tickets : tickets.filter((t) => t.userId === actor.id && t.status === 'open');
}

/** What 'Close all' would close, said before it is asked: the user's own, the waiting ones, other agents' (admins). */
export async function closeAllSummary(ctx: AppContext, actor: AuthUser): Promise<{ own: number; waiting: number; others: number }> {
  const tickets = await closeAllCandidates(ctx, actor);
  const own = tickets.filter((t) => t.userId === actor.id).length;
  const waiting = tickets.filter((t) => t.userId === null).length;
  return { own, waiting, others: tickets.length - own - waiting };
}

/** Closes what closeAllSummary counted; `others: false` (admins) leaves the tickets other agents work on. */
export async function closeAllTickets(ctx: AppContext, actor: AuthUser, options: { others?: boolean | undefined } = {}): Promise<{ closed: number }> {
  const tickets = await closeAllCandidates(ctx, actor);
  const ids = tickets.filter((t) => options.others !== false || t.userId === null || t.userId === actor.id).map((t) => t.id);
  const now = nowIso();
  const notices = await closeNoticePlan(ctx);
  let queued = 0;
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    queued += await ctx.db.transaction().execute(async (trx) => {
      await repo.closeTickets(trx, chunk, actor.id, now);
      return queueCloseNotices(trx, notices, chunk, now);
    });
  }
  if (queued) ctx.events.publish('email.queued', { count: queued });
  for (let i = 0; i < ids.length; i += 100) {
    for (const ticket of await repo.findTicketsByIds(ctx.db, ids.slice(i, i + 100))) ctx.events.publish('ticket.saved', { ticket });
  }
  return { closed: ids.length };
}
