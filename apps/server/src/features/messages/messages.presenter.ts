import type { TMessage } from '@zapdesk/shared/messaging';
import type { TMessageReaction } from '@zapdesk/shared/reactions';
import type { AppContext } from '../../core/context.js';
import { signedMediaUrl } from './media-store.js';
import { contactNamesByIds } from '../contacts/contacts.repository.js';
import { findTicketById } from '../tickets/tickets.repository.js';
import { reactionsByMessage } from '../reactions/reactions.presenter.js';
import { userNamesByIds } from '../notes/notes.repository.js';
import { findMessageById, findMessagesByIds, type MessageRow } from './messages.repository.js';

/** What messages refer to: the messages they quote, the names of their senders (notes: their authors), the reactions on them. */
export type MessageRefs = {
  quoted: ReadonlyMap<number, MessageRow>;
  contacts: ReadonlyMap<number, { id: number; name: string }>;
  reactions: ReadonlyMap<number, TMessageReaction[]>;
  authors?: ReadonlyMap<number, { id: number; name: string }>;
};

export async function loadMessageRefs(ctx: AppContext, rows: readonly MessageRow[]): Promise<MessageRefs> {
  const quoted = await quotedOf(ctx, rows);
  const contactIds = [...new Set([...rows, ...quoted.values()].flatMap((r) => (r.contactId ? [r.contactId] : [])))];
  const authorIds = [...new Set(rows.flatMap((r) => (r.isNote && r.userId ? [r.userId] : [])))];
  return { quoted, contacts: await contactNamesByIds(ctx.db, contactIds), reactions: await reactionsByMessage(ctx.db, rows), authors: await userNamesByIds(ctx.db, authorIds) };
}

async function quotedOf(ctx: AppContext, rows: readonly MessageRow[]): Promise<Map<number, MessageRow>> {
  return new Map((await findMessagesByIds(ctx.db, [...new Set(rows.flatMap((r) => (r.quotedMsgId ? [r.quotedMsgId] : [])))])).map((q) => [q.id, q]));
}

/**
 * Inbound messages a batch has just stored, with the names of the contacts it wrote for (`names`):
 * only the senders of quoted messages are read. No reaction can be on them yet: a reaction to a
 * message of a batch is handled after the batch is announced (session-events.ts).
 */
export async function presentNewMessages(ctx: AppContext, rows: readonly MessageRow[], names: ReadonlyMap<number, string>): Promise<TMessage[]> {
  const quoted = await quotedOf(ctx, rows);
  const contacts = new Map([...names].map(([id, name]) => [id, { id, name }]));
  const unknown = [...new Set([...rows, ...quoted.values()].flatMap((r) => (r.contactId && !contacts.has(r.contactId) ? [r.contactId] : [])))];
  for (const [id, contact] of await contactNamesByIds(ctx.db, unknown)) contacts.set(id, contact);
  return presentWithRefs(ctx, rows, { quoted, contacts, reactions: new Map() });
}

/** Shapes stored messages for the API: quoted block, sender name and a signed media address. */
export async function presentMessages(ctx: AppContext, rows: readonly MessageRow[]): Promise<TMessage[]> {
  return presentWithRefs(ctx, rows, await loadMessageRefs(ctx, rows));
}

/** As presentMessages, with what they refer to already read (media addresses are signed now). */
export function presentWithRefs(ctx: AppContext, rows: readonly MessageRow[], { quoted, contacts, reactions, authors }: MessageRefs): TMessage[] {
  return rows.map((r) => {
    const q = r.quotedMsgId ? quoted.get(r.quotedMsgId) : undefined;
    const contact = r.contactId ? contacts.get(r.contactId) : undefined;
    const quotedContact = q?.contactId ? contacts.get(q.contactId) : undefined;
    return {
      id: r.id,
      ticketId: r.ticketId,
      body: r.isDeleted ? '' : r.body,
      fromMe: r.fromMe,
      read: r.read,
      ack: r.ack,
      isDeleted: r.isDeleted,
      fromBot: r.fromBot,
      isEdited: r.isEdited && !r.isDeleted,
      sendStatus: r.sendStatus,
      sendError: r.sendError,
      mediaType: r.mediaType,
      mediaUrl: r.mediaPath && !r.isDeleted ? signedMediaUrl(ctx, r.id, Date.now(), r.mediaName) : null,
      mediaName: r.isDeleted ? null : r.mediaName,
      mediaSize: r.isDeleted ? null : r.mediaSize,
      quotedMsg: q ? { id: q.id, body: q.isDeleted ? '' : q.body, fromMe: q.fromMe, contact: quotedContact ? { name: quotedContact.name } : null } : null,
      contact: contact ? { id: contact.id, name: contact.name } : null,
      reactions: r.isDeleted ? [] : (reactions.get(r.id) ?? []),
      ...(r.isNote ? { isNote: true, noteAuthor: (r.userId && authors?.get(r.userId)) || null } : {}),
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
  });
}

export async function presentMessage(ctx: AppContext, row: MessageRow): Promise<TMessage> {
  const [message] = await presentMessages(ctx, [row]);
  if (!message) throw new Error('message vanished while presenting');
  return message;
}

/** Tells whoever shows the message that it changed (ack, edit, deletion, send state). */
export async function publishMessageUpdate(ctx: AppContext, messageId: number): Promise<void> {
  const row = await findMessageById(ctx.db, messageId);
  const ticket = row ? await findTicketById(ctx.db, row.ticketId) : undefined;
  if (row && ticket) ctx.events.publish('message.saved', { message: await presentMessage(ctx, row), ticket, created: false });
}
