/**
 * Roles: named sets of permissions an admin gives to plain users. The built-in agent role
 * (key 'agent') is every plain user's role until an admin gives them another; its permissions
 * can be changed, its name cannot, and it cannot be deleted.
 */
import { z } from 'zod';
import { PERMISSIONS } from './permissions.js';
import { BUILT_IN_ROLE_KEYS } from './permissions.js';
import { required, requiredText } from './schemas.js';

export const ZRoleSchema = z.object({
  id: z.number(),
  name: z.string(),
  /** 'agent' for the built-in role (the web app shows its translated name); null for a role an admin made. */
  key: z.enum(BUILT_IN_ROLE_KEYS).nullable(),
  permissions: z.array(z.enum(PERMISSIONS)),
  /** Stored and shown; users of such a role will be asked for a second factor at sign-in. */
  twoFactorRequired: z.boolean(),
  /** How many users hold this role (for the built-in role: the plain users without another one). */
  userCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TRole = z.infer<typeof ZRoleSchema>;

export const ZRoleListSchema = z.object({ roles: z.array(ZRoleSchema) });
export type TRoleList = z.infer<typeof ZRoleListSchema>;

/** A role as an admin writes it: every field, each permission at most once (a repeat is refused, not merged). */
export const ZRoleInputSchema = z.object({
  name: requiredText(2, 50),
  permissions: z
    .array(z.enum(PERMISSIONS, 'INVALID'), required)
    .max(PERMISSIONS.length, 'TOO_LONG')
    .refine((list) => new Set(list).size === list.length, 'INVALID'),
  twoFactorRequired: z.boolean('INVALID').optional().default(false),
});
export type TRoleInput = z.input<typeof ZRoleInputSchema>;
