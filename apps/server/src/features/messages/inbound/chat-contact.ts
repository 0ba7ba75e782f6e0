/** Step: the contact of a chat (a person, or a group and its writer), created on first sight. */
import type { InboundMessage } from '../../../channels/channel.js';
import type { Db } from '../../../core/db/database.js';
import { nowIso } from '../../../core/time.js';
import { findContactByNumber, insertChatContactIfAbsent, nameUnnamedContact } from '../../contacts/contacts.repository.js';
import type { Outbox } from './batch-outbox.js';
import { readChatState, type ChatState } from './chat-state.repository.js';

type Seen = Pick<InboundMessage, 'chat' | 'fromMe' | 'sender' | 'group'>;

/** The contact of a chat: the person, or the group itself. Created on first sight. */
export async function upsertChatContact(db: Db, message: Seen, outbox: Pick<Outbox, 'contacts'>): Promise<{ id: number; name: string; created: boolean }> {
  return upsert<{ id: number; name: string }>(db, message, outbox, (number) => findContactByNumber(db, number), {});
}

/**
 * As upsertChatContact, with what the pipeline reads of the chat on the connection in the same
 * statement (chat-state.repository.ts): a contact seen for the first time has neither a ticket
 * nor a satisfaction question.
 */
export async function upsertChatContactWithState(db: Db, message: Seen, outbox: Pick<Outbox, 'contacts'>, whatsappId: number): Promise<ChatState & { created: boolean }> {
  return upsert<ChatState>(db, message, outbox, (number) => readChatState(db, number, whatsappId), { active: null, latestRatingId: null });
}

async function upsert<T extends { id: number; name: string }>(
  db: Db,
  message: Seen,
  outbox: Pick<Outbox, 'contacts'>,
  find: (number: string) => Promise<T | undefined>,
  unseen: Omit<T, 'id' | 'name'>,
): Promise<T & { created: boolean }> {
  const isGroup = message.chat.kind === 'group';
  const number = message.chat.kind === 'group' ? message.chat.groupId : message.chat.number;
  const name = (isGroup ? message.group?.subject : message.fromMe ? undefined : message.sender?.name)?.trim() || undefined;
  const existing = await find(number);
  const now = nowIso();
  if (existing) {
    // A contact still named by its number takes the name the person gave themself.
    if (name && existing.name === number && (await nameUnnamedContact(db, existing.id, name, now))) {
      if (!outbox.contacts.has(existing.id)) outbox.contacts.set(existing.id, false);
      return { ...existing, name, created: false };
    }
    return { ...existing, created: false };
  }
  const contactName = name ?? number;
  const inserted = await insertChatContactIfAbsent(db, { name: contactName, number, isGroup }, now);
  if (inserted !== undefined) {
    outbox.contacts.set(inserted, true);
    return { ...(unseen as T), id: inserted, name: contactName, created: true };
  }
  const raced = await find(number);
  if (!raced) throw new Error(`contact ${number} vanished while being created`);
  return { ...raced, created: false };
}

/** The sender inside a group: a contact of their own, so messages show who wrote. */
export async function upsertSender(db: Db, message: InboundMessage, outbox: Outbox): Promise<{ id: number; name: string } | null> {
  if (message.chat.kind !== 'group' || message.fromMe || !message.sender) return null;
  const { id, name } = await upsertChatContact(db, { ...message, chat: { kind: 'person', number: message.sender.number }, group: undefined }, outbox);
  return { id, name };
}
