import fs from 'node:fs';
import path from 'node:path';
import { LIMITS, mediaTypeOfMime } from '@zapdesk/shared/domain';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { memoUntilWrite } from '../../core/db/read-cache.js';
import { pageWindow } from '../../core/db/sql-helpers.js';
import { nowIso } from '../../core/time.js';
import { findTicketById } from '../tickets/tickets.repository.js';
import { canReadTicket, canSeeTicket, getVisibleTicket } from '../tickets/tickets.service.js';
import type { AuthUser } from '../users/users.repository.js';
import { mediaFile, mimetypeOf, verifyMediaSignature } from './media-store.js';
import type { ReplyContent } from './message-file.js';
import { mediaFromUrl } from './media-url.js';
import { m4aVariant } from './audio-variant.js';
import { loadMessageRefs, presentMessages, presentWithRefs, publishMessageUpdate } from './messages.presenter.js';
import * as repo from './messages.repository.js';
import { chatOf, retryMessage, sendOnTicket } from './outbound.service.js';
import { readsTicket, readTicket } from './read-receipts.service.js';
import { webmOpusToOgg } from './webm-to-ogg.js';

/**
 * Newest page first; within a page, oldest first (the order the chat shows). Opening reads the
 * ticket only for its agent: a pending ticket opened without accepting it ('Spy'), or another
 * agent's ticket opened by an admin, stays unread for whoever works on it.
 */
export async function listMessages(
  ctx: AppContext,
  sessions: SessionManager,
  actor: AuthUser,
  ticketId: number,
  pageNumber: number,
  withNotes = false,
): Promise<{ messages: TMessage[]; count: number; hasMore: boolean; ticket: TTicket }> {
  const { limit, offset } = pageWindow(pageNumber, LIMITS.messagesPageSize);
  // The ticket, the page and what its messages refer to, read together and again only after a
  // write: an open chat is asked for over and over. Media addresses are signed per request.
  const view = await memoUntilWrite(ctx.db, `messages.view:${ticketId}:${limit}:${offset}:${withNotes ? 'notes' : ''}`, async () => {
    const found = await findTicketById(ctx.db, ticketId);
    if (!found) return null;
    const page = await repo.listTicketMessages(ctx.db, ticketId, { limit, offset, withNotes });
    return { ticket: found, ...page, refs: await loadMessageRefs(ctx, page.rows) };
  });
  // A ticket the user may not read answers as one that does not exist (see getReadableTicket).
  if (!view || !(await canReadTicket(ctx, actor, view.ticket))) throw new AppError('ERR_NO_TICKET_FOUND');
  let ticket = view.ticket;
  if (readsTicket(actor, ticket) && (await readTicket(ctx, sessions, ticket))) {
    ticket = (await findTicketById(ctx.db, ticketId)) ?? ticket;
    ctx.events.publish('ticket.read', { ticket });
    ctx.events.publish('ticket.saved', { ticket });
  }
  const messages = presentWithRefs(ctx, [...view.rows].reverse(), view.refs);
  return { messages, count: view.count, hasMore: view.count > offset + view.rows.length, ticket };
}

/** A file of a chat message, as uploaded: a temporary file on disk. */
export type UploadedMedia = { path: string; size: number; mimetype: string; filename: string };

/**
 * A recorded voice note. Chromium records WebM; phones play voice notes as Ogg Opus only, so a
 * WebM recording with Opus inside is moved into Ogg (same packets, no decoding). Anything else
 * is sent as recorded.
 */
async function voiceNote(media: UploadedMedia): Promise<ReplyContent> {
  // A recording is small: read whole to be rewrapped; anything else stays on disk.
  const ogg = media.mimetype.startsWith('audio/webm') ? webmOpusToOgg(await fs.promises.readFile(media.path)) : null;
  return ogg ? { kind: 'voice', data: ogg, mimetype: 'audio/ogg; codecs=opus' } : { kind: 'voice', staged: media, mimetype: media.mimetype };
}

