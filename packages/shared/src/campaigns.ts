/**
 * Campaigns: bulk sends (text, media by URL, media by local path, voice note) stored recipient by
 * recipient and sent by the server at a random pace. What server and web app agree on: the
 * kinds, the statuses, the number rules of the bulk pages, the request and answer shapes.
 */
import { z } from 'zod';
import { CHANNELS, MAX_ID, MEDIA_TYPES } from './domain.js';
import { ninthDigitChange, type NumberProblem, type ReadNumber } from './phone-numbers.js';

/** What a bulk page sends. */
export const SEND_KINDS = ['text', 'mediaUrl', 'mediaPath', 'voice'] as const;
export type SendKind = (typeof SEND_KINDS)[number];
/** What the group tools change in each group (no message is sent). */
export const GROUP_ACTION_KINDS = ['groupSubject', 'groupDescription', 'groupOpen', 'groupClose'] as const;
export type GroupActionKind = (typeof GROUP_ACTION_KINDS)[number];
/** What goes through the telephony provider (Vonage) instead of a connection: SMS and voice calls. */
export const PHONE_KINDS = ['sms', 'call'] as const;
export type PhoneKind = (typeof PHONE_KINDS)[number];
export const CAMPAIGN_KINDS = [...SEND_KINDS, ...GROUP_ACTION_KINDS, ...PHONE_KINDS] as const;
export type CampaignKind = (typeof CAMPAIGN_KINDS)[number];

export function isGroupActionKind(kind: CampaignKind): kind is GroupActionKind {
  return (GROUP_ACTION_KINDS as readonly string[]).includes(kind);
}

export function isPhoneKind(kind: CampaignKind): kind is PhoneKind {
  return (PHONE_KINDS as readonly string[]).includes(kind);
}

/** Whom a campaign is for: numbers typed on a bulk page, groups, or the participants of groups. */
export const CAMPAIGN_AUDIENCES = ['numbers', 'groups', 'participants'] as const;
export type CampaignAudience = (typeof CAMPAIGN_AUDIENCES)[number];

/**
 * scheduled: waits for its start time; running: sends; paused: by a user, or by the server while
 * its phone is disconnected (pauseReason says which); completed / cancelled: over.
 */
