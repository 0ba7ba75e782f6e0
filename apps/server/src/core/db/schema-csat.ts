/** Customer satisfaction (migration 037): one row per question asked after 'Resolver'. */
import type { Generated } from 'kysely';

type Timestamp = string;

export type TicketRatingsTable = {
  id: Generated<number>;
  ticketId: number;
  whatsappId: number;
  contactId: number;
  /** The agent who resolved the ticket; null when nobody was assigned. */
  userId: number | null;
  queueId: number | null;
  askedAt: Timestamp;
  /** 1–5; null until the customer answers. */
  score: Generated<number | null>;
  answeredAt: Generated<Timestamp | null>;
  comment: Generated<string | null>;
  commentAt: Generated<Timestamp | null>;
  /** Set when the customer wrote something else instead, or too late: the question no longer takes an answer. */
  expiredAt: Generated<Timestamp | null>;
};

export type CsatTables = { ticketRatings: TicketRatingsTable };
