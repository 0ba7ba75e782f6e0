/**
 * Request and response schemas of the API, shared by the server (parsing, OpenAPI) and the
 * web app (forms). Field errors carry a code from VALIDATION_CODES; both sides translate it.
 */
import { ZInstagramStateSchema } from './instagram.js';
import { z } from 'zod';
import { CHANNELS, CONNECTION_STATUSES, LIMITS, MAX_ID, PROFILES, SETTING_KEYS } from './domain.js';
import { ERROR_CODES } from './errors.js';
import { BUILT_IN_ROLE_KEYS, PERMISSIONS } from './permissions.js';

export const VALIDATION_CODES = ['REQUIRED', 'TOO_SHORT', 'TOO_LONG', 'INVALID_EMAIL', 'DIGITS_ONLY', 'LESS_THAN_MIN', 'INVALID', 'TOO_COMMON', 'TAKEN', 'NO_AREA_CODE', 'UNKNOWN_AREA'] as const;
export type ValidationCode = (typeof VALIDATION_CODES)[number];

export const VALIDATION_MESSAGES: Record<ValidationCode, string> = {
  REQUIRED: 'Required',
  TOO_SHORT: 'Too Short!',
  TOO_LONG: 'Too Long!',
  INVALID_EMAIL: 'Invalid email',
  DIGITS_ONLY: 'Digits only: country code, area code and number',
  LESS_THAN_MIN: 'Must not be less than the minimum',
  INVALID: 'Invalid value',
  TOO_COMMON: 'Too common: choose another',
  TAKEN: 'Already in use',
  NO_AREA_CODE: 'Add the area code (DDD) to the number',
  UNKNOWN_AREA: 'Not a known area or country code',
};

export const required = { error: (issue: { input: unknown }) => (issue.input === undefined || issue.input === null ? 'REQUIRED' : 'INVALID') };

/** PostgreSQL text cannot hold U+0000: such input is refused on both databases alike. */
export function hasNoNul(value: string): boolean {
  return !value.includes('\u0000');
}

/** Any stored or searched free text. */
function freeText(error: string | typeof required = 'INVALID') {
  return z.string(error).refine(hasNoNul, 'INVALID');
}

/** A required text: empty reads as 'Required', short as 'Too Short!'. */
export function requiredText(min: number, max: number) {
  return z
    .string(required)
    .trim()
    .check((ctx) => {
      if (ctx.value.length === 0) ctx.issues.push({ code: 'custom', message: 'REQUIRED', input: ctx.value });
      else if (!hasNoNul(ctx.value)) ctx.issues.push({ code: 'custom', message: 'INVALID', input: ctx.value });
      else if (ctx.value.length < min) ctx.issues.push({ code: 'custom', message: 'TOO_SHORT', input: ctx.value });
      else if (ctx.value.length > max) ctx.issues.push({ code: 'custom', message: 'TOO_LONG', input: ctx.value });
    });
}

export const ZEmail = z.string(required).trim().toLowerCase().min(1, 'REQUIRED').pipe(z.email('INVALID_EMAIL')).pipe(z.string().max(120, 'TOO_LONG'));
const ZOptionalEmail = z
  .string('INVALID')
  .trim()
  .toLowerCase()
  .max(120, 'TOO_LONG')
  .refine((v) => v === '' || z.email().safeParse(v).success, 'INVALID_EMAIL');
/**
 * The password policy's lengths (the issue's, above the spec's 5–50): at least 8 characters, and
 * room for a long passphrase. The server also refuses the most common passwords (TOO_COMMON).
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** Passwords are taken as typed (never trimmed, or login would not match): empty reads 'Required'. */
function password(options: { emptyKeepsCurrent: boolean }) {
  return z.string(required).check((ctx) => {
    if (ctx.value.length === 0) {
      if (!options.emptyKeepsCurrent) ctx.issues.push({ code: 'custom', message: 'REQUIRED', input: ctx.value });
    } else if (!hasNoNul(ctx.value)) ctx.issues.push({ code: 'custom', message: 'INVALID', input: ctx.value });
    else if (ctx.value.length < PASSWORD_MIN_LENGTH) ctx.issues.push({ code: 'custom', message: 'TOO_SHORT', input: ctx.value });
    else if (ctx.value.length > PASSWORD_MAX_LENGTH) ctx.issues.push({ code: 'custom', message: 'TOO_LONG', input: ctx.value });
  });
}
export const ZPassword = password({ emptyKeepsCurrent: false });
export const ZIdValue = z.number('INVALID').int('INVALID').positive('INVALID').max(MAX_ID, 'INVALID');
const ZId = z.coerce.number('INVALID').int('INVALID').positive('INVALID').max(MAX_ID, 'INVALID');
const ZIdList = z.array(ZIdValue, 'INVALID');

