/** Reactions on messages: one row per person and message. */
import type { Db } from '../../core/db/database.js';
import { bool } from '../../core/db/sql-helpers.js';

/** The connection's own phone, as the reacting person. */
export const OWN_PHONE = 'me';

export type ReactionWrite = { messageId: number; senderKey: string; senderName: string | null; fromMe: boolean; emoji: string };

/** Sets a person's reaction on a message, replacing the one they had. */
export async function saveReaction(db: Db, reaction: ReactionWrite, now: string): Promise<void> {
  const { messageId, senderKey, senderName, fromMe, emoji } = reaction;
  await db
    .insertInto('messageReactions')
    .values({ messageId, senderKey, senderName, fromMe: fromMe ? 1 : 0, emoji, createdAt: now, updatedAt: now })
    .onConflict((oc) => oc.columns(['messageId', 'senderKey']).doUpdateSet({ emoji, updatedAt: now, ...(senderName ? { senderName } : {}) }))
    .execute();
}

/** Takes a person's reaction away; whether there was one. */
export async function deleteReaction(db: Db, messageId: number, senderKey: string): Promise<boolean> {
  const result = await db.deleteFrom('messageReactions').where('messageId', '=', messageId).where('senderKey', '=', senderKey).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export type ReactionRow = { messageId: number; emoji: string; fromMe: boolean; senderName: string | null };

/**
 * The reactions on these messages, oldest first. The name is the contact's as the inbox knows it
 * now (renamed since, the new name), else the one the network gave with the reaction.
 */
export async function reactionsOfMessages(db: Db, messageIds: readonly number[]): Promise<ReactionRow[]> {
  if (messageIds.length === 0) return [];
  const rows = await db
    .selectFrom('messageReactions as r')
    .leftJoin('contacts as c', (j) => j.onRef('c.number', '=', 'r.senderKey').on('r.fromMe', '=', 0))
    .select(['r.messageId', 'r.emoji', 'r.fromMe', 'r.senderName', 'c.name as contactName'])
    .where('r.messageId', 'in', [...messageIds])
    .orderBy('r.createdAt')
    .orderBy('r.id')
    .execute();
  return rows.map((r) => ({ messageId: r.messageId, emoji: r.emoji, fromMe: bool(r.fromMe), senderName: r.contactName ?? r.senderName }));
}
