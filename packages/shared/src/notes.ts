/**
 * Private notes and mentions. A note is a message of the team inside a ticket's chat, never sent
 * to the contact; `@name` in a note mentions colleagues, who are told and may open the ticket
 * while their mention is open (until they mark it done or the ticket is resolved).
 */
import { z } from 'zod';
import { ZIdValue } from './schemas.js';

/** The longest note, as a message's text. */
export const NOTE_MAX_LENGTH = 30000;
/** The most colleagues one note may mention. */
export const MENTIONS_PER_NOTE = 20;
export const MENTIONS_PAGE_SIZE = 40;

const noNul = (value: string) => !value.includes('\u0000');

/** POST /tickets/:ticketId/notes */
export const ZNoteCreateSchema = z.object({
  body: z
    .string('INVALID')
    .max(NOTE_MAX_LENGTH, 'TOO_LONG')
    .refine(noNul, 'INVALID')
    .refine((value) => value.trim().length > 0, 'REQUIRED'),
  mentionUserIds: z.array(ZIdValue, 'INVALID').max(MENTIONS_PER_NOTE, 'TOO_LONG').optional().default([]),
});
export type TNoteCreate = z.infer<typeof ZNoteCreateSchema>;

export const MENTION_STATES = ['open', 'done'] as const;
export type MentionState = (typeof MENTION_STATES)[number];

/** One mention as its colleague sees it: who, where, the note's text, and whether it is still open. */
export const ZMentionSchema = z.object({
  id: z.number(),
  ticketId: z.number(),
  messageId: z.number(),
  body: z.string(),
  by: z.object({ id: z.number(), name: z.string() }).nullable(),
  contact: z.object({ name: z.string(), profilePicUrl: z.string() }),
  /** Still open: the colleague may open the ticket (not done, ticket not resolved). */
  open: z.boolean(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
  closedAt: z.string().nullable(),
});
export type TMention = z.infer<typeof ZMentionSchema>;

/** GET /mentions: the user's mentions, newest first; `unread`: open ones not yet seen (the bell's count). */
export const ZMentionListSchema = z.object({ mentions: z.array(ZMentionSchema), count: z.number(), unread: z.number(), hasMore: z.boolean() });
export const ZMentionListQuerySchema = z.object({
  state: z.enum(MENTION_STATES, 'INVALID').optional().default('open'),
  pageNumber: z.coerce.number('INVALID').int('INVALID').min(1, 'INVALID').max(100000, 'INVALID').optional().default(1),
});
export type TMentionListQuery = z.infer<typeof ZMentionListQuerySchema>;

/** Socket `mention` (to the mentioned user's sockets only): created, read or done. */
export type TMentionEvent = { action: 'create' | 'update'; mention: TMention };