export const ZIdParamsSchema = z.object({ id: ZId });

export const ZListQuerySchema = z.object({
  searchParam: freeText().trim().max(100, 'TOO_LONG').optional().default(''),
  pageNumber: z.coerce.number('INVALID').int('INVALID').min(1, 'INVALID').max(100000, 'INVALID').optional().default(1),
});
export type TListQuery = z.infer<typeof ZListQuerySchema>;

// ---------- auth ----------
export const ZLoginSchema = z.object({ email: ZEmail, password: z.string(required).min(1, 'REQUIRED').max(200, 'TOO_LONG') });
export type TLogin = z.infer<typeof ZLoginSchema>;

export const ZSignupSchema = z.object({ name: requiredText(2, 50), email: ZEmail, password: ZPassword });
export type TSignup = z.infer<typeof ZSignupSchema>;

// ---------- queues ----------
export const ZQueueSchema = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  greetingMessage: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TQueue = z.infer<typeof ZQueueSchema>;
export const ZQueueRefSchema = z.object({ id: z.number(), name: z.string(), color: z.string() });
export type TQueueRef = z.infer<typeof ZQueueRefSchema>;
/** A label on a ticket or a contact (labels.ts has the rest). */
export const ZLabelRefSchema = z.object({ id: z.number(), name: z.string(), color: z.string() });
export type TLabelRef = z.infer<typeof ZLabelRefSchema>;

export const ZQueueInputSchema = z.object({
  name: requiredText(2, 50),
  // Upper-cased before the length check: the stored value is the one that must fit.
  color: freeText(required).trim().toUpperCase().min(3, 'TOO_SHORT').max(9, 'TOO_LONG'),
  greetingMessage: freeText().max(LIMITS.quickAnswerMaxChars, 'TOO_LONG').optional().default(''),
});
export type TQueueInput = z.input<typeof ZQueueInputSchema>;