export const CAMPAIGN_STATUSES = ['scheduled', 'running', 'paused', 'completed', 'cancelled'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/**
 * A recipient's way: queued, then sending (claimed, with the provider id it goes out under),
 * then sent or failed. invalid: not a phone number; notOnWhatsapp: the network has no account
 * for it; skipped: the campaign's content could not be prepared; cancelled: the campaign was
 * cancelled first; unknown: a crash came between the send and its result, and the phone has
 * not confirmed it since (resend it from the history if it did not arrive); notAdmin: a group
 * where only admins may do this and the connection's number is not one (skipped). For a group
 * action, 'sent' means done.
 */
export const RECIPIENT_STATUSES = ['queued', 'sending', 'sent', 'failed', 'invalid', 'notOnWhatsapp', 'notAdmin', 'skipped', 'cancelled', 'unknown'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

/** What the history counts per campaign. */
export type RecipientCounts = Record<RecipientStatus, number>;

export function emptyCounts(): RecipientCounts {
  return { queued: 0, sending: 0, sent: 0, failed: 0, invalid: 0, notOnWhatsapp: 0, notAdmin: 0, skipped: 0, cancelled: 0, unknown: 0 };
}

/** Statuses a 'resend' takes back to queued. */
export const RESENDABLE_STATUSES: readonly RecipientStatus[] = ['failed', 'unknown'];

export const CAMPAIGN_LIMITS = {
  maxRecipients: 20_000,
  /** The pace: seconds between two sends of a connection. */
  maxDelaySeconds: 3_600,
  /** The bulk pages' advice: send in blocks of this many contacts. */
  adviceBlockSize: 30,
  maxMessageChars: 4_096,
  maxMediaBytes: 16 * 1024 * 1024,
} as const;

export type ParsedRecipient = {
  input: string;
  number: string | undefined;
  /** The ninth digit put in or taken out (the page says so). */
  ninth?: 'ninthAdded' | 'ninthRemoved' | undefined;
  /** Why the line is not a number (listed, never sent). */
  problem?: NumberProblem | undefined;
};

export type ParsedRecipients = {
  /** In the order typed, first occurrence of each number. */
  recipients: ParsedRecipient[];
  blank: number;
  duplicates: number;
};

/**
 * One number per line; blank lines and repeats of a number (after the rule) are dropped and
 * counted. `read`: the number rule (phone-numbers.ts) with the install's default country code,
 * WhatsApp's or the phone network's (SMS, calls); or another reader of lines (Instagram names).
 */
export function parseRecipients(text: string, read: (typed: string) => ReadNumber | string | undefined): ParsedRecipients {
  const seen = new Set<string>();
  const recipients: ParsedRecipients['recipients'] = [];
  let blank = 0;
  let duplicates = 0;
  for (const line of text.split(/\r?\n/)) {
    const input = line.trim();
    if (input === '') {
      blank += 1;
      continue;
    }
    const answer = read(input);
    const result: ReadNumber = typeof answer === 'object' ? answer : answer === undefined ? { number: undefined, problem: 'notANumber' } : { number: answer, changes: [] };
    const number = result.number;
    const key = number ?? `invalid:${input}`;
    if (seen.has(key)) {
      duplicates += 1;
      continue;
    }
    seen.add(key);
    const ninth = ninthDigitChange(result);
    recipients.push({ input: input.slice(0, 60), number, ...(ninth ? { ninth } : {}), ...(result.problem ? { problem: result.problem } : {}) });
  }
  return { recipients, blank, duplicates };
}

const id = z.number('INVALID').int('INVALID').positive('INVALID').max(MAX_ID, 'INVALID');
const seconds = z.number('INVALID').int('INVALID').min(0, 'INVALID').max(CAMPAIGN_LIMITS.maxDelaySeconds, 'TOO_LONG');

/**
 * A new campaign. `numbers`: one per line; `labelId`: the numbers of the contacts with that label
 * (read when the campaign is created, then stored like typed ones); one or both. `scheduledAt`:
 * ISO time; absent or past starts now.
 */
export const ZCampaignCreateSchema = z
  .object({
    kind: z.enum(SEND_KINDS, 'INVALID'),
    whatsappId: id,
    numbers: z
      .string('REQUIRED')
      .max(CAMPAIGN_LIMITS.maxRecipients * 40, 'TOO_LONG')
      .optional(),
    labelId: id.optional(),
    message: z.string().max(CAMPAIGN_LIMITS.maxMessageChars, 'TOO_LONG').default(''),
    mediaUrl: z.string().max(2_000, 'TOO_LONG').optional(),
    mediaPath: z.string().max(1_000, 'TOO_LONG').optional(),
    minDelay: seconds,
    maxDelay: seconds,
    scheduledAt: z.iso.datetime({ offset: true, error: 'INVALID' }).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.maxDelay < value.minDelay) ctx.addIssue({ code: 'custom', path: ['maxDelay'], message: 'LESS_THAN_MIN' });
    if (value.numbers === undefined && value.labelId === undefined) ctx.addIssue({ code: 'custom', path: ['numbers'], message: 'REQUIRED' });
    if (value.kind === 'text' && value.message.trim() === '') ctx.addIssue({ code: 'custom', path: ['message'], message: 'REQUIRED' });
    if (value.kind === 'mediaUrl' && !value.mediaUrl) ctx.addIssue({ code: 'custom', path: ['mediaUrl'], message: 'REQUIRED' });
    if (value.kind === 'mediaPath' && !value.mediaPath) ctx.addIssue({ code: 'custom', path: ['mediaPath'], message: 'REQUIRED' });
    if (value.kind === 'voice' && !value.mediaUrl && !value.mediaPath) ctx.addIssue({ code: 'custom', path: ['mediaPath'], message: 'REQUIRED' });
  });
export type TCampaignCreate = z.infer<typeof ZCampaignCreateSchema>;

export const ZCampaignSchema = z.object({
  id: z.number(),
  kind: z.enum(CAMPAIGN_KINDS),
  audience: z.enum(CAMPAIGN_AUDIENCES),
  /** The connection it goes through; null for SMS and calls (the telephony provider). */
  whatsappId: z.number().nullable(),
  whatsappName: z.string(),
  /** The connection's channel (null for SMS and calls): on Instagram a recipient is a username. */
  channel: z.enum(CHANNELS).nullable(),
  /** SMS and calls: the number or name they come from. */
  sender: z.string().nullable(),
  userId: z.number().nullable(),
  /** The author's name; null for a send through the API token. */
  userName: z.string().nullable(),
  source: z.enum(['page', 'api']),
  message: z.string(),
  mediaName: z.string().nullable(),
  /** The kind of its file (image, audio, video, other = a document), for the history's preview. */
  mediaType: z.enum(MEDIA_TYPES).nullable(),
  minDelay: z.number(),
  maxDelay: z.number(),
  status: z.enum(CAMPAIGN_STATUSES),
  /** Why a paused campaign waits: 'user' or an ERR_ code (ERR_WAPP_NOT_INITIALIZED while its phone is away). */
  pauseReason: z.string().nullable(),
  /** A line for the history: e.g. it started late because the server was down at its time. */
  note: z.string().nullable(),
  scheduledAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  createdAt: z.string(),
  total: z.number(),
  counts: z.record(z.enum(RECIPIENT_STATUSES), z.number()),
});
export type TCampaign = z.infer<typeof ZCampaignSchema>;

export const ZRecipientSchema = z.object({
  id: z.number(),
  /** The line as typed; for a group, its name when the action was stored. */
  input: z.string(),
  number: z.string().nullable(),
  groupId: z.string().nullable(),
  status: z.enum(RECIPIENT_STATUSES),
  error: z.string().nullable(),
  /** The provider's id of what was sent (Vonage's message or call id for SMS and calls). */
  providerId: z.string().nullable(),
  /** SMS and calls: what the provider reported since (delivered, answered, completed, failed...). */
  delivery: z.string().nullable(),
  sentAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type TRecipient = z.infer<typeof ZRecipientSchema>;

export const ZCampaignCreatedSchema = z.object({
  campaign: ZCampaignSchema,
  /** Lines dropped before storing: blank lines and repeated numbers. */
  dropped: z.object({ blank: z.number(), duplicates: z.number() }),
});

/** Changes to a campaign that has not started: its time, its text and its pace. */
export const ZCampaignUpdateSchema = z
  .object({
    scheduledAt: z.iso.datetime({ offset: true, error: 'INVALID' }).nullable().optional(),
    message: z.string().max(CAMPAIGN_LIMITS.maxMessageChars, 'TOO_LONG').optional(),
    minDelay: seconds.optional(),
    maxDelay: seconds.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.minDelay !== undefined && value.maxDelay !== undefined && value.maxDelay < value.minDelay) ctx.addIssue({ code: 'custom', path: ['maxDelay'], message: 'LESS_THAN_MIN' });
  });
export type TCampaignUpdate = z.infer<typeof ZCampaignUpdateSchema>;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'INVALID');
const page = z.coerce.number('INVALID').int('INVALID').min(1, 'INVALID').max(100_000, 'INVALID').optional().default(1);
const digitsFilter = z
  .string()
  .max(20, 'TOO_LONG')
  .transform((v) => v.replace(/\D/g, ''))
  .optional();

/** The history's filters: creation day range (server time zone), connection, status, a number's digits. */
export const ZCampaignListQuerySchema = z.object({
  pageNumber: page,
  from: day.optional(),
  to: day.optional(),
  whatsappId: z.coerce.number('INVALID').int('INVALID').positive('INVALID').max(MAX_ID, 'INVALID').optional(),
  status: z.enum(CAMPAIGN_STATUSES, 'INVALID').optional(),
  number: digitsFilter,
  /** 'true': only campaigns given a start time (the scheduled sends page). */
  scheduled: z.enum(['true', 'false'], 'INVALID').optional(),
});
export type TCampaignListQuery = z.infer<typeof ZCampaignListQuerySchema>;

export const ZCampaignListSchema = z.object({ campaigns: z.array(ZCampaignSchema), count: z.number(), hasMore: z.boolean() });
export type TCampaignList = z.infer<typeof ZCampaignListSchema>;

export const ZRecipientListQuerySchema = z.object({
  pageNumber: page,
  status: z.enum(RECIPIENT_STATUSES, 'INVALID').optional(),
  number: digitsFilter,
});
export const ZRecipientListSchema = z.object({ recipients: z.array(ZRecipientSchema), count: z.number(), hasMore: z.boolean() });
export type TRecipientList = z.infer<typeof ZRecipientListSchema>;

// ---------- the tool API (spec 7 'Extra backend calls') ----------
const token = z.string().max(500, 'TOO_LONG').optional();
const toolNumber = z.string('REQUIRED').trim().min(1, 'REQUIRED').max(40, 'TOO_LONG');
const connectionId = z.coerce.number('INVALID').int('INVALID').positive('INVALID').max(MAX_ID, 'INVALID');

/** POST /zdg: a text to one number. */
export const ZToolTextSchema = z.object({
  number: toolNumber,
  message: z.string('REQUIRED').trim().min(1, 'REQUIRED').max(CAMPAIGN_LIMITS.maxMessageChars, 'TOO_LONG'),
  token,
  ticketwhatsappId: connectionId,
});
/** POST /sendMedia (url) and /sendMediaZDG (local path): `title` is the caption. */
export const ZToolMediaSchema = z.object({
  number: toolNumber,
  url: z.string('REQUIRED').trim().min(1, 'REQUIRED').max(2_000, 'TOO_LONG'),
  title: z.string().max(1_000, 'TOO_LONG').optional().default(''),
  token,
  ticketwhatsappId: connectionId,
});
/** POST /sendMediaZDGRec: a voice note by URL or local path, Ogg Opus only. */
export const ZToolVoiceSchema = z.object({ number: toolNumber, url: z.string('REQUIRED').trim().min(1, 'REQUIRED').max(2_000, 'TOO_LONG'), token, ticketwhatsappId: connectionId });
/** POST /sendAgendamento: starts now every campaign scheduled for that day on that connection. */
export const ZSendScheduledSchema = z.object({ dataEnvio: day, token, ticketwhatsappId: connectionId });
export const ZSendScheduledResultSchema = z.object({ started: z.array(z.number()) });
export const ZTokenBodySchema = z.object({ token }).optional();
/** The answer of a send through the tool API: the one-recipient campaign it became. */
export const ZToolAcceptedSchema = z.object({ id: z.number(), status: z.enum(CAMPAIGN_STATUSES) });
export const ZToolConnectionsSchema = z.object({ ids: z.array(z.number()), connections: z.array(z.object({ id: z.number(), name: z.string(), status: z.string() })) });
export const ZToolContactsSchema = z.array(z.object({ id: z.number(), name: z.string(), number: z.string() }));
export const ZDeletedCountSchema = z.object({ deleted: z.number() });
