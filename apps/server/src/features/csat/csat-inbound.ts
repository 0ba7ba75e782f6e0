/**
 * The customer's reply to the satisfaction question, read before the inbound pipeline chooses a
 * ticket. An answer (see rating-parser.ts) and the comment that follows it are stored with the
 * closed ticket, in its history, and never reopen it nor open a new one. Anything else makes the
 * question expire and goes on as any message does.
 */
import { asCsatLanguage, CSAT_ANSWER_WINDOW_MS, CSAT_COMMENT_MAX_LENGTH, CSAT_COMMENT_WINDOW_MS, CSAT_THANKS } from '@zapdesk/shared/csat';
import type { InboundMessage } from '../../channels/channel.js';
import type { Db } from '../../core/db/database.js';
import { nowIso } from '../../core/time.js';
import * as messages from '../messages/messages.repository.js';
import * as tickets from '../tickets/tickets.repository.js';
import * as repo from './csat.repository.js';
import { parseRating } from './rating-parser.js';

/** What the inbound batch announces once committed: the stored message, and the thank-you to send. */
type Announcements = { stored: messages.MessageRow[]; replies: { ticketId: number; body: string }[] };

/** `latestRatingId`: the contact's latest question on the connection as the caller read it in this transaction (null: none). */
type Reply = { whatsappId: number; contactId: number; message: InboundMessage; outbox: Announcements; latestRatingId?: number | null };

/** Answers true when the message was the answer or its comment (stored here); false: the pipeline goes on as usual. */
export async function takeRatingReply(db: Db, reply: Reply): Promise<boolean> {
  const { message, contactId, whatsappId } = reply;
  if (message.fromMe || message.chat.kind === 'group') return false;
  if (reply.latestRatingId === null) return false;
  const rating = reply.latestRatingId === undefined ? await repo.findLatestRating(db, contactId, whatsappId) : await repo.findRatingById(db, reply.latestRatingId);
  // Questions of another day are left alone (an unanswered one expires below, on this message).
  if (!rating || rating.expiredAt !== null || (rating.score !== null && Date.now() - Date.parse(rating.askedAt) >= CSAT_ANSWER_WINDOW_MS + CSAT_COMMENT_WINDOW_MS)) return false;
  // A redelivered answer or comment was taken already: it must not reopen the ticket now.
  if ((await messages.findMessageByProviderId(db, whatsappId, message.providerId))?.ticketId === rating.ticketId) return true;
  const now = nowIso();
  const waiting = rating.score === null;
  if (!waiting && (rating.comment !== null || rating.answeredAt === null || Date.now() - Date.parse(rating.answeredAt) >= CSAT_COMMENT_WINDOW_MS)) return false;
  const text = message.media || message.location || message.vcard ? '' : message.body.trim();
  const parsed = waiting && text ? parseRating(text) : undefined;
  // Too late, not an answer, or the conversation went on meanwhile (reopened, or a new ticket).
  const late = waiting && Date.now() - Date.parse(rating.askedAt) >= CSAT_ANSWER_WINDOW_MS;
  if (late || (waiting && !parsed) || (!waiting && !text) || (await tickets.findActiveTicket(db, contactId, whatsappId))) {
    if (waiting) await repo.expireRating(db, rating.id, now);
    return false;
  }
  const row = await storeOnClosedTicket(db, { ...reply, ticketId: rating.ticketId, body: text }, now);
  if (!row) return true; // a redelivery: the first delivery was taken already
  reply.outbox.stored.push(row);
  if (parsed) {
    const comment = parsed.comment === null ? null : parsed.comment.slice(0, CSAT_COMMENT_MAX_LENGTH);
    if (!(await repo.answerRating(db, rating.id, { score: parsed.score, at: now, comment }))) return true;
    const settings = await repo.findCsatSettings(db, whatsappId);
    const thanks = CSAT_THANKS[asCsatLanguage(settings?.csatLanguage ?? 'pt')];
    reply.outbox.replies.push({ ticketId: rating.ticketId, body: comment === null ? thanks.withoutComment : thanks.withComment });
  } else await repo.commentRating(db, rating.id, { text: text.slice(0, CSAT_COMMENT_MAX_LENGTH), at: now });
  return true;
}

/** The reply joins the closed ticket's history, already read (nobody has to act on it), without reopening it. */
async function storeOnClosedTicket(db: Db, options: Reply & { ticketId: number; body: string }, now: string): Promise<messages.MessageRow | undefined> {
  const { message, whatsappId, ticketId, body } = options;
  const quoted = message.quotedProviderId ? await messages.findMessageByProviderId(db, whatsappId, message.quotedProviderId) : undefined;
  const row = await messages.insertMessageRowOnce(db, {
    ticketId,
    whatsappId,
    providerId: message.providerId,
    contactId: options.contactId,
    body,
    fromMe: false,
    read: true,
    ack: 0,
    mediaType: null,
    mediaPath: null,
    quotedMsgId: quoted?.ticketId === ticketId ? quoted.id : null,
    createdAt: message.timestamp.toISOString(),
  });
  if (row) await tickets.touchTicket(db, ticketId, { lastMessage: body, incoming: false, byPerson: true }, now);
  return row;
}
