/**
 * Sends through a ticket's connection and stores what was sent: agent replies, greetings,
 * queue menus and farewells all take this one path.
 */
import type { MediaType } from '@zapdesk/shared/domain';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { ChatAddress, OutboundContent } from '../../channels/channel.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import { findTicketById, touchTicket } from '../tickets/tickets.repository.js';
import { saveMedia } from './media-store.js';
import { presentMessage } from './messages.presenter.js';
import { findMessageById, findMessageByProviderId, insertMessageOnce } from './messages.repository.js';

export function chatOf(ticket: TTicket): ChatAddress {
  return ticket.isGroup ? { kind: 'group', groupId: ticket.contact.number } : { kind: 'person', number: ticket.contact.number };
}

export type OutboundRequest = {
  ticket: TTicket;
  content: OutboundContent;
  quotedMsgId?: number | null;
};

function lastMessageText(content: OutboundContent): string {
  if (content.kind === 'text') return content.body;
  if (content.kind === 'voice') return '🎤 Audio';
  return content.caption || content.filename;
}

function mediaTypeOf(content: OutboundContent): MediaType | null {
  if (content.kind === 'text') return null;
  if (content.kind === 'voice') return 'audio';
  return content.mediaType;
}

export async function sendOnTicket(ctx: AppContext, sessions: SessionManager, request: OutboundRequest): Promise<number> {
  const { ticket, content } = request;
  const driver = sessions.requireDriver(ticket.whatsappId);
  const quoted = request.quotedMsgId ? await findMessageById(ctx.db, request.quotedMsgId) : undefined;
  if (request.quotedMsgId && (!quoted || quoted.ticketId !== ticket.id)) throw new AppError('ERR_VALIDATION', { message: 'The quoted message is not in this ticket.', fields: { quotedMsg: 'INVALID' } });

  let result;
  try {
    result = await driver.send(chatOf(ticket), content, quoted ? { quotedProviderId: quoted.providerId } : {});
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('ERR_SENDING_WAPP_MSG');
  }
  // A voice note keeps the container it was recorded in (Ogg from Firefox, WebM from Chromium):
  // no extension in the name, so the stored file's extension, and the type it is served with, follow its mimetype.
  const mediaPath = content.kind === 'text' ? null : await saveMedia(ctx, content.data, { mimetype: content.mimetype, filename: content.kind === 'media' ? content.filename : 'voice' });
  const now = nowIso();
  // The channel may already have echoed our own message back: the provider id keeps it one row.
  const insertedId = await insertMessageOnce(ctx.db, {
    ticketId: ticket.id,
    whatsappId: ticket.whatsappId,
    providerId: result.providerId,
    contactId: null,
    body: content.kind === 'text' ? content.body : content.kind === 'media' ? (content.caption ?? '') : '',
    fromMe: true,
    read: true,
    ack: 1,
    mediaType: mediaTypeOf(content),
    mediaPath,
    quotedMsgId: quoted?.id ?? null,
    createdAt: result.timestamp.toISOString(),
  });
  const row = insertedId ? await findMessageById(ctx.db, insertedId) : await findMessageByProviderId(ctx.db, ticket.whatsappId, result.providerId);
  if (!row) throw new AppError('ERR_CREATING_MESSAGE');
  await touchTicket(ctx.db, ticket.id, { lastMessage: lastMessageText(content), incoming: false }, now);
  const updated = await findTicketById(ctx.db, ticket.id);
  if (updated) {
    ctx.events.publish('message.saved', { message: await presentMessage(ctx, row), ticket: updated, created: insertedId !== undefined });
    ctx.events.publish('ticket.saved', { ticket: updated });
  }
  return row.id;
}
