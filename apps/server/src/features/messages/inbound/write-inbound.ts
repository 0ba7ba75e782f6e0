/**
 * One inbound message written, step by step: contact (and group writer), ticket, the message
 * row, then the ticket's list line, unread count and queue in one update.
 */
import type { InboundMessage } from '../../../channels/channel.js';
import type { Db } from '../../../core/db/database.js';
import { nowIso } from '../../../core/time.js';
import * as tickets from '../../tickets/tickets.repository.js';
import * as messages from '../messages.repository.js';
import type { Outbox } from './batch-outbox.js';
import { upsertChatContactWithState, upsertSender } from './chat-contact.js';
import { lastMessageText, storedBody, storedMediaType } from './message-content.js';
import type { PipelineSettings } from './pipeline-settings.js';
import { stopOnPhoneMessage, takeInbound } from '../../chatbot/chatbot.service.js';
import { routeToQueue } from './queue-menu.js';
import { outOfHoursReply } from '../../business-hours/out-of-hours.js';
import { findOrCreateTicket } from './ticket-choice.js';
import { takeRatingReply } from '../../csat/csat-inbound.js';

/** A message ready for the database: its media file already stored (never inside a transaction). */
export type Prepared = { message: InboundMessage; mediaPath: string | null; mediaName?: string | null; mediaSize?: number | null };

/**
 * Writes one inbound message: contact, ticket, message row, and the ticket's last message,
 * unread count and queue, all in one update. Returns nothing for a redelivery.
 */
export async function writeInbound(db: Db, options: { whatsappId: number; prepared: Prepared; settings: PipelineSettings; outbox: Outbox }): Promise<void> {
  const { whatsappId, settings, outbox } = options;
  const { message, mediaPath, mediaName = null, mediaSize = null } = options.prepared;
  const contact = await upsertChatContactWithState(db, message, outbox, whatsappId);
  outbox.pictures.push({ contactId: contact.id, chat: message.chat });
  outbox.names.set(contact.id, contact.name);
  const sender = await upsertSender(db, message, outbox);
  if (sender) outbox.names.set(sender.id, sender.name);
  const isGroup = message.chat.kind === 'group';
  // A reply to the satisfaction question stays with the closed ticket it rates.
  if (await takeRatingReply(db, { whatsappId, contactId: contact.id, message, outbox, latestRatingId: contact.latestRatingId })) return;
  const ticketRef = await findOrCreateTicket(db, { contactId: contact.id, whatsappId, isGroup, reopenWithinSeconds: settings.reopenWithinSeconds, active: contact.active });
  const quoted = message.quotedProviderId ? await messages.findMessageByProviderId(db, whatsappId, message.quotedProviderId) : undefined;
  const row = await messages.insertMessageRowOnce(db, {
    ticketId: ticketRef.id,
    whatsappId,
    providerId: message.providerId,
    contactId: message.fromMe ? null : (sender?.id ?? contact.id),
    body: storedBody(message),
    fromMe: message.fromMe,
    read: message.fromMe,
    ack: message.fromMe ? 1 : 0,
    mediaType: storedMediaType(message),
    mediaPath,
    mediaName,
    mediaSize,
    quotedMsgId: quoted?.id ?? null,
    createdAt: message.timestamp.toISOString(),
  });
  if (!row) {
    // A redelivery racing its first delivery, which another writer stored first.
    outbox.redelivered.push(message.providerId);
    return;
  }
  const now = nowIso();
  // The chatbot answers a waiting ticket before the queue menu; a message typed on the phone
  // itself stops it there.
  const bot = settings.bot && !isGroup ? settings.bot : undefined;
  const botTook = bot && !message.fromMe && ticketRef.userId === null ? await takeInbound(db, bot, ticketRef.id, storedBody(message), now) : false;
  if (bot && message.fromMe) await stopOnPhoneMessage(db, ticketRef.id, now);
  // The queue is decided with the message, in the same update, so that nobody hears of it
  // (and no list shows it) before its queue is known.
  const routing =
    !botTook && !message.fromMe && ticketRef.queueId === null && ticketRef.userId === null && !(isGroup && !settings.routesGroups)
      ? await routeToQueue(db, { ticketId: ticketRef.id, whatsappId, contactId: contact.id, queues: settings.queues }, message.body, ticketRef.created, settings)
      : undefined;
  const closedReply = await outOfHoursReply(db, { ticket: ticketRef, routedQueueId: routing?.queueId, whatsappId, contactId: contact.id, settings, message, botTook, now });
  await tickets.touchTicket(db, ticketRef.id, { lastMessage: lastMessageText(message), incoming: !message.fromMe, byPerson: true, queueId: routing?.queueId }, now);
  outbox.stored.push(row);
  if (routing?.reply.trim()) outbox.replies.push({ ticketId: ticketRef.id, body: routing.reply });
  if (closedReply.trim()) outbox.replies.push({ ticketId: ticketRef.id, body: closedReply });
}
