/**
 * The inbound pipeline: what happens when a message reaches a connection. Contact upsert,
 * find-or-create ticket, stored message and media, unread count, queue menu and greetings,
 * live events. Idempotent per provider message id; one open ticket per contact and
 * connection is enforced by the database.
 */
import { foldText } from '@zapdesk/shared/domain';
import { renderVariables } from '@zapdesk/shared/variables';
import type { InboundMessage } from '../../channels/channel.js';
import type { InboundHandler, SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../core/context.js';
import { isUniqueViolation, type Db } from '../../core/db/database.js';
import { nowIso } from '../../core/time.js';
import { findContactById } from '../contacts/contacts.repository.js';
import { getSettingValue } from '../settings/settings.repository.js';
import * as tickets from '../tickets/tickets.repository.js';
import { findWhatsappById, listConnectionQueues } from '../whatsapps/whatsapps.repository.js';
import { saveMedia } from './media-store.js';
import { presentMessage } from './messages.presenter.js';
import * as messages from './messages.repository.js';
import { sendOnTicket } from './outbound.service.js';

/** The spec's location body: image|link|description. */
export function locationBody(location: { latitude: number; longitude: number; description?: string | undefined }): string {
  const at = `${location.latitude},${location.longitude}`;
  const image = `https://maps.googleapis.com/maps/api/staticmap?center=${at}&zoom=15&size=300x200&markers=${at}`;
  const link = `https://maps.google.com/maps?q=${at}&z=17`;
  return [image, link, location.description ?? ''].join('|');
}

function describe(message: InboundMessage): string {
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

/** The contact of a chat: the person, or the group itself. Created on first sight. */
async function upsertChatContact(ctx: AppContext, message: InboundMessage): Promise<{ id: number; created: boolean }> {
  const isGroup = message.chat.kind === 'group';
  const number = message.chat.kind === 'group' ? message.chat.groupId : message.chat.number;
  const name = (isGroup ? message.group?.subject : message.fromMe ? undefined : message.sender?.name)?.trim() || undefined;
  const existing = await ctx.db.selectFrom('contacts').select(['id', 'name']).where('number', '=', number).executeTakeFirst();
  const now = nowIso();
  if (existing) {
    // A contact still named by its number takes the name the person gave themself.
    if (name && existing.name === number) {
      await ctx.db.updateTable('contacts').set({ name, searchText: foldText(`${name} ${number}`), updatedAt: now }).where('id', '=', existing.id).execute();
      await publishContact(ctx, existing.id, false);
    }
    return { id: existing.id, created: false };
  }
  const contactName = name ?? number;
  const inserted = await ctx.db
    .insertInto('contacts')
    .values({ name: contactName, number, email: '', profilePicUrl: '', isGroup: isGroup ? 1 : 0, searchText: foldText(`${contactName} ${number}`), createdAt: now, updatedAt: now })
    .onConflict((oc) => oc.column('number').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) {
    await publishContact(ctx, inserted.id, true);
    return { id: inserted.id, created: true };
  }
  const raced = await ctx.db.selectFrom('contacts').select('id').where('number', '=', number).executeTakeFirstOrThrow();
  return { id: raced.id, created: false };
}

async function publishContact(ctx: AppContext, id: number, created: boolean): Promise<void> {
  const contact = await findContactById(ctx.db, id);
  if (contact) ctx.events.publish('contact.saved', { contact, created });
}

/** The sender inside a group: a contact of their own, so messages show who wrote. */
async function upsertSender(ctx: AppContext, message: InboundMessage): Promise<number | null> {
  if (message.chat.kind !== 'group' || message.fromMe || !message.sender) return null;
  const { id } = await upsertChatContact(ctx, { ...message, chat: { kind: 'person', number: message.sender.number }, group: undefined });
  return id;
}

/**
 * Reuses the open or pending ticket; else reopens the last one closed less than
 * `timeCreateNewTicket` seconds ago as pending; else creates a pending one. Two first messages
 * racing meet the unique index, and the loser takes the winner's ticket.
 */
export async function findOrCreateTicket(db: Db, options: { contactId: number; whatsappId: number; isGroup: boolean; reopenWithinSeconds: number }): Promise<{ id: number; created: boolean }> {
  const active = await tickets.findActiveTicketId(db, options.contactId, options.whatsappId);
  if (active) return { id: active, created: false };
  const now = nowIso();
  const closed = await tickets.findLastClosedTicket(db, options.contactId, options.whatsappId);
  if (closed && Date.now() - Date.parse(closed.updatedAt) < options.reopenWithinSeconds * 1000) {
    try {
      await tickets.updateTicket(db, closed.id, { status: 'pending', userId: null }, now);
      return { id: closed.id, created: false };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  } else {
    try {
      return { id: await tickets.insertTicket(db, { contactId: options.contactId, whatsappId: options.whatsappId, isGroup: options.isGroup, status: 'pending', userId: null }, now), created: true };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  const winner = await tickets.findActiveTicketId(db, options.contactId, options.whatsappId);
  if (!winner) throw new Error('ticket race lost and no active ticket found');
  return { id: winner, created: false };
}

/** Group messages are taken only when CheckMsgIsGroup is disabled (see README). */
async function acceptsGroups(ctx: AppContext): Promise<boolean> {
  return (await getSettingValue(ctx.db, 'CheckMsgIsGroup')) === 'disabled';
}

async function storeMedia(ctx: AppContext, message: InboundMessage): Promise<string | null> {
  if (!message.media) return null;
  try {
    return await saveMedia(ctx, await message.media.load(), { mimetype: message.media.mimetype, filename: message.media.filename });
  } catch (error) {
    // The message is kept without its file rather than lost.
    ctx.events.publish('channel.error', { whatsappId: 0, error });
    return null;
  }
}

/** Profile pictures are looked up at a contact's first message, then at most once a day. */
export const PROFILE_PICTURE_REFRESH_MS = 24 * 3600 * 1000;

async function refreshProfilePicture(ctx: AppContext, sessions: SessionManager, whatsappId: number, contactId: number, message: InboundMessage): Promise<void> {
  const url = await sessions.driver(whatsappId)?.profilePictureUrl(message.chat);
  if (!url) return;
  const result = await ctx.db.updateTable('contacts').set({ profilePicUrl: url, updatedAt: nowIso() }).where('id', '=', contactId).where('profilePicUrl', '!=', url).executeTakeFirst();
  if (Number(result.numUpdatedRows) > 0) await publishContact(ctx, contactId, false);
}

export function createInboundHandler(ctx: AppContext, sessions: SessionManager): InboundHandler {
  const pictureCheckedAt = new Map<number, number>();
  return {
    async message(whatsappId, message) {
      // A redelivery is stopped by the unique provider id at insert time; a read first only
      // where it saves downloading and storing the same file again.
      if (message.media && (await messages.findMessageByProviderId(ctx.db, whatsappId, message.providerId))) return;
      if (message.chat.kind === 'group' && !(await acceptsGroups(ctx))) return;

      const contact = await upsertChatContact(ctx, message);
      if (Date.now() - (pictureCheckedAt.get(contact.id) ?? 0) > PROFILE_PICTURE_REFRESH_MS) {
        pictureCheckedAt.set(contact.id, Date.now());
        void refreshProfilePicture(ctx, sessions, whatsappId, contact.id, message).catch((error: unknown) => ctx.events.publish('channel.error', { whatsappId, error }));
      }
      const senderId = await upsertSender(ctx, message);
      const reopenWithinSeconds = Number(await getSettingValue(ctx.db, 'timeCreateNewTicket')) || 0;
      const ticketRef = await findOrCreateTicket(ctx.db, { contactId: contact.id, whatsappId, isGroup: message.chat.kind === 'group', reopenWithinSeconds });
      const quoted = message.quotedProviderId ? await messages.findMessageByProviderId(ctx.db, whatsappId, message.quotedProviderId) : undefined;
      const mediaPath = await storeMedia(ctx, message);
      const now = nowIso();
      const id = await messages.insertMessageOnce(ctx.db, {
        ticketId: ticketRef.id,
        whatsappId,
        providerId: message.providerId,
        contactId: message.fromMe ? null : (senderId ?? contact.id),
        body: describe(message),
        fromMe: message.fromMe,
        read: message.fromMe,
        ack: message.fromMe ? 1 : 0,
        mediaType: message.location ? 'location' : message.vcard ? 'vcard' : (message.media?.mediaType ?? null),
        mediaPath,
        quotedMsgId: quoted?.id ?? null,
        createdAt: message.timestamp.toISOString(),
      });
      if (id === undefined) return; // delivered twice at once: the other delivery stored it
      // The queue is decided with the message, in the same update, so that nobody hears of it
      // (and no list shows it) before its queue is known.
      const before = await ctx.db.selectFrom('tickets').select(['queueId', 'userId', 'isGroup']).where('id', '=', ticketRef.id).executeTakeFirst();
      if (!before) return;
      const routing =
        !message.fromMe && before.queueId === null && before.userId === null && !(before.isGroup && (await getSettingValue(ctx.db, 'groups')) !== 'enabled')
          ? await routeToQueue(ctx, { ticketId: ticketRef.id, whatsappId, contactId: contact.id }, message.body, ticketRef.created)
          : undefined;
      await tickets.touchTicket(ctx.db, ticketRef.id, { lastMessage: lastMessageText(message), incoming: !message.fromMe, queueId: routing?.queueId }, now);
      const ticket = await tickets.findTicketById(ctx.db, ticketRef.id);
      if (!ticket) return;
      const row = await messages.findMessageById(ctx.db, id);
      if (!row) return;
      ctx.events.publish('message.saved', { message: await presentMessage(ctx, row), ticket, created: true });
      ctx.events.publish('ticket.saved', { ticket });
      if (routing?.reply.trim()) await sendOnTicket(ctx, sessions, { ticket, content: { kind: 'text', body: routing.reply } });
    },

    async ack(whatsappId, providerId, ack) {
      const id = await messages.raiseAck(ctx.db, whatsappId, providerId, ack, nowIso());
      if (id !== undefined) await publishMessageUpdate(ctx, id);
    },

    async revoke(whatsappId, providerId) {
      const row = await messages.findMessageByProviderId(ctx.db, whatsappId, providerId);
      if (!row || row.isDeleted) return;
      await messages.updateMessage(ctx.db, row.id, { isDeleted: true }, nowIso());
      await publishMessageUpdate(ctx, row.id);
    },
  };
}

export async function publishMessageUpdate(ctx: AppContext, messageId: number): Promise<void> {
  const row = await messages.findMessageById(ctx.db, messageId);
  const ticket = row ? await tickets.findTicketById(ctx.db, row.ticketId) : undefined;
  if (row && ticket) ctx.events.publish('message.saved', { message: await presentMessage(ctx, row), ticket, created: false });
}

/**
 * With one queue the ticket takes it. With several, the greeting lists them numbered and the
 * contact's numeric reply picks one, which answers with that queue's greeting. Returns the queue
 * the ticket takes, if any, and what to answer.
 */
async function routeToQueue(ctx: AppContext, ticket: { ticketId: number; whatsappId: number; contactId: number }, body: string, isNewTicket: boolean): Promise<{ queueId?: number; reply: string }> {
  const queues = await listConnectionQueues(ctx.db, ticket.whatsappId);
  // The common case, a queue-less connection in an ongoing chat, needs nothing more.
  if (queues.length === 0 && !isNewTicket) return { reply: '' };
  const connection = await findWhatsappById(ctx.db, ticket.whatsappId);
  if (!connection) return { reply: '' };
  const contact = await ctx.db.selectFrom('contacts').select('name').where('id', '=', ticket.contactId).executeTakeFirst();
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
