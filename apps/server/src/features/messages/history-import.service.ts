/**
 * History import (the import panel, `POST /zdgSyncMessageUser` and `POST /syncMessage`): past
 * messages a connection's phone holds are stored in the contact's ticket. Quiet by design: no
 * greeting, queue menu, unread count or notification; a message already stored (same provider id
 * on that connection) is never stored twice. Live events let an open chat show what arrived.
 */
import type { TTicket } from '@zapdesk/shared/messaging';
import type { ChannelDriver, InboundMessage } from '../../channels/channel.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import type { TContact } from '@zapdesk/shared/schemas';
import { isUniqueViolation } from '../../core/db/database.js';
import { findContactIdByNumber } from '../contacts/contacts.repository.js';
import { getVisibleContact } from '../contacts/contacts.service.js';
import { findActiveTicketId, findLatestTicketId, findTicketById, findTicketsByIds, insertTicket, updateTicket } from '../tickets/tickets.repository.js';
import { canSeeTicket } from '../tickets/tickets.service.js';
import type { AuthUser } from '../users/users.repository.js';
import { findWhatsappById } from '../whatsapps/whatsapps.repository.js';
import { activeTicketIdsOfConnection, chatMessageAtEnd } from './history.repository.js';
import { storeMedia } from './inbound/media.js';
import { lastMessageText, storedBody, storedMediaType } from './inbound/message-content.js';
import { presentMessage } from './messages.presenter.js';
import { findMessageByProviderId, findMessagesByIds, insertMessageOnce } from './messages.repository.js';
import { chatOf } from './outbound.service.js';

/** `POST /syncMessage` imports the chats of at most this many open or pending tickets. */
export const SYNC_TICKETS_MAX = 20;

async function connectionDriver(ctx: AppContext, sessions: SessionManager, whatsappId: number): Promise<ChannelDriver> {
  if (!(await findWhatsappById(ctx.db, whatsappId))) throw new AppError('ERR_NO_WAPP_FOUND');
  return sessions.require(whatsappId);
}

/** Fetches up to `limit` messages older than what the ticket's chat holds, and stores the new ones. */
async function importIntoTicket(ctx: AppContext, driver: ChannelDriver, ticket: TTicket, limit: number): Promise<number> {
  const anchor = await chatMessageAtEnd(ctx.db, ticket.whatsappId, ticket.contactId, 'oldest');
  let history: InboundMessage[];
  try {
    history = await driver.fetchHistory({
      chat: chatOf(ticket),
      limit,
      ...(anchor ? { before: { providerId: anchor.providerId, fromMe: anchor.fromMe, timestamp: new Date(anchor.createdAt) } } : {}),
    });
  } catch (error) {
    if (error instanceof AppError && (error.code === 'ERR_WAPP_NOT_INITIALIZED' || error.code === 'ERR_FETCH_WAPP_MSG')) throw error;
    throw new AppError('ERR_FETCH_WAPP_MSG');
  }
  const inserted: number[] = [];
  for (const message of history.slice(-limit)) {
    if (await findMessageByProviderId(ctx.db, ticket.whatsappId, message.providerId)) continue;
    const quoted = message.quotedProviderId ? await findMessageByProviderId(ctx.db, ticket.whatsappId, message.quotedProviderId) : undefined;
    const id = await insertMessageOnce(ctx.db, {
      ticketId: ticket.id,
      whatsappId: ticket.whatsappId,
      providerId: message.providerId,
      contactId: message.fromMe ? null : ticket.contactId,
      body: storedBody(message),
      fromMe: message.fromMe,
      // Old messages were answered on the phone long ago: they never count as unread.
      read: true,
      ack: message.fromMe ? 3 : 0,
      mediaType: storedMediaType(message),
      ...(await storeMedia(ctx, ticket.whatsappId, message)),
      quotedMsgId: quoted?.id ?? null,
      createdAt: message.timestamp.toISOString(),
    });
    if (id !== undefined) inserted.push(id);
  }
  if (inserted.length === 0) return 0;
  const newest = history.at(-1);
  if (!ticket.lastMessage && newest) await updateTicket(ctx.db, ticket.id, { lastMessage: lastMessageText(newest) }, nowIso());
  const updated = (await findTicketById(ctx.db, ticket.id)) ?? ticket;
  // 'update', not 'create': old messages must not ring the bell or raise desktop notifications.
  for (const row of await findMessagesByIds(ctx.db, inserted)) {
    ctx.events.publish('message.saved', { message: await presentMessage(ctx, row), ticket: updated, created: false });
  }
  ctx.events.publish('ticket.saved', { ticket: updated });
  return inserted.length;
}

