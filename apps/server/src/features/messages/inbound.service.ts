/**
 * The inbound pipeline: what happens when a message reaches a connection. Contact upsert,
 * find-or-create ticket, stored message and media, unread count, queue menu and greetings,
 * live events. Idempotent per provider message id; one open ticket per contact and
 * connection is enforced by the database.
 */
import type { MediaType } from '@zapdesk/shared/domain';
import { renderVariables } from '@zapdesk/shared/variables';
import type { ChatAddress, InboundMessage } from '../../channels/channel.js';
import type { InboundHandler, SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../core/context.js';
import { isUniqueViolation, type Db } from '../../core/db/database.js';
import { nowIso } from '../../core/time.js';
import { contactNamesByIds, findContactById, findContactByNumber, findContactIdByNumber, insertChatContactIfAbsent, nameUnnamedContact, setProfilePicture } from '../contacts/contacts.repository.js';
import { getSettingValue } from '../settings/settings.repository.js';
import * as tickets from '../tickets/tickets.repository.js';
import { findWhatsappById, listConnectionQueues } from '../whatsapps/whatsapps.repository.js';
import { recentChatsOfConnection } from './history.repository.js';
import { saveMedia } from './media-store.js';
import { presentMessages, publishMessageUpdate } from './messages.presenter.js';
import * as messages from './messages.repository.js';
import type { MessageRow } from './messages.repository.js';
import { sendOnTicket } from './outbound.service.js';

/** The spec's location body: image|link|description. */
export function locationBody(location: { latitude: number; longitude: number; description?: string | undefined }): string {
  const at = `${location.latitude},${location.longitude}`;
  const image = `https://maps.googleapis.com/maps/api/staticmap?center=${at}&zoom=15&size=300x200&markers=${at}`;
  const link = `https://maps.google.com/maps?q=${at}&z=17`;
  return [image, link, location.description ?? ''].join('|');
}

/** The stored kind of a message: location and vcard have their own, other media their type, text none. */
export function storedMediaType(message: InboundMessage): MediaType | null {
  return message.location ? 'location' : message.vcard ? 'vcard' : (message.media?.mediaType ?? null);
}

/** The stored body of a message: the location in the spec's pipe format, the vcard, or the text. */
export function storedBody(message: InboundMessage): string {
  if (message.location) return locationBody(message.location);
  if (message.vcard) return message.vcard;
  return message.body;
}

function lastMessageText(message: InboundMessage): string {
  if (message.location) return '📍 Location';
  if (message.vcard) return '👤 Contact';
  if (message.body) return message.body;
  if (message.media) return message.media.mediaType === 'audio' ? '🎤 Audio' : message.media.filename;
  return '';
}

/**
 * What a batch of inbound messages announces once its writes are committed: nobody hears of a
 * row that a rollback could still take back.
 */
type Outbox = {
  /** Contacts created (true) or renamed (false). */
  contacts: Map<number, boolean>;
  stored: MessageRow[];
  replies: { ticketId: number; body: string }[];
  pictures: { contactId: number; chat: ChatAddress }[];
};

const emptyOutbox = (): Outbox => ({ contacts: new Map(), stored: [], replies: [], pictures: [] });

/** Settings and the connection's queues, read once per batch. */
type PipelineSettings = { acceptsGroups: boolean; routesGroups: boolean; reopenWithinSeconds: number; queues: ConnectionQueue[] };

type ConnectionQueue = Awaited<ReturnType<typeof listConnectionQueues>>[number];

async function readPipelineSettings(db: Db, whatsappId: number): Promise<PipelineSettings> {
  return {
    queues: await listConnectionQueues(db, whatsappId),
    // Group messages are taken only when CheckMsgIsGroup is disabled (see README).
    acceptsGroups: (await getSettingValue(db, 'CheckMsgIsGroup')) === 'disabled',
    routesGroups: (await getSettingValue(db, 'groups')) === 'enabled',
    reopenWithinSeconds: Number(await getSettingValue(db, 'timeCreateNewTicket')) || 0,
  };
}

/** The contact of a chat: the person, or the group itself. Created on first sight. */
async function upsertChatContact(db: Db, message: InboundMessage, outbox: Outbox): Promise<{ id: number; created: boolean }> {
  const isGroup = message.chat.kind === 'group';
  const number = message.chat.kind === 'group' ? message.chat.groupId : message.chat.number;
  const name = (isGroup ? message.group?.subject : message.fromMe ? undefined : message.sender?.name)?.trim() || undefined;
  const existing = await findContactByNumber(db, number);
  const now = nowIso();
  if (existing) {
    // A contact still named by its number takes the name the person gave themself.
    if (name && existing.name === number && (await nameUnnamedContact(db, existing.id, name, now)) && !outbox.contacts.has(existing.id)) outbox.contacts.set(existing.id, false);
    return { id: existing.id, created: false };
  }
  const contactName = name ?? number;
  const inserted = await insertChatContactIfAbsent(db, { name: contactName, number, isGroup }, now);
  if (inserted !== undefined) {
    outbox.contacts.set(inserted, true);
    return { id: inserted, created: true };
  }
  const raced = await findContactByNumber(db, number);
  if (!raced) throw new Error(`contact ${number} vanished while being created`);
  return { id: raced.id, created: false };
}

async function publishContact(ctx: AppContext, id: number, created: boolean): Promise<void> {
  const contact = await findContactById(ctx.db, id);
  if (contact) ctx.events.publish('contact.saved', { contact, created });
}

/** The sender inside a group: a contact of their own, so messages show who wrote. */
async function upsertSender(db: Db, message: InboundMessage, outbox: Outbox): Promise<number | null> {
  if (message.chat.kind !== 'group' || message.fromMe || !message.sender) return null;
  const { id } = await upsertChatContact(db, { ...message, chat: { kind: 'person', number: message.sender.number }, group: undefined }, outbox);
  return id;
}

export type TicketRef = { id: number; created: boolean; queueId: number | null; userId: number | null };

/**
 * Reuses the open or pending ticket; else reopens the last one closed less than
 * `timeCreateNewTicket` seconds ago as pending; else creates a pending one. Two first messages
 * racing meet the unique index, and the loser takes the winner's ticket.
 */
export async function findOrCreateTicket(db: Db, options: { contactId: number; whatsappId: number; isGroup: boolean; reopenWithinSeconds: number }): Promise<TicketRef> {
  const active = await tickets.findActiveTicket(db, options.contactId, options.whatsappId);
  if (active) return { ...active, created: false };
  const now = nowIso();
  const closed = await tickets.findLastClosedTicket(db, options.contactId, options.whatsappId);
  if (closed && Date.now() - Date.parse(closed.updatedAt) < options.reopenWithinSeconds * 1000) {
    try {
      await tickets.updateTicket(db, closed.id, { status: 'pending', userId: null }, now);
      return { id: closed.id, created: false, queueId: closed.queueId, userId: null };
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

/** Stores a message's media when it can be downloaded; the message is kept without it otherwise. */
export async function storeMedia(ctx: AppContext, whatsappId: number, message: InboundMessage): Promise<string | null> {
  if (!message.media) return null;
  try {
    return await saveMedia(ctx, await message.media.load(), { mimetype: message.media.mimetype, filename: message.media.filename });
  } catch (error) {
    // The message is kept without its file rather than lost.
    ctx.events.publish('channel.error', { whatsappId, error });
    return null;
  }
}

/** Profile pictures are looked up at a contact's first message, then at most once a day. */
export const PROFILE_PICTURE_REFRESH_MS = 24 * 3600 * 1000;

async function refreshProfilePicture(ctx: AppContext, sessions: SessionManager, whatsappId: number, contactId: number, chat: ChatAddress): Promise<void> {
  const url = await sessions.driver(whatsappId)?.profilePictureUrl(chat);
  if (url && (await setProfilePicture(ctx.db, contactId, url, nowIso()))) await publishContact(ctx, contactId, false);
}

/** A message ready for the database: its media file already stored (never inside a transaction). */
type Prepared = { message: InboundMessage; mediaPath: string | null };

/**
 * Writes one inbound message: contact, ticket, message row, and the ticket's last message,
 * unread count and queue, all in one update. Returns nothing for a redelivery.
 */
async function writeInbound(db: Db, options: { whatsappId: number; prepared: Prepared; settings: PipelineSettings; outbox: Outbox }): Promise<void> {
  const { whatsappId, settings, outbox } = options;
  const { message, mediaPath } = options.prepared;
  const contact = await upsertChatContact(db, message, outbox);
  outbox.pictures.push({ contactId: contact.id, chat: message.chat });
  const senderId = await upsertSender(db, message, outbox);
  const isGroup = message.chat.kind === 'group';
  const ticketRef = await findOrCreateTicket(db, { contactId: contact.id, whatsappId, isGroup, reopenWithinSeconds: settings.reopenWithinSeconds });
  const quoted = message.quotedProviderId ? await messages.findMessageByProviderId(db, whatsappId, message.quotedProviderId) : undefined;
  const row = await messages.insertMessageRowOnce(db, {
    ticketId: ticketRef.id,
    whatsappId,
    providerId: message.providerId,
    contactId: message.fromMe ? null : (senderId ?? contact.id),
    body: storedBody(message),
    fromMe: message.fromMe,
    read: message.fromMe,
    ack: message.fromMe ? 1 : 0,
    mediaType: storedMediaType(message),
    mediaPath,
    quotedMsgId: quoted?.id ?? null,
    createdAt: message.timestamp.toISOString(),
  });
  if (!row) return; // a redelivery: the first delivery stored it
  // The queue is decided with the message, in the same update, so that nobody hears of it
  // (and no list shows it) before its queue is known.
  const routing =
    !message.fromMe && ticketRef.queueId === null && ticketRef.userId === null && !(isGroup && !settings.routesGroups)
      ? await routeToQueue(db, { ticketId: ticketRef.id, whatsappId, contactId: contact.id, queues: settings.queues }, message.body, ticketRef.created)
      : undefined;
  await tickets.touchTicket(db, ticketRef.id, { lastMessage: lastMessageText(message), incoming: !message.fromMe, queueId: routing?.queueId }, nowIso());
  outbox.stored.push(row);
  if (routing?.reply.trim()) outbox.replies.push({ ticketId: ticketRef.id, body: routing.reply });
}

/** Announces what a committed batch wrote: contacts, then each message with its ticket, then greetings. */
async function publishOutbox(ctx: AppContext, sessions: SessionManager, whatsappId: number, outbox: Outbox, pictureCheckedAt: Map<number, number>): Promise<void> {
  for (const [id, created] of outbox.contacts) await publishContact(ctx, id, created);
  const ticketIds = [...new Set(outbox.stored.map((r) => r.ticketId))];
  const byId = new Map((await tickets.findTicketsByIds(ctx.db, ticketIds)).map((ticket) => [ticket.id, ticket]));
  const presented = await presentMessages(ctx, outbox.stored);
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
}

/** After a crash, the chats active this long before the restart are read again from the phone. */
export const CATCH_UP_WINDOW_MS = 24 * 60 * 60 * 1000;
export const CATCH_UP_CHATS_MAX = 20;

export function createInboundHandler(ctx: AppContext, sessions: SessionManager): InboundHandler {
  const pictureCheckedAt = new Map<number, number>();

  async function prepare(whatsappId: number, message: InboundMessage, settings: PipelineSettings): Promise<Prepared | undefined> {
    if (message.chat.kind === 'group' && !settings.acceptsGroups) return undefined;
    // A redelivery is stopped by the unique provider id at insert time; a read first only
    // where it saves downloading and storing the same file again.
    if (message.media && (await messages.findMessageByProviderId(ctx.db, whatsappId, message.providerId))) return undefined;
    return { message, mediaPath: await storeMedia(ctx, whatsappId, message) };
  }

  /** Writes messages in one transaction, so nobody sees a ticket without its message. */
  async function writeTogether(whatsappId: number, prepared: Prepared[], settings: PipelineSettings): Promise<Outbox> {
    const outbox = emptyOutbox();
    await ctx.db.transaction().execute(async (trx) => {
      for (const p of prepared) await writeInbound(trx, { whatsappId, prepared: p, settings, outbox });
    });
    return outbox;
  }

  /** One message on its own; a race lost to another writer (a unique index) is settled by trying again. */
  async function writeAlone(whatsappId: number, prepared: Prepared, settings: PipelineSettings): Promise<void> {
    let outbox: Outbox;
    try {
      outbox = await writeTogether(whatsappId, [prepared], settings);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      outbox = await writeTogether(whatsappId, [prepared], settings);
    }
    await publishOutbox(ctx, sessions, whatsappId, outbox, pictureCheckedAt);
  }

  return {
    /**
     * A batch of messages in arrival order (the session manager collects what arrives while the
     * previous batch is written). They are written in one transaction: one commit for all
     * instead of one per write. Should the batch fail (a race with another writer aborts a
     * PostgreSQL transaction), each message is written again on its own.
     */
    async messages(whatsappId, batch) {
      const settings = await readPipelineSettings(ctx.db, whatsappId);
      const prepared = (await Promise.all(batch.map((m) => prepare(whatsappId, m, settings)))).filter((p) => p !== undefined);
      if (prepared.length === 0) return;
      let outbox: Outbox;
      try {
        outbox = await writeTogether(whatsappId, prepared, settings);
      } catch {
        // Each on its own; a message that still cannot be written fails the batch, so its
        // sender is not told it arrived (it sends again, and the provider id keeps one row).
        let failure: unknown;
        for (const p of prepared) {
          await writeAlone(whatsappId, p, settings).catch((error: unknown) => {
            failure ??= error;
            ctx.events.publish('channel.error', { whatsappId, error });
          });
        }
        if (failure !== undefined) throw failure;
        return;
      }
      await publishOutbox(ctx, sessions, whatsappId, outbox, pictureCheckedAt);
    },

    async ack(whatsappId, providerId, ack) {
      const id = await messages.raiseAck(ctx.db, whatsappId, providerId, ack, nowIso());
      if (id !== undefined) await publishMessageUpdate(ctx, id);
    },

    /** The author's new text replaces the stored one, marked edited; deleted messages stay deleted. */
    async edit(whatsappId, { providerId, body }) {
      const id = await messages.editMessageBody(ctx.db, whatsappId, providerId, body, nowIso());
      if (id === undefined) return;
      // An edited text that is the chat's latest message is also the ticket's list line.
      const row = await messages.findMessageById(ctx.db, id);
      if (row && !row.mediaType && (await messages.isLatestOfTicket(ctx.db, row.ticketId, id))) {
        await tickets.setLastMessage(ctx.db, row.ticketId, body);
        const ticket = await tickets.findTicketById(ctx.db, row.ticketId);
        if (ticket) ctx.events.publish('ticket.saved', { ticket });
      }
      await publishMessageUpdate(ctx, id);
    },

    /**
     * Name and picture changes of people the inbox already knows (the address book is not
     * imported). The network's name fills in only a contact still named by its number; a
     * changed picture is looked up at once, a removed one cleared.
     */
    async contact(whatsappId, update) {
      const id = await findContactIdByNumber(ctx.db, update.number);
      if (id === undefined) return;
      const now = nowIso();
      let changed = update.name ? await nameUnnamedContact(ctx.db, id, update.name, now) : false;
      if (update.picture === 'removed') changed = (await setProfilePicture(ctx.db, id, '', now)) || changed;
      if (update.picture === 'changed') {
        pictureCheckedAt.set(id, Date.now());
        const url = await sessions.driver(whatsappId)?.profilePictureUrl({ kind: 'person', number: update.number });
        if (url) changed = (await setProfilePicture(ctx.db, id, url, now)) || changed;
      }
      if (changed) await publishContact(ctx, id, false);
    },

    /** The chats active in the last day (at most 20), each from its newest stored message. */
    async recentChats(whatsappId) {
      const since = new Date(Date.now() - CATCH_UP_WINDOW_MS).toISOString();
      const chats = await recentChatsOfConnection(ctx.db, whatsappId, since, CATCH_UP_CHATS_MAX);
      return chats.map((c) => ({
        chat: c.isGroup ? { kind: 'group' as const, groupId: c.number } : { kind: 'person' as const, number: c.number },
        after: { providerId: c.newest.providerId, fromMe: c.newest.fromMe, timestamp: new Date(c.newest.createdAt) },
      }));
    },

    async revoke(whatsappId, providerId) {
      const row = await messages.findMessageByProviderId(ctx.db, whatsappId, providerId);
      if (!row || row.isDeleted) return;
      await messages.updateMessage(ctx.db, row.id, { isDeleted: true }, nowIso());
      await publishMessageUpdate(ctx, row.id);
    },
  };
}


/**
 * With one queue the ticket takes it. With several, the greeting lists them numbered and the
 * contact's numeric reply picks one, which answers with that queue's greeting. Returns the queue
 * the ticket takes, if any, and what to answer.
 */
async function routeToQueue(db: Db, ticket: { ticketId: number; whatsappId: number; contactId: number; queues: ConnectionQueue[] }, body: string, isNewTicket: boolean): Promise<{ queueId?: number; reply: string }> {
  const { queues } = ticket;
  // The common case, a queue-less connection in an ongoing chat, needs nothing more.
  if (queues.length === 0 && !isNewTicket) return { reply: '' };
  const connection = await findWhatsappById(db, ticket.whatsappId);
  if (!connection) return { reply: '' };
  const contact = (await contactNamesByIds(db, [ticket.contactId])).get(ticket.contactId);
  const values = (queue?: string) => ({ name: contact?.name ?? '', ticketId: ticket.ticketId, connection: connection.name, ...(queue ? { queue } : {}) });

  if (queues.length === 0) return { reply: renderVariables(connection.greetingMessage, values()) };
  const choice = queues.length === 1 ? queues[0] : /^\s*\d+\s*$/.test(body) ? queues[Number.parseInt(body.trim(), 10) - 1] : undefined;
  if (choice) {
    const greeting = choice.greetingMessage || (queues.length === 1 && isNewTicket ? connection.greetingMessage : '');
    return { queueId: choice.id, reply: queues.length === 1 && !isNewTicket ? '' : renderVariables(greeting, values(choice.name)) };
  }
  const menu = queues.map((q, i) => `*${i + 1}* - ${q.name}`).join('\n');
  return { reply: `${renderVariables(connection.greetingMessage, values())}\n\n${menu}` };
}