export async function sendMessage(
  ctx: AppContext,
  sessions: SessionManager,
  actor: AuthUser,
  ticketId: number,
  input: { body: string; quotedMsgId?: number | null | undefined; medias?: UploadedMedia[]; mediaUrl?: string | undefined },
): Promise<TMessage[]> {
  const ticket = await getVisibleTicket(ctx, actor, ticketId);
  if (ticket.status !== 'open') throw new AppError('ERR_TICKET_NOT_OPEN');
  const { mediaUrl } = input;
  const contents: (() => Promise<ReplyContent>)[] = mediaUrl
    ? [() => mediaFromUrl(ctx, mediaUrl, input.body)]
    : input.medias?.length
      ? input.medias.map((m, i) =>
          m.mimetype.startsWith('audio/') && m.filename.startsWith('audio-record')
            ? () => voiceNote(m)
            : async () => ({
                kind: 'media',
                mediaType: mediaTypeOfMime(m.mimetype),
                staged: m,
                mimetype: m.mimetype,
                filename: m.filename,
                ...(i === 0 && input.body.trim() ? { caption: input.body } : {}),
              }),
        )
      : [async () => ({ kind: 'text', body: input.body })];
  const ids: number[] = [];
  // One file at a time: a voice note is read only when its turn comes.
  for (const next of contents) ids.push(await sendOnTicket(ctx, sessions, { ticket, content: await next(), quotedMsgId: input.quotedMsgId ?? null, userId: actor.id }));
  return presentMessages(ctx, await repo.findMessagesByIds(ctx.db, ids));
}

/** A message of a ticket the user may see; any other answers as a message that does not exist. */
async function getVisibleMessage(ctx: AppContext, actor: AuthUser, messageId: number) {
  const row = await repo.findMessageById(ctx.db, messageId);
  const ticket = row ? await findTicketById(ctx.db, row.ticketId) : undefined;
  if (!row || !ticket || !(await canSeeTicket(ctx, actor, ticket))) throw new AppError('ERR_NO_MESSAGE_FOUND');
  return { row, ticket };
}

/** Only one's own messages can be deleted, for everyone. */
export async function deleteMessage(ctx: AppContext, sessions: SessionManager, actor: AuthUser, messageId: number): Promise<void> {
  const { row, ticket } = await getVisibleMessage(ctx, actor, messageId);
  if (!row.fromMe || (row.isNote && row.userId !== actor.id)) throw new AppError('ERR_NO_PERMISSION');
  if (row.isDeleted) return;
  // A note was never on the phone: it is deleted here only.
  if (!row.isNote)
    try {
      await (await sessions.require(ticket.whatsappId)).deleteForEveryone(chatOf(ticket), row.providerId, true);
    } catch (error) {
      if (error instanceof AppError && error.code === 'ERR_WAPP_NOT_INITIALIZED') throw error;
      throw new AppError('ERR_DELETE_WAPP_MSG');
    }
  await repo.updateMessage(ctx.db, messageId, { isDeleted: true }, nowIso());
  await publishMessageUpdate(ctx, messageId);
}

/** Sends again an own message whose send failed, on an open ticket the caller may see. */
export async function retrySend(ctx: AppContext, sessions: SessionManager, actor: AuthUser, messageId: number): Promise<TMessage> {
  const { row, ticket } = await getVisibleMessage(ctx, actor, messageId);
  if (!row.fromMe || row.sendStatus !== 'failed') throw new AppError('ERR_MESSAGE_NOT_FAILED');
  if (ticket.status !== 'open') throw new AppError('ERR_TICKET_NOT_OPEN');
  const outcome = await retryMessage(ctx, sessions, messageId, chatOf(ticket));
  if (outcome.status === 'failed') throw new AppError(outcome.error);
  const [message] = await presentMessages(ctx, await repo.findMessagesByIds(ctx.db, [messageId]));
  if (!message) throw new AppError('ERR_NO_MESSAGE_FOUND');
  return message;
}

/**
 * The stored file of a message, for its signed address (`<img>` and `<audio>` cannot send a
 * bearer header): pictures, sound and video show in the page, anything else is a download.
 */
export async function mediaOfMessage(
  ctx: AppContext,
  messageId: number,
  signed: { expires: number; signature: string; format?: 'm4a' | undefined },
): Promise<{ file: string; name: string; type: string; inline: boolean }> {
  if (!verifyMediaSignature(ctx, messageId, signed.expires, signed.signature)) throw new AppError('ERR_NO_PERMISSION', { message: 'This media address is invalid or expired.' });
  const row = await repo.findMessageById(ctx.db, messageId);
  const file = row?.mediaPath && !row.isDeleted ? mediaFile(ctx, row.mediaPath) : undefined;
  if (!file || !fs.existsSync(file)) throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA');
  // Downloaded under the file's own name where it is known ('contrato.pdf'), not the stored one.
  const stored = { file, name: row?.mediaName || path.basename(file), type: mimetypeOf(file) };
  const served = signed.format === 'm4a' ? await m4aVariant(ctx, stored) : stored;
  return { ...served, inline: /^(image|audio|video)\//.test(served.type) && served.type !== 'image/svg+xml' };
}
