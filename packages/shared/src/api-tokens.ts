/**
 * Named API tokens: beside the spec's one userApiToken (admin rights), admins make tokens with a
 * name, a subset of the permissions, an optional expiry, and revoke them. The token itself is
 * shown once, in the answer to its creation; afterwards only its first characters are.
 */
import { z } from 'zod';
import { PERMISSIONS, type Permission } from './permissions.js';
import { requiredText } from './schemas.js';

/** Every named token starts with this: recognisable in a config file or a leak scanner. */
export const API_TOKEN_PREFIX = 'zdk_';
/** How many characters of a token the list shows (the prefix and a few more): enough to tell two apart. */
export const API_TOKEN_SHOWN_CHARS = 10;
export const API_TOKEN_NAME_MAX = 50;
/** The permissions the tool API checks, the ones a token is made for (the form offers these). */
export const API_TOKEN_PERMISSIONS: readonly Permission[] = ['campaigns', 'groups', 'email', 'phone', 'instagram', 'history', 'contactsImportExport', 'contactsDelete'];

export const ZApiTokenCreateSchema = z.object({
  name: requiredText(1, API_TOKEN_NAME_MAX),
  permissions: z
    .array(z.enum(PERMISSIONS, 'INVALID'), 'INVALID')
    .min(1, 'REQUIRED')
    .max(PERMISSIONS.length * 2, 'TOO_LONG'),
  /** ISO time; absent or null: the token does not expire. Must be in the future. */
  expiresAt: z.iso.datetime({ offset: true, error: 'INVALID' }).nullable().optional(),
});
export type TApiTokenCreate = z.infer<typeof ZApiTokenCreateSchema>;

export const ZApiTokenSchema = z.object({
  id: z.number(),
  name: z.string(),
  /** The token's first characters (e.g. `zdk_Ab12Cd`), to recognise it; never the whole token. */
  prefix: z.string(),
  permissions: z.array(z.enum(PERMISSIONS)),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  createdBy: z.object({ id: z.number(), name: z.string() }).nullable(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
});
export type TApiToken = z.infer<typeof ZApiTokenSchema>;

export const ZApiTokenListSchema = z.object({ apiTokens: z.array(ZApiTokenSchema) });
export type TApiTokenList = z.infer<typeof ZApiTokenListSchema>;

/** The answer to a creation: the only time `token` is ever given. */
export const ZApiTokenCreatedSchema = z.object({ token: z.string(), apiToken: ZApiTokenSchema });
export type TApiTokenCreated = z.infer<typeof ZApiTokenCreatedSchema>;
