/** Reactions on messages (migration 039): one per person per message. */
import type { Generated } from 'kysely';

type Bool = number;
type Timestamp = string;

export type MessageReactionsTable = {
  id: Generated<number>;
  messageId: number;
  /** Who reacted: 'me' for the connection's own phone, else the person's number (a group's member). */
  senderKey: string;
  senderName: string | null;
  fromMe: Bool;
  emoji: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
};

export type ReactionsTables = { messageReactions: MessageReactionsTable };
