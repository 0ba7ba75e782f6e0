/** Schemas of connections, tickets, messages and the dashboard (the simulator's control API: simulator.ts). */
import { z } from 'zod';
import { CHANNELS, MAX_ID, MEDIA_TYPES, SEND_STATUSES, TICKET_STATUSES } from './domain.js';
import { ZInstagramConfigInputSchema } from './instagram.js';
import { ZMessageReactionSchema } from './reactions.js';
import { hasNoNul as noNul, required, requiredText, ZContactSchema, ZIdValue, ZLabelRefSchema, ZQueueRefSchema } from './schemas.js';
import { ZLabelFilter } from './labels.js';

export const ZLongText = z.string('INVALID').max(30000, 'TOO_LONG').refine(noNul, 'INVALID');

// ---------- connections ----------
export const ZWhatsappInputSchema = z.object({
  name: requiredText(2, 50),
  isDefault: z.boolean('INVALID').optional().default(false),
  greetingMessage: ZLongText.optional().default(''),
  farewellMessage: ZLongText.optional().default(''),
  queueIds: z.array(ZIdValue, 'INVALID').max(100, 'TOO_LONG').optional().default([]),
  channel: z.enum(CHANNELS, 'INVALID').optional().default('whatsapp'),
  /** An Instagram connection's account and secrets (required when adding one). */
  instagram: ZInstagramConfigInputSchema.optional(),
});
export type TWhatsappInput = z.input<typeof ZWhatsappInputSchema>;

export const ZPairingCodeRequestSchema = z.object({
  phoneNumber: z
    .string(required)
    .trim()
    .regex(/^\d{8,20}$/, 'DIGITS_ONLY'),
});

