/**
 * The audit log: who did what, when and from where. Each recorded action has a key here (the web
 * app translates every key), and each row says how the request ended. Rows are written by the
 * server only; no route edits or deletes them (old rows leave with the retention sweep).
 */
import { z } from 'zod';

export const AUDIT_ACTIONS = [
  'auth.login',
  'auth.login_failed',
  /** The right password of an account that signs in with a code too: the code is still owed. */
  'auth.login_code_owed',
  'auth.logout',
  'auth.signup',
  'auth.password_change',
  'auth.totp_enable',
  'auth.totp_disable',
  'users.create',
  'users.update',
  'users.delete',
  'roles.create',
  'roles.update',
  'roles.delete',
  'apiTokens.create',
  'apiTokens.revoke',
  'apiToken.use',
  'webhooks.create',
  'webhooks.update',
  'webhooks.delete',
  'webhooks.secret_rotate',
  'webhooks.ping',
  'webhooks.resend',
  'queues.create',
  'queues.update',
  'queues.delete',
  'labels.create',
  'labels.update',
  'labels.delete',
  'whatsapps.create',
  'whatsapps.update',
  'whatsapps.delete',
  'whatsapps.session_start',
  'whatsapps.session_restart',
  'whatsapps.session_logout',
  'whatsapps.pairing_code',
  'settings.update',
  'settings.api_token_regenerate',
  'contacts.export',
  'contacts.import',
  'contacts.delete',
  'contacts.delete_unused',
  'tickets.delete',
  'tickets.close_all',
  'campaigns.create',
  'campaigns.update',
  'campaigns.pause',
  'campaigns.resume',
  'campaigns.cancel',
  'campaigns.resend',
  'campaigns.start_scheduled',
  'campaigns.export',
  'campaigns.media_add',
  'campaigns.media_remove',
  'groups.create',
  'groups.action',
  'email.send',
  'email.retry',
  'sms.send',
  'calls.place',
  'instagram.send',
  'history.import',
  'audit.export',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The part of an action key before the dot: the filter's groups ('users' is every action on users). */
export type AuditActionGroup = AuditAction extends `${infer G}.${string}` ? G : never;
export const AUDIT_ACTION_GROUPS = [
  'auth',
  'users',
  'roles',
  'apiTokens',
  'apiToken',
  'webhooks',
  'queues',
  'labels',
  'whatsapps',
  'settings',
  'contacts',
  'tickets',
  'campaigns',
  'groups',
  'email',
  'sms',
  'calls',
  'instagram',
  'history',
  'audit',
] as const satisfies readonly AuditActionGroup[];

export function auditActionGroup(action: AuditAction): AuditActionGroup {
  const [group] = action.split('.');
  return AUDIT_ACTION_GROUPS.find((g) => g === group) ?? 'audit';
}

/** ok: done; denied: refused for want of a session or a right (401/403); failed: tried, and it did not happen (other errors). */
export const AUDIT_OUTCOMES = ['ok', 'denied', 'failed'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** Who acted: a signed-in user, an API token, or nobody known (a failed sign-in, a call without a session). */
export const AUDIT_ACTOR_KINDS = ['user', 'apiToken', 'anonymous'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/** What an action was done to. */
export const AUDIT_TARGET_TYPES = ['user', 'role', 'apiToken', 'webhook', 'queue', 'label', 'whatsapp', 'setting', 'contact', 'ticket', 'campaign', 'group', 'email', 'auditLog'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** How long rows are kept unless AUDIT_RETENTION_DAYS says otherwise. */
export const AUDIT_DEFAULT_RETENTION_DAYS = 365;
export const AUDIT_PAGE_SIZE = 50;
/** Rows of one CSV export at most (the newest); a narrower period gives the rest. */
export const AUDIT_EXPORT_MAX_ROWS = 100_000;

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}

/** A day or a moment: 2026-11-26 (the whole day, in the server's time zone) or an ISO-8601 time. */
const moment = z
  .string('INVALID')
  .trim()
  .max(40, 'TOO_LONG')
  .refine((v) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(new Date(v).getTime()), 'INVALID');

/** `action`: an exact key, or a prefix such as `users` or `users.` for every action on users. */
const actionFilter = z
  .string('INVALID')
  .trim()
  .max(60, 'TOO_LONG')
  .refine((v) => /^[A-Za-z_.]*$/.test(v), 'INVALID');

export const ZAuditFilterSchema = z.object({
  from: moment.optional(),
  to: moment.optional(),
  userId: z.coerce.number('INVALID').int('INVALID').positive('INVALID').max(2_147_483_647, 'INVALID').optional(),
  action: actionFilter.optional(),
  outcome: z.enum(AUDIT_OUTCOMES, 'INVALID').optional(),
  searchParam: z
    .string('INVALID')
    .trim()
    .max(100, 'TOO_LONG')
    .refine((v) => !v.includes('\u0000'), 'INVALID')
    .optional(),
});
export type TAuditFilter = z.infer<typeof ZAuditFilterSchema>;

export const ZAuditListQuerySchema = ZAuditFilterSchema.extend({
  pageNumber: z.coerce.number('INVALID').int('INVALID').min(1, 'INVALID').max(100_000, 'INVALID').optional().default(1),
});
export type TAuditListQuery = z.infer<typeof ZAuditListQuerySchema>;

export const ZAuditEventSchema = z.object({
  id: z.number(),
  at: z.string(),
  actorKind: z.enum(AUDIT_ACTOR_KINDS),
  actorUserId: z.number().nullable(),
  /** The name when it happened (the user may since be renamed or deleted); the e-mail tried for a failed sign-in. */
  actorName: z.string(),
  tokenName: z.string().nullable(),
  action: z.enum(AUDIT_ACTIONS),
  targetType: z.enum(AUDIT_TARGET_TYPES).nullable(),
  targetId: z.string().nullable(),
  targetName: z.string().nullable(),
  /** A few facts, never a secret: e.g. the setting key, the fields changed, how many recipients. */
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])),
  ip: z.string(),
  userAgent: z.string(),
  outcome: z.enum(AUDIT_OUTCOMES),
  statusCode: z.number(),
});
export type TAuditEvent = z.infer<typeof ZAuditEventSchema>;

export const ZAuditListSchema = z.object({ events: z.array(ZAuditEventSchema), count: z.number(), hasMore: z.boolean() });
export type TAuditList = z.infer<typeof ZAuditListSchema>;
