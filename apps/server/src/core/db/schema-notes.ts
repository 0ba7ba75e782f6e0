/** Table types of private notes and mentions (migration 034). Notes are rows of `messages` with `isNote` = 1. */
import type { Generated } from 'kysely';

type Timestamp = string;

/** A colleague mentioned in a note: told, and may open the ticket while the mention is open. */
export type MentionsTable = {
  id: Generated<number>;
  messageId: number;
  ticketId: number;
  /** The colleague mentioned. */
  userId: number;
  /** Who wrote the note; null once that user is deleted. */
  byUserId: number | null;
  createdAt: Timestamp;
  /** When the colleague first opened it from the list or the bell. */
  readAt: Timestamp | null;
  /** When it ended: marked done by the colleague, or the ticket resolved. */
  closedAt: Timestamp | null;
};

export type NotesTables = { mentions: MentionsTable };