// ---------- tickets ----------
export const ZTicketSchema = z.object({
  id: z.number(),
  status: z.enum(TICKET_STATUSES),
  userId: z.number().nullable(),
  queueId: z.number().nullable(),
  whatsappId: z.number(),
  contactId: z.number(),
  lastMessage: z.string(),
  /**
   * The list line: the last message a person wrote (the customer, or an agent), never the
   * product's automatic ones (greeting, queue menu, chatbot, farewell, notices), or `lastMessage`
   * while there is none. `lastMessage` stays the last message of all, as whaticket's clients read it.
   */
  preview: z.string(),
  /** Search results only: the words of the matching message, around the first match. */
  match: z.string().optional(),
  unreadMessages: z.number(),
  isGroup: z.boolean(),
  /** The chatbot answers this waiting ticket now. */
  chatbot: z.boolean(),
  contact: ZContactSchema,
  queue: ZQueueRefSchema.nullable(),
  /** The ticket's own labels (the contact's are on `contact.labels`). */
  labels: z.array(ZLabelRefSchema),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** The connection, and its channel (a contact's number is an Instagram id on Instagram). */
  whatsapp: z.object({ id: z.number(), name: z.string(), channel: z.enum(CHANNELS) }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TTicket = z.infer<typeof ZTicketSchema>;

const ZFlag = z.enum(['true', 'false'], 'INVALID');

/** An ISO 8601 date-time with its offset, as `Date.prototype.toISOString` writes it. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const pad = (n: number) => String(n).padStart(2, '0');
/** The local calendar day (YYYY-MM-DD) an instant falls on, or undefined for no instant. */
function localDayOf(isoDateTime: string): string | undefined {
  const at = new Date(isoDateTime);
  if (Number.isNaN(at.getTime())) return undefined;
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}
function isCalendarDay(value: string): boolean {
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(year, month - 1, day);
  return date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day;
}

export const ZTicketListQuerySchema = z.object({
  pageNumber: z.coerce.number('INVALID').int('INVALID').min(1, 'INVALID').max(100000, 'INVALID').optional().default(1),
  status: z.enum(TICKET_STATUSES, 'INVALID').optional(),
  /** Admins only: every ticket, assigned to anyone. */
  showAll: ZFlag.optional().default('false'),
  /** Contact name or number, or words of a message; accents and case ignored. */
  searchParam: z.string('INVALID').trim().max(100, 'TOO_LONG').refine(noNul, 'INVALID').optional().default(''),
  /** A JSON list of queue ids, as the web app sends it: `[1,2]`. Tickets without a queue always show. */
  queueIds: z
    .string('INVALID')
    .max(2000, 'TOO_LONG')
    .transform((raw, ctx) => {
      try {
        const parsed: unknown = JSON.parse(raw);
        const ids = z.array(ZIdValue).parse(parsed);
        return ids;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'INVALID' });
        return z.NEVER;
      }
    })
    .optional(),
  withUnreadMessages: ZFlag.optional().default('false'),
  /** Tickets that carry any of these labels (see ZLabelFilter). */
  labelIds: ZLabelFilter.optional(),
  /** The Group tab: 'true' group tickets only, 'false' private ones only; absent both. */
  isGroup: ZFlag.optional(),
  /**
   * Tickets created on this day (YYYY-MM-DD, the server's time zone). whaticket's dashboard sends
   * an ISO date-time (`new Date().toISOString()`): the day that instant falls on here, as its
   * server reads it.
   */
  date: z
    .string('INVALID')
    .max(40, 'INVALID')
    .transform((value, ctx) => {
      const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : ISO_DATE_TIME.test(value) ? localDayOf(value) : undefined;
      if (day && isCalendarDay(day)) return day;
      ctx.addIssue({ code: 'custom', message: 'INVALID' });
      return z.NEVER;
    })
    .optional(),
});
export type TTicketListQuery = z.infer<typeof ZTicketListQuerySchema>;
/** PUT /tickets/{id}: a status change, or a transfer to a user, queue and/or connection. */
export const ZTicketUpdateSchema = z
  .object({
    status: z.enum(TICKET_STATUSES, 'INVALID').optional(),
    userId: ZIdValue.nullable().optional(),
    queueId: ZIdValue.nullable().optional(),
    /** whaticket's transfer forms send `false` or `''` for 'no connection chosen': no move. */
    whatsappId: z.preprocess((v) => (v === false || v === '' ? undefined : v), ZIdValue.optional()),
  })
  .refine((v) => v.status !== undefined || v.userId !== undefined || v.queueId !== undefined || v.whatsappId !== undefined, { message: 'REQUIRED', path: ['status'] });
export type TTicketUpdate = z.infer<typeof ZTicketUpdateSchema>;

/**
 * POST /tickets: for a contact picked from the list (`contactId`), or for the person with an
 * exact number (`number`, as typed: 'Novo ticket' for a customer of another queue). `queueId`:
 * one of the opener's queues (any queue for an admin).
 */
export const ZTicketCreateSchema = z
  .object({
    contactId: ZIdValue.optional(),
    number: z.string('INVALID').trim().min(1, 'REQUIRED').max(60, 'TOO_LONG').optional(),
    /** Ignored: a new ticket belongs to whoever opens it. */
    userId: ZIdValue.nullable().optional(),
    status: z.enum(TICKET_STATUSES, 'INVALID').optional(),
    whatsappId: ZIdValue.optional(),
    queueId: ZIdValue.nullable().optional(),
  })
  .refine((v) => (v.contactId === undefined) !== (v.number === undefined), { message: 'REQUIRED', path: ['contactId'] });

/**
 * A page of tickets. A search counts its tickets exactly up to LIMITS.searchCountCap: past that,
 * `count` is the cap and `countIsAtLeast` is true (shown as '1.000+'); the field is absent otherwise.
 */
export const ZTicketListSchema = z.object({ tickets: z.array(ZTicketSchema), count: z.number(), countIsAtLeast: z.literal(true).optional(), hasMore: z.boolean() });

/** POST /tickets/{id}/protocol: the service-protocol number sent to the contact, and the ticket it closed. */
export const ZTicketProtocolSchema = z.object({ protocol: z.string(), ticket: ZTicketSchema });
export type TTicketProtocol = z.infer<typeof ZTicketProtocolSchema>;

/** History import limits: at most this many past messages per request. */
export const HISTORY_IMPORT_MAX = 200;
const ZHistoryConnectionId = z.coerce.number('INVALID').int('INVALID').positive('INVALID').max(MAX_ID, 'INVALID');
const ZHistoryLimit = z.coerce.number('INVALID').int('INVALID').min(1, 'INVALID').max(HISTORY_IMPORT_MAX, 'INVALID');
/** POST /zdgSyncMessageUser: the past messages of one contact's chat on a connection. */
export const ZSyncMessageUserSchema = z.object({
  user: z.coerce
    .string('REQUIRED')
    .trim()
    .regex(/^\d{8,20}$/, 'DIGITS_ONLY'),
  limit: ZHistoryLimit,
  ticketwhatsappId: ZHistoryConnectionId,
});
/** POST /syncMessage: recent history of the connection's chats that have tickets. `token` may carry the API token (see docs/decisions.md). */
export const ZSyncMessageSchema = z.object({ limit: ZHistoryLimit, ticketwhatsappId: ZHistoryConnectionId, token: z.string().max(500).optional() });
export const ZHistoryImportResultSchema = z.object({ imported: z.number() });

// ---------- messages ----------
export const ZMessageSchema = z.object({
  id: z.number(),
  ticketId: z.number(),
  body: z.string(),
  fromMe: z.boolean(),
  read: z.boolean(),
  ack: z.number(),
  isDeleted: z.boolean(),
  /** Sent by the chatbot. */
  fromBot: z.boolean(),
  /** Its author changed the text on the phone after sending it. */
  isEdited: z.boolean(),
  /** Own messages: queued (stored, not yet handed to the channel), sent, or failed (see sendError). */
  sendStatus: z.enum(SEND_STATUSES),
  /** The ERR_ code of a failed send. */
  sendError: z.string().nullable(),
  mediaType: z.enum(MEDIA_TYPES).nullable(),
  /** An authenticated, short-lived address of the media file. */
  mediaUrl: z.string().nullable(),
  /** The file's own name ('contrato.pdf') and its size in bytes; absent or null on older messages. */
  mediaName: z.string().nullable().optional(),
  mediaSize: z.number().nullable().optional(),
  quotedMsg: z.object({ id: z.number(), body: z.string(), fromMe: z.boolean(), contact: z.object({ name: z.string() }).nullable() }).nullable(),
  contact: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** What people reacted with, one per person, in the order they reacted. */
  reactions: z.array(ZMessageReactionSchema),
  /** A private note of the team (see notes.ts): never sent to the contact; `noteAuthor` wrote it. */
  isNote: z.boolean().optional(),
  noteAuthor: z.object({ id: z.number(), name: z.string() }).nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TMessage = z.infer<typeof ZMessageSchema>;
export const ZMessageListSchema = z.object({ messages: z.array(ZMessageSchema), count: z.number(), hasMore: z.boolean(), ticket: ZTicketSchema });
export const ZMessagePageQuerySchema = z.object({
  pageNumber: z.coerce.number('INVALID').int('INVALID').min(1, 'INVALID').max(100000, 'INVALID').optional().default(1),
  /** 'true': the team's private notes too (our app asks; whaticket's frontend never does, so it never shows them). */
  notes: z.enum(['true', 'false'], 'INVALID').optional(),
});
/** The text fields sent with files (multipart): the caption may be empty, else as a text message's body. */
export const ZSendMediaFieldsSchema = z.object({ body: ZLongText, quotedMsgId: z.coerce.number('INVALID').pipe(ZIdValue).optional() });
/**
 * A JSON message: a text, or with `mediaUrl` a file fetched from that address (the body is then
 * its caption and may be empty). whaticket's chat sends `mediaUrl: ""` with every text.
 */
export const ZSendTextSchema = z
  .object({
    body: z.string('INVALID').max(30000, 'TOO_LONG').refine(noNul, 'INVALID').optional().default(''),
    quotedMsg: z.object({ id: ZIdValue }).nullable().optional(),
    // What whaticket's chat sends along with a text, ignored: `read: 1`, `fromMe: true`.
    read: z.union([z.boolean(), z.literal(1), z.literal(0)], 'INVALID').optional(),
    fromMe: z.literal(true, 'INVALID').optional(),
    mediaUrl: z.string('INVALID').max(2000, 'TOO_LONG').optional(),
  })
  .superRefine((value, issues) => {
    if (!value.mediaUrl?.trim() && !value.body.trim()) issues.addIssue({ code: 'custom', path: ['body'], message: 'REQUIRED' });
  });

/** The dashboard's periods: today (the spec's view), or the last 7 or 30 days, today included. */
export const DASHBOARD_RANGES = ['today', '7d', '30d'] as const;
export type DashboardRange = (typeof DASHBOARD_RANGES)[number];

/** GET /dashboard?range=: without it, the spec's view alone (counters and today's chart). */
export const ZDashboardQuerySchema = z.object({ range: z.enum(DASHBOARD_RANGES, 'INVALID').optional() });
export type TDashboardQuery = z.infer<typeof ZDashboardQuerySchema>;

/** Tickets resolved in the period, and the median wait for a first reply (null: no ticket was answered). */
const ZDashboardFigures = { resolved: z.number(), medianFirstResponseMs: z.number().nullable() };

/** GET /dashboard: tickets in service, waiting and closed in the user's queues, and today's new tickets per hour. */
export const ZDashboardSchema = z.object({
  counters: z.object({ open: z.number(), pending: z.number(), closed: z.number() }),
  /** Today's new tickets per hour, 08:00 to 19:00 (office hours) widened to every hour that had a ticket. */
  today: z.array(z.object({ hour: z.string(), count: z.number() })),
  /** Today's new tickets, the whole day. */
  newToday: z.number(),
  /** The period asked for; the fields below come only with it. */
  range: z.enum(DASHBOARD_RANGES).optional(),
  /** 7d and 30d: new tickets per day (YYYY-MM-DD in the server's time zone), oldest first. */
  days: z.array(z.object({ day: z.string(), count: z.number() })).optional(),
  /** Per queue (null: tickets without a queue) over the period. */
  queues: z.array(z.object({ queueId: z.number().nullable(), name: z.string(), color: z.string(), ...ZDashboardFigures })).optional(),
  /** Per agent (the ticket's agent) over the period. */
  agents: z.array(z.object({ userId: z.number(), name: z.string(), ...ZDashboardFigures })).optional(),
});
export type TDashboard = z.infer<typeof ZDashboardSchema>;

// ---------- list lines ----------
/**
 * A ticket's list line for a message without text is stored as one of these markers; the web app
 * shows it in the reader's language ('🎤 Áudio', '📍 Localização'…). A document's line is
 * `📄 <file name>`, the same in every language.
 */
export const MEDIA_LINES = {
  audio: '🎤 Audio',
  location: '📍 Location',
  vcard: '👤 Contact',
  image: '📷 Photo',
  video: '🎥 Video',
} as const;
export type MediaLineKind = keyof typeof MEDIA_LINES;

/** The marker a stored list line is, if it is one. */
export function mediaLineKind(line: string): MediaLineKind | undefined {
  return (Object.keys(MEDIA_LINES) as MediaLineKind[]).find((kind) => MEDIA_LINES[kind] === line);
}
