/**
 * Two-factor sign-in: the numbers it runs on and the shapes of its requests and answers.
 * After the password, a user with TOTP on (or one who must set it up) gets a challenge instead
 * of a session; the challenge and a code (or the set-up) then give the session.
 */
import { z } from 'zod';
import { hasNoNul, required, ZLoginResponseSchema } from './schemas.js';

export const TWO_FACTOR = {
  /** An authenticator app's code: 6 digits, a new one every 30 s. */
  codeDigits: 6,
  periodSeconds: 30,
  /** Codes of the step before and after are accepted too (clocks drift, people type slowly). */
  windowSteps: 1,
  recoveryCodeCount: 10,
  /** How long a password's challenge waits for the code, and for the set-up when that is owed. */
  challengeSeconds: 5 * 60,
  setupChallengeSeconds: 15 * 60,
  /** Wrong codes one challenge takes; then the password must be given again. */
  challengeAttempts: 5,
} as const;

/** A code from the app (digits, spaces allowed) or a recovery code (dashes allowed). */
export const ZTwoFactorCode = z.string(required).trim().min(1, 'REQUIRED').max(40, 'TOO_LONG').refine(hasNoNul, 'INVALID');

const ZChallenge = z.string(required).min(1, 'REQUIRED').max(200, 'TOO_LONG');

/** The password was right and a code is owed. */
export const ZTwoFactorChallengeSchema = z.object({ twoFactorRequired: z.literal(true), challenge: z.string() });
/** The password was right and the set-up of two-factor sign-in is owed first. */
export const ZTwoFactorSetupChallengeSchema = z.object({ twoFactorSetupRequired: z.literal(true), challenge: z.string() });
export type TTwoFactorPending = z.infer<typeof ZTwoFactorChallengeSchema> | z.infer<typeof ZTwoFactorSetupChallengeSchema>;
/** What POST /auth/login answers. */
export const ZLoginAnswerSchema = z.union([ZLoginResponseSchema, ZTwoFactorChallengeSchema, ZTwoFactorSetupChallengeSchema]);
export type TLoginAnswer = z.infer<typeof ZLoginAnswerSchema>;

export const ZLoginSecondFactorSchema = z.object({ challenge: ZChallenge, code: ZTwoFactorCode });
export type TLoginSecondFactor = z.infer<typeof ZLoginSecondFactorSchema>;
export const ZLoginSetupSchema = z.object({ challenge: ZChallenge });
export const ZLoginEnableSchema = z.object({ challenge: ZChallenge, code: ZTwoFactorCode });

/** A new secret, pending until a code from it is entered: as text and as an otpauth:// link for the QR code. */
export const ZTwoFactorSetupSchema = z.object({ secret: z.string(), otpauthUrl: z.string() });
export type TTwoFactorSetup = z.infer<typeof ZTwoFactorSetupSchema>;
export const ZTwoFactorCodeBodySchema = z.object({ code: ZTwoFactorCode });
export const ZTwoFactorDisableSchema = z.object({ password: z.string(required).min(1, 'REQUIRED').max(200, 'TOO_LONG'), code: ZTwoFactorCode });
export type TTwoFactorDisable = z.infer<typeof ZTwoFactorDisableSchema>;
/** Shown once: only their hashes are kept. */
export const ZRecoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type TRecoveryCodes = z.infer<typeof ZRecoveryCodesSchema>;
export const ZLoginWithRecoveryCodesSchema = ZLoginResponseSchema.extend({ recoveryCodes: z.array(z.string()) });
export type TLoginWithRecoveryCodes = z.infer<typeof ZLoginWithRecoveryCodesSchema>;

export const ZTwoFactorStatusSchema = z.object({ enabled: z.boolean(), required: z.boolean(), recoveryCodesLeft: z.number() });
export type TTwoFactorStatus = z.infer<typeof ZTwoFactorStatusSchema>;