/**
 * Where a contact's history goes, for this caller: the open or pending ticket on the connection;
 * else the latest ticket there, as it is (a closed ticket stays closed); else a new waiting
 * ticket without a queue, as a first message would open it. Never a ticket the caller may not
 * see: the caller gets ERR_NO_PERMISSION and nothing is created, reopened or reassigned.
 */
async function ticketForImport(ctx: AppContext, actor: AuthUser, contact: TContact, whatsappId: number): Promise<TTicket> {
  const activeId = await findActiveTicketId(ctx.db, contact.id, whatsappId);
  const existingId = activeId ?? (await findLatestTicketId(ctx.db, contact.id, whatsappId));
  const existing = existingId === undefined ? undefined : await findTicketById(ctx.db, existingId);
  if (existing) {
    if (!(await canSeeTicket(ctx, actor, existing))) throw new AppError('ERR_NO_PERMISSION');
    return existing;
  }
  if (!(await canSeeTicket(ctx, actor, { userId: null, queueId: null }))) throw new AppError('ERR_NO_PERMISSION');
  let id: number;
  try {
    id = await insertTicket(ctx.db, { contactId: contact.id, whatsappId, isGroup: contact.isGroup, status: 'pending', userId: null }, nowIso());
  } catch (error) {
    // A first message of the contact opened one meanwhile: that is the ticket.
    const raced = isUniqueViolation(error) ? await findActiveTicketId(ctx.db, contact.id, whatsappId) : undefined;
    const ticket = raced === undefined ? undefined : await findTicketById(ctx.db, raced);
    if (!ticket) throw error;
    if (!(await canSeeTicket(ctx, actor, ticket))) throw new AppError('ERR_NO_PERMISSION');
    return ticket;
  }
  const ticket = await findTicketById(ctx.db, id);
  if (!ticket) throw new AppError('ERR_CREATING_TICKET');
  ctx.events.publish('ticket.saved', { ticket });
  return ticket;
}

/**
 * `POST /zdgSyncMessageUser`: the past messages of one contact's chat on a connection, into the
 * contact's ticket there (see ticketForImport), for a contact the caller may see.
 */
export async function importContactHistory(ctx: AppContext, sessions: SessionManager, actor: AuthUser, input: { number: string; limit: number; whatsappId: number }): Promise<{ imported: number }> {
  const driver = await connectionDriver(ctx, sessions, input.whatsappId);
  const contactId = await findContactIdByNumber(ctx.db, input.number);
  if (contactId === undefined) throw new AppError('ERR_NO_CONTACT_FOUND');
  const contact = await getVisibleContact(ctx, actor, contactId);
  const ticket = await ticketForImport(ctx, actor, contact, input.whatsappId);
  return { imported: await importIntoTicket(ctx, driver, ticket, input.limit) };
}

/**
 * `POST /syncMessage`: the recent history of a connection's chats, meaning the chats of its open
 * and pending tickets that the caller may see (the SYNC_TICKETS_MAX most recently active), up to
 * `limit` older messages each. A chat whose history the phone cannot give is skipped. 'all': an
 * API token's call, with admin rights.
 */
export async function importConnectionHistory(ctx: AppContext, sessions: SessionManager, actor: AuthUser | 'all', input: { limit: number; whatsappId: number }): Promise<{ imported: number }> {
  const driver = await connectionDriver(ctx, sessions, input.whatsappId);
  const tickets = await findTicketsByIds(ctx.db, await activeTicketIdsOfConnection(ctx.db, input.whatsappId, SYNC_TICKETS_MAX * 5));
  let imported = 0;
  let chats = 0;
  for (const ticket of tickets) {
    if (chats >= SYNC_TICKETS_MAX) break;
    if (actor !== 'all' && !(await canSeeTicket(ctx, actor, ticket))) continue;
    chats += 1;
    try {
      imported += await importIntoTicket(ctx, driver, ticket, input.limit);
    } catch (error) {
      if (error instanceof AppError && error.code === 'ERR_WAPP_NOT_INITIALIZED') throw error;
      ctx.events.publish('channel.error', { whatsappId: input.whatsappId, error });
    }
  }
  return { imported };
}
