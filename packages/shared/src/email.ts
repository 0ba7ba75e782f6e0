/**
 * E-mail: closing notices, protocol numbers and conversation exports, sent through the SMTP
 * server of the settings. Every mail is a row first (its state and error visible to admins),
 * then sent by the server, retried with back-off.
 */
import { z } from 'zod';

export const EMAIL_KINDS = ['close', 'protocol', 'export', 'api'] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/** queued (waiting, also between retries), sending, sent, failed (gave up; can be retried by an admin). */
export const EMAIL_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export const EMAIL_LIMITS = { subjectChars: 300, textChars: 100_000, attachmentBytes: 10 * 1024 * 1024, fileNameChars: 120, recipients: 20 } as const;

/** Up to `max` e-mail addresses separated by commas (the settings and the tool API use this one rule). */
export function isEmailList(value: string, max: number): boolean {
  const parts = value.split(',').map((p) => p.trim());
  return parts.length <= max && parts.every((p) => z.email().safeParse(p).success);
}

/** One address, or several separated by commas; no control characters (no header injection). */
const addressList = z
  .string('REQUIRED')
  .trim()
  .min(1, 'REQUIRED')
  .max(2_000, 'TOO_LONG')
  .refine((value) => isEmailList(value, EMAIL_LIMITS.recipients), 'INVALID_EMAIL');

/** A subject is one line: a line break in it could forge headers. */
const subject = z
  .string('REQUIRED')
  .trim()
  .min(1, 'REQUIRED')
  .max(EMAIL_LIMITS.subjectChars, 'TOO_LONG')
  .refine((value) => !/[\r\n\u0000]/.test(value), 'INVALID');
const text = z
  .string('REQUIRED')
  .max(EMAIL_LIMITS.textChars, 'TOO_LONG')
  .refine((value) => !value.includes('\u0000'), 'INVALID');
const token = z.string().max(500, 'TOO_LONG').optional();
/** A file name without a path or control characters. */
const fileName = z
  .string('REQUIRED')
  .trim()
  .min(1, 'REQUIRED')
  .max(EMAIL_LIMITS.fileNameChars, 'TOO_LONG')
  .refine((value) => !/[\\/\r\n\u0000]/.test(value), 'INVALID');
/** The attachment: base64 (`base64:` first, or valid base64 of a binary file) or plain text. */
const content = z.string('REQUIRED').max(Math.ceil((EMAIL_LIMITS.attachmentBytes * 4) / 3) + 16, 'TOO_BIG');

export const ZSendEmailSchema = z.object({ zdgSubject: subject, zdgText: text, token });
export const ZSendEmailUserSchema = ZSendEmailSchema.extend({ zdgTo: addressList });
export const ZSendEmailAttachSchema = ZSendEmailSchema.extend({ zdgFileName: fileName, zdgContent: content });
export const ZSendEmailAttachUserSchema = ZSendEmailAttachSchema.extend({ zdgTo: addressList });
export type TSendEmail = z.infer<typeof ZSendEmailSchema> & { zdgTo?: string; zdgFileName?: string; zdgContent?: string };

/** POST /zdgProtocolo: the protocol number the server gave that ticket goes to emailTo (`protocolo` is not trusted). */
export const ZProtocolEmailSchema = z.object({
  usuario: z.string().max(200, 'TOO_LONG').optional(),
  protocolo: z.string().max(60, 'TOO_LONG').optional(),
  ticket: z.coerce.number('INVALID').int('INVALID').positive('INVALID'),
  token,
});

export const ZEmailQueuedSchema = z.object({ id: z.number(), status: z.enum(EMAIL_STATUSES) });

export const ZEmailSchema = z.object({
  id: z.number(),
  kind: z.enum(EMAIL_KINDS),
  to: z.string(),
  subject: z.string(),
  ticketId: z.number().nullable(),
  attachments: z.array(z.object({ filename: z.string(), size: z.number() })),
  status: z.enum(EMAIL_STATUSES),
  attempts: z.number(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type TEmail = z.infer<typeof ZEmailSchema>;

export const ZEmailListQuerySchema = z.object({
  pageNumber: z.coerce.number('INVALID').int('INVALID').min(1, 'INVALID').max(100_000, 'INVALID').optional().default(1),
  status: z.enum(EMAIL_STATUSES, 'INVALID').optional(),
});
export const ZEmailListSchema = z.object({ emails: z.array(ZEmailSchema), count: z.number(), hasMore: z.boolean() });
export type TEmailList = z.infer<typeof ZEmailListSchema>;

/** The settings page's 'send a test e-mail': to this address, or to emailTo. */
export const ZEmailTestSchema = z.object({ to: addressList.optional() });
export const ZEmailTestResultSchema = z.object({ to: z.string(), messageId: z.string() });
