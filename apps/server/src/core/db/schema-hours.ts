/** Tables of business hours (migration 035). Timestamps ISO strings, as in schema.ts. */

/** Opening hours of one queue, or the default ones (queueId null; at most one such row). */
export type BusinessHoursTable = {
  queueId: number | null;
  timezone: string;
  /** JSON: 7 arrays (Sunday first) of { from, to } 'HH:MM' ranges. */
  week: string;
  /** JSON: 'YYYY-MM-DD' local dates closed all day. */
  holidays: string;
  /** Sent to a customer who writes outside the hours; '' = the default's (or none). */
  outOfHoursMessage: string;
  updatedAt: string;
};

/** The out-of-hours reply a ticket got: one row per ticket, so it is sent once per conversation. */
export type OutOfHoursRepliesTable = { ticketId: number; sentAt: string };

export type HoursTables = { businessHours: BusinessHoursTable; outOfHoursReplies: OutOfHoursRepliesTable };
