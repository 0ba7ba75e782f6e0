/**
 * What a batch of inbound messages announces once its writes are committed (contacts, stored
 * messages with their tickets, greetings, picture checks): nobody hears of a row that a
 * rollback could still take back.
 */
import type { ChatAddress } from '../../../channels/channel.js';
import type { SessionManager } from '../../../channels/session-manager.js';
import type { AppContext } from '../../../core/context.js';
import { nowIso } from '../../../core/time.js';
import { findContactById, setProfilePicture } from '../../contacts/contacts.repository.js';
import * as tickets from '../../tickets/tickets.repository.js';
import { presentNewMessages, publishMessageUpdate } from '../messages.presenter.js';
import { storedIdsByProviderId, type MessageRow } from '../messages.repository.js';
import { sendOnTicket } from '../outbound.service.js';
import { assignNewTickets } from '../../assignment/assignment.service.js';

export type Outbox = {
  /** Contacts created (true) or renamed (false). */
  contacts: Map<number, boolean>;
  stored: MessageRow[];
  /** The names of the contacts the batch wrote for (chats and group writers), as the batch left them. */
  names: Map<number, string>;
  replies: { ticketId: number; body: string }[];
  pictures: { contactId: number; chat: ChatAddress }[];
  /** Provider ids another writer stored first (a redelivery racing its first delivery). */
  redelivered: string[];
};

export const emptyOutbox = (): Outbox => ({ contacts: new Map(), stored: [], names: new Map(), replies: [], pictures: [], redelivered: [] });

export async function publishContact(ctx: AppContext, id: number, created: boolean): Promise<void> {
  const contact = await findContactById(ctx.db, id);
  if (contact) ctx.events.publish('contact.saved', { contact, created });
}

/** Profile pictures are looked up at a contact's first message, then at most once a day. */
export const PROFILE_PICTURE_REFRESH_MS = 24 * 3600 * 1000;

async function refreshProfilePicture(ctx: AppContext, sessions: SessionManager, whatsappId: number, contactId: number, chat: ChatAddress): Promise<void> {
  const url = await sessions.driver(whatsappId)?.profilePictureUrl(chat);
  if (url && (await setProfilePicture(ctx.db, contactId, url, nowIso()))) await publishContact(ctx, contactId, false);
}

/**
 * Messages delivered again that are already stored are announced again, as an update (no
 * new-message alert): the node that stored them may have stopped between its commit and its
 * announcement, and the phone delivers again what no node acknowledged. The app keeps a message
 * by its id, so one it already shows is only refreshed.
 */
export async function announceRedelivered(ctx: AppContext, messageIds: Iterable<number>): Promise<void> {
  for (const id of new Set(messageIds)) await publishMessageUpdate(ctx, id);
}

/** Announces what a committed batch wrote: contacts, then each message with its ticket, then greetings. */
export async function publishOutbox(ctx: AppContext, sessions: SessionManager, whatsappId: number, outbox: Outbox, pictureCheckedAt: Map<number, number>): Promise<void> {
  for (const [id, created] of outbox.contacts) await publishContact(ctx, id, created);
  const ticketIds = [...new Set(outbox.stored.map((r) => r.ticketId))];
  await assignNewTickets(ctx, ticketIds).catch((error: unknown) => ctx.events.publish('channel.error', { whatsappId, error }));
  // Read now, not through the memo of findTicketsByIds: the batch's commit has just moved the
  // data version, so the memo would only add a read of that version.
  const byId = new Map((await tickets.loadTicketsByIds(ctx.db, ticketIds)).map((ticket) => [ticket.id, ticket]));
  const presented = await presentNewMessages(ctx, outbox.stored, outbox.names);
  for (const message of presented) {
    const ticket = byId.get(message.ticketId);
    if (ticket) ctx.events.publish('message.saved', { message, ticket, created: true });
  }
  for (const ticket of byId.values()) ctx.events.publish('ticket.saved', { ticket });
  for (const { ticketId, body } of outbox.replies) {
    const ticket = byId.get(ticketId);
    // A greeting or menu that cannot go out stays in the chat as failed, with its retry.
    if (ticket) await sendOnTicket(ctx, sessions, { ticket, content: { kind: 'text', body } }).catch((error: unknown) => ctx.events.publish('channel.error', { whatsappId, error }));
  }
  for (const { contactId, chat } of outbox.pictures) {
    if (Date.now() - (pictureCheckedAt.get(contactId) ?? 0) <= PROFILE_PICTURE_REFRESH_MS) continue;
    pictureCheckedAt.set(contactId, Date.now());
    void refreshProfilePicture(ctx, sessions, whatsappId, contactId, chat).catch((error: unknown) => ctx.events.publish('channel.error', { whatsappId, error }));
  }
  if (outbox.redelivered.length > 0) await announceRedelivered(ctx, (await storedIdsByProviderId(ctx.db, whatsappId, outbox.redelivered)).values());
}
