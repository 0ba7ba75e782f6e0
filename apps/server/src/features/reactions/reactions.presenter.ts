import type { TMessageReaction } from '@zapdesk/shared/reactions';
import type { Db } from '../../core/db/database.js';
import { reactionsOfMessages } from './reactions.repository.js';

/** The reactions on each of these messages, as a message carries them. */
export async function reactionsByMessage(db: Db, rows: readonly { id: number }[]): Promise<Map<number, TMessageReaction[]>> {
  const byMessage = new Map<number, TMessageReaction[]>();
  for (const r of await reactionsOfMessages(
    db,
    rows.map((row) => row.id),
  )) {
    const list = byMessage.get(r.messageId) ?? [];
    list.push({ emoji: r.emoji, fromMe: r.fromMe, ...(r.senderName ? { senderName: r.senderName } : {}) });
    byMessage.set(r.messageId, list);
  }
  return byMessage;
}
