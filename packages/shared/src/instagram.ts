/**
 * Instagram direct messages on Meta's official Instagram API: a connection of channel
 * 'instagram' holds the professional account's id, its access token, the app secret (webhook
 * signatures) and the verify token (webhook subscription); the three secrets are write-only.
 * People are known by their Instagram-scoped id (IGSID), which takes the place of a number.
 */
import { z } from 'zod';
import { CAMPAIGN_LIMITS } from './campaigns.js';
import { MAX_ID } from './domain.js';

const secret = (max: number) =>
  z
    .string('INVALID')
    .trim()
    .max(max, 'TOO_LONG')
    .refine((value) => !/\s/.test(value), 'INVALID');

/** What a connection form sends: the secrets only when they are set or replaced (empty keeps the stored one). */
export const ZInstagramConfigInputSchema = z.object({
  accountId: z
    .string('REQUIRED')
    .trim()
    .regex(/^\d{5,25}$/, 'INVALID'),
  accessToken: secret(1_000).optional(),
  appSecret: secret(200).optional(),
  verifyToken: secret(200).optional(),
});
export type TInstagramConfigInput = z.infer<typeof ZInstagramConfigInputSchema>;

/** What the connections page shows of an Instagram connection (never a secret). */
export const ZInstagramStateSchema = z.object({
  accountId: z.string(),
  /** The account's username, as the Graph API answered with the token. */
  username: z.string().nullable(),
  accessTokenSet: z.boolean(),
  appSecretSet: z.boolean(),
  verifyTokenSet: z.boolean(),
  /** true: the Graph API took the token at the last start; false: it refused it (see error); null: not tried. */
  tokenValid: z.boolean().nullable(),
  /** When Meta last verified the webhook subscription with the verify token. */
  webhookVerifiedAt: z.string().nullable(),
  error: z.string().nullable(),
});
export type TInstagramState = z.infer<typeof ZInstagramStateSchema>;

/** An Instagram username: letters, digits, dots and underscores, up to 30; '@' and an instagram.com address are taken off. */
export function normalizeUsername(typed: string): string | undefined {
  const name = typed
    .trim()
    .replace(/^https?:\/\/(www\.)?instagram\.com\//i, '')
    .replace(/^@/, '')
    .replace(/\/+$/, '')
    .toLowerCase();
  return /^[a-z0-9._]{1,30}$/.test(name) ? name : undefined;
}

/** The /InstaDirect page: usernames one per line, a text, an optional start time. */
export const ZDirectCreateSchema = z.object({
  whatsappId: z.number('INVALID').int('INVALID').positive('INVALID').max(MAX_ID, 'INVALID'),
  users: z.string('REQUIRED').max(CAMPAIGN_LIMITS.maxRecipients * 40, 'TOO_LONG'),
  message: z
    .string('REQUIRED')
    .max(1_000, 'TOO_LONG')
    .refine((value) => value.trim() !== '', 'REQUIRED'),
  scheduledAt: z.iso.datetime({ offset: true, error: 'INVALID' }).optional(),
});
export type TDirectCreate = z.infer<typeof ZDirectCreateSchema>;

/** POST /sendDirect (spec 7): one username; the first Instagram connection unless `ticketwhatsappId` says which. */
export const ZSendDirectApiSchema = z.object({
  userIg: z.string('REQUIRED').max(100, 'TOO_LONG'),
  message: z
    .string('REQUIRED')
    .max(1_000, 'TOO_LONG')
    .refine((value) => value.trim() !== '', 'REQUIRED'),
  token: z.string().max(500, 'TOO_LONG').optional(),
  ticketwhatsappId: z.coerce.number('INVALID').int('INVALID').positive('INVALID').max(MAX_ID, 'INVALID').optional(),
});
