/**
 * SMS and voice calls through Vonage: what server and web app agree on. Both are campaigns
 * (kinds 'sms' and 'call') sent by the server at about one every five seconds, recorded per
 * recipient with Vonage's id and what its webhooks reported since.
 */
import { z } from 'zod';
import { CAMPAIGN_LIMITS } from './campaigns.js';

/** The GSM 03.38 basic set and its extension table (each extension character takes two septets). */
const GSM7_BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENSION = '^{}\\[~]|€\f';

export type SmsEncoding = 'GSM-7' | 'UCS-2';
export type SmsSegments = {
  encoding: SmsEncoding;
  segments: number;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2). */ units: number;
  perSegment: number;
  /** Units left in the last segment. */ left: number;
};

/**
 * How a text travels as SMS: GSM-7 when every character is in the GSM set (160 per message,
 * 153 per part when split), else UCS-2 (70, or 67 per part). What Vonage bills is the parts.
 */
export function smsSegments(text: string): SmsSegments {
  let septets = 0;
  let gsm = true;
  for (const char of text) {
    if (GSM7_BASIC.includes(char)) septets += 1;
    else if (GSM7_EXTENSION.includes(char)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  const encoding: SmsEncoding = gsm ? 'GSM-7' : 'UCS-2';
  const units = gsm ? septets : text.length;
  const single = gsm ? 160 : 70;
  const part = gsm ? 153 : 67;
  const segments = units === 0 ? 0 : units <= single ? 1 : Math.ceil(units / part);
  const perSegment = segments <= 1 ? single : part;
  const left = segments === 0 ? single : segments * perSegment - units;
  return { encoding, segments, units, perSegment, left };
}

export const VONAGE_LIMITS = {
  /** Vonage takes up to 3,200 characters (UCS-2 split into parts); longer is refused here first. */
  smsChars: 1_600,
  /** What text-to-speech reads. */
  callChars: 1_500,
  /** A sender: a number (digits) or up to 11 letters and digits. */
  senderChars: 15,
} as const;

/**
 * What Vonage reports on a sent SMS (delivery receipts) or call (status events), as the history
 * shows it. Anything else it may say is shown as 'unknown'.
 */
export const PHONE_REPORTS = [
  'submitted',
  'started',
  'ringing',
  'accepted',
  'buffered',
  'answered',
  'delivered',
  'completed',
  'machine',
  'failed',
  'rejected',
  'expired',
  'busy',
  'cancelled',
  'timeout',
  'unanswered',
  'unknown',
] as const;
export type PhoneReport = (typeof PHONE_REPORTS)[number];

export function phoneReport(value: string): PhoneReport {
  return PHONE_REPORTS.find((report) => report === value.toLowerCase()) ?? 'unknown';
}

/** The text-to-speech language of a call follows the interface language. */
export const CALL_LANGUAGES = { pt: 'pt-BR', en: 'en-US', es: 'es-ES' } as const;
export type CallLanguage = (typeof CALL_LANGUAGES)[keyof typeof CALL_LANGUAGES];

/** A number (digits, with an optional '+') or an alphanumeric sender name of up to 11 characters. */
const sender = z
  .string()
  .trim()
  .max(VONAGE_LIMITS.senderChars + 1, 'TOO_LONG')
  .refine((value) => value === '' || /^\+?\d{3,15}$/.test(value) || /^[A-Za-z0-9 ]{1,11}$/.test(value), 'INVALID');

const text = (max: number) =>
  z
    .string('REQUIRED')
    .max(max, 'TOO_LONG')
    .refine((value) => value.trim() !== '', 'REQUIRED')
    .refine((value) => !value.includes('\u0000'), 'INVALID');

const when = z.iso.datetime({ offset: true, error: 'INVALID' }).optional();

/** The /SMS page: numbers one per line; `from` empty takes the default sender of the settings. */
export const ZSmsCreateSchema = z.object({
  from: sender.default(''),
  numbers: z.string('REQUIRED').max(CAMPAIGN_LIMITS.maxRecipients * 40, 'TOO_LONG'),
  text: text(VONAGE_LIMITS.smsChars),
  scheduledAt: when,
});
export type TSmsCreate = z.infer<typeof ZSmsCreateSchema>;

/** The /VoiceCall page: the text is read to each number in `language` (the interface's). */
export const ZCallCreateSchema = z.object({
  from: sender.default(''),
  numbers: z.string('REQUIRED').max(CAMPAIGN_LIMITS.maxRecipients * 40, 'TOO_LONG'),
  text: text(VONAGE_LIMITS.callChars),
  language: z.enum(Object.values(CALL_LANGUAGES) as [CallLanguage, ...CallLanguage[]], 'INVALID').default('pt-BR'),
  scheduledAt: when,
});
export type TCallCreate = z.infer<typeof ZCallCreateSchema>;

/** POST /sendSms and /makeVoiceCall (spec 7): one recipient, with the API token or a session. */
export const ZPhoneApiSchema = z.object({
  from: sender.default(''),
  to: z.string('REQUIRED').max(40, 'TOO_LONG'),
  text: z.string('REQUIRED').max(VONAGE_LIMITS.smsChars, 'TOO_LONG'),
  token: z.string().max(500, 'TOO_LONG').optional(),
  language: z.enum(Object.values(CALL_LANGUAGES) as [CallLanguage, ...CallLanguage[]], 'INVALID').optional(),
});
export type TPhoneApi = z.infer<typeof ZPhoneApiSchema>;

/** The settings page's 'test credentials': the account balance Vonage answered with. */
export const ZVonageBalanceSchema = z.object({ value: z.number(), autoReload: z.boolean() });
export type TVonageBalance = z.infer<typeof ZVonageBalanceSchema>;

/** What a contact was sent by SMS or call, for the contact's panel. */
export const ZPhoneSendSchema = z.object({
  campaignId: z.number(),
  kind: z.enum(['sms', 'call']),
  text: z.string(),
  status: z.string(),
  delivery: z.string().nullable(),
  sentAt: z.string().nullable(),
  createdAt: z.string(),
});
export type TPhoneSend = z.infer<typeof ZPhoneSendSchema>;