// ---------- users ----------
export const ZUserSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  profile: z.enum(PROFILES),
  whatsappId: z.number().nullable(),
  whatsapp: z.object({ id: z.number(), name: z.string() }).nullable(),
  queues: z.array(ZQueueRefSchema),
  /** Signs in with a code from an authenticator app too. */
  twoFactorEnabled: z.boolean(),
  /** The user's role (plain users); null: the built-in agent role, or an admin (who holds every permission). */
  roleId: z.number().nullable(),
  role: z.object({ id: z.number(), name: z.string(), key: z.enum(BUILT_IN_ROLE_KEYS).nullable() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TUser = z.infer<typeof ZUserSchema>;

/**
 * A user's connection: an id, or none (null). whaticket's user form sends none as '' (its empty
 * choice) or false (its untouched initial state): those two read as null, nothing else does.
 */
const ZUserWhatsappId = z.union([ZIdValue, z.null(), z.literal('').transform(() => null), z.literal(false).transform(() => null)], 'INVALID');

export const ZUserCreateSchema = z.object({
  name: requiredText(2, 50),
  email: ZEmail,
  password: ZPassword,
  profile: z.enum(PROFILES, 'INVALID').optional().default('user'),
  whatsappId: ZUserWhatsappId.optional(),
  queueIds: ZIdList.optional().default([]),
  /** The role of a plain user; null or absent: the built-in agent role. */
  roleId: ZIdValue.nullable().optional(),
});
export type TUserCreate = z.input<typeof ZUserCreateSchema>;

/** On update the password is optional: empty keeps the current one. */
export const ZUserUpdateSchema = z.object({
  name: requiredText(2, 50),
  email: ZEmail,
  password: password({ emptyKeepsCurrent: true }).optional(),
  /** Needed to change one's own password (not to set another user's, as an admin). */
  currentPassword: z.string('INVALID').max(200, 'TOO_LONG').optional(),
  profile: z.enum(PROFILES, 'INVALID').optional(),
  whatsappId: ZUserWhatsappId.optional(),
  queueIds: ZIdList.optional(),
  /** The role of a plain user (admins only); null: the built-in agent role; absent: unchanged. */
  roleId: ZIdValue.nullable().optional(),
});
export type TUserUpdate = z.input<typeof ZUserUpdateSchema>;

export const ZUserListSchema = z.object({ users: z.array(ZUserSchema), count: z.number(), hasMore: z.boolean() });

/** GET /users/online: the users with the app open now (a realtime connection on any server). */
export const ZOnlineUsersSchema = z.object({ userIds: z.array(z.number()) });
export type TOnlineUsers = z.infer<typeof ZOnlineUsersSchema>;

/** Failed sign-in attempts at one's account since one's last sign-in: told once, at the next. */
export const ZFailedAttemptsSchema = z.object({ count: z.number(), lastAt: z.string(), lastAddress: z.string() });
export type TFailedAttempts = z.infer<typeof ZFailedAttemptsSchema>;

export const ZLoginResponseSchema = z.object({
  token: z.string(),
  user: ZUserSchema,
  /** What the signed-in user may use (every permission for an admin); the web app builds its menu from it. */
  permissions: z.array(z.enum(PERMISSIONS)),
  /** The password was found below today's policy at a sign-in: the app asks to change it. */
  passwordChangeRequired: z.boolean(),
  /** Only on a sign-in that followed failed attempts. */
  failedAttempts: ZFailedAttemptsSchema.optional(),
});
export type TLoginResponse = z.infer<typeof ZLoginResponseSchema>;

// ---------- quick answers ----------
export const ZQuickAnswerSchema = z.object({ id: z.number(), shortcut: z.string(), message: z.string(), createdAt: z.string(), updatedAt: z.string() });
export type TQuickAnswer = z.infer<typeof ZQuickAnswerSchema>;
export const ZQuickAnswerInputSchema = z.object({
  shortcut: requiredText(2, 50),
  message: requiredText(8, LIMITS.quickAnswerMaxChars),
});
export type TQuickAnswerInput = z.input<typeof ZQuickAnswerInputSchema>;
export const ZQuickAnswerListSchema = z.object({ quickAnswers: z.array(ZQuickAnswerSchema), count: z.number(), hasMore: z.boolean() });

// ---------- contacts ----------
export const ZExtraInfoSchema = z.object({ id: z.number().optional(), name: z.string(), value: z.string() });
export const ZContactSchema = z.object({
  id: z.number(),
  name: z.string(),
  number: z.string(),
  email: z.string(),
  profilePicUrl: z.string(),
  isGroup: z.boolean(),
  extraInfo: z.array(ZExtraInfoSchema),
  labels: z.array(ZLabelRefSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TContact = z.infer<typeof ZContactSchema>;

export const ZContactNumber = z
  .string(required)
  .trim()
  .check((ctx) => {
    if (ctx.value.length === 0) ctx.issues.push({ code: 'custom', message: 'REQUIRED', input: ctx.value });
    // As people type it: digits with spaces, brackets, dashes, dots or a leading + (the server reads it by the number rule).
    else if (!/^\+?[\d\s().\-/]+$/.test(ctx.value)) ctx.issues.push({ code: 'custom', message: 'DIGITS_ONLY', input: ctx.value });
    else if (ctx.value.replace(/\D/g, '').length < 8) ctx.issues.push({ code: 'custom', message: 'TOO_SHORT', input: ctx.value });
    else if (ctx.value.length > 50) ctx.issues.push({ code: 'custom', message: 'TOO_LONG', input: ctx.value });
  });

export const ZContactInputSchema = z.object({
  name: requiredText(2, 50),
  number: ZContactNumber,
  email: ZOptionalEmail.optional().default(''),
  extraInfo: z
    .preprocess(
      // whaticket's contact form adds a row as `{ name: "", value: "" }`: a row left blank is dropped.
      (rows) => (Array.isArray(rows) ? rows.filter((r: unknown) => !(typeof r === 'object' && r !== null && 'name' in r && 'value' in r && r.name === '' && r.value === '')) : rows),
      z.array(z.object({ name: requiredText(1, 100), value: freeText().trim().max(1000, 'TOO_LONG') }), 'INVALID').max(50, 'TOO_LONG'),
    )
    .optional(),
});
export type TContactInput = z.input<typeof ZContactInputSchema>;
/** 'Novo ticket' by exact number: `contact` only when the user may see it (else just that the number is a customer's). */
export const ZContactByNumberQuerySchema = z.object({ number: z.string('REQUIRED').trim().min(1, 'REQUIRED').max(60, 'TOO_LONG') });
export const ZContactByNumberSchema = z.object({ number: z.string(), found: z.boolean(), contact: ZContactSchema.nullable() });
export type TContactByNumber = z.infer<typeof ZContactByNumberSchema>;
export const ZContactListSchema = z.object({ contacts: z.array(ZContactSchema), count: z.number(), hasMore: z.boolean() });

export const ZContactImportResultSchema = z.object({
  created: z.number(),
  skipped: z.array(z.object({ line: z.number(), reason: z.string() })),
});
export type TContactImportResult = z.infer<typeof ZContactImportResultSchema>;

// ---------- settings ----------
export const ZSettingSchema = z.object({
  key: z.enum(SETTING_KEYS),
  value: z.string(),
  /** True for a secret that holds a value: `value` is then masked. */
  isSet: z.boolean(),
  updatedAt: z.string(),
});
export type TSetting = z.infer<typeof ZSettingSchema>;
export const ZSettingUpdateSchema = z.object({ value: freeText().max(2000, 'TOO_LONG') });
export const ZSettingParamsSchema = z.object({ key: z.string() });

// ---------- errors ----------
export const ZErrorSchema = z.object({ error: z.enum(ERROR_CODES), message: z.string(), fields: z.record(z.string(), z.string()).optional() });

export const ZHealthSchema = z.object({ status: z.literal('ok'), database: z.enum(['sqlite', 'postgres']), version: z.string() });
/** GET /api/health/live: the process answers (nothing else is looked at). */
export const ZLivenessSchema = z.object({ status: z.literal('ok') });
/** One readiness check: 'ok', or why not (no detail beyond this word reaches the answer). */
export const ZReadinessCheckSchema = z.enum(['ok', 'failed', 'timeout', 'pending', 'draining']);
/**
 * GET /api/health/ready: 200 with status 'ok' when every check is 'ok', 503 with 'unavailable'
 * otherwise. `redis` only in the cluster mode; `shutdown` is 'draining' once the node is stopping.
 */
export const ZReadinessSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.object({ database: ZReadinessCheckSchema, migrations: ZReadinessCheckSchema, redis: ZReadinessCheckSchema.optional(), shutdown: ZReadinessCheckSchema }),
});
export type TReadiness = z.infer<typeof ZReadinessSchema>;

// ---------- connections ----------
export const ZWhatsappSchema = z.object({
  id: z.number(),
  name: z.string(),
  channel: z.enum(CHANNELS),
  status: z.enum(CONNECTION_STATUSES),
  qrcode: z.string(),
  retries: z.number(),
  isDefault: z.boolean(),
  greetingMessage: z.string(),
  farewellMessage: z.string(),
  queues: z.array(ZQueueRefSchema),
  /** Instagram connections only: the account and the state of its token and webhook. */
  instagram: ZInstagramStateSchema.optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TWhatsapp = z.infer<typeof ZWhatsappSchema>;

// ---------- first run ----------
/** The first-run checklist's steps, in the order shown. */
export const FIRST_RUN_STEPS = ['connection', 'queue', 'agent', 'message'] as const;
export type FirstRunStep = (typeof FIRST_RUN_STEPS)[number];

/** GET /onboarding: which steps are done (read from what exists), and whether this admin closed the list. */
export const ZFirstRunSchema = z.object({
  steps: z.object({ connection: z.boolean(), queue: z.boolean(), agent: z.boolean(), message: z.boolean() }),
  complete: z.boolean(),
  dismissed: z.boolean(),
});
export type TFirstRun = z.infer<typeof ZFirstRunSchema>;

/** GET /public-settings: what the sign-in page needs to know before anyone signs in. */
export const ZPublicSettingsSchema = z.object({ signupEnabled: z.boolean() });
export type TPublicSettings = z.infer<typeof ZPublicSettingsSchema>;
