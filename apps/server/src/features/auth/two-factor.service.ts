/**
 * A user's second factor: set-up (a secret pending until a first code confirms it), recovery
 * codes, checking a code at sign-in, turning it off, and an admin's reset for someone else.
 */
import { TWO_FACTOR, type TTwoFactorDisable, type TTwoFactorSetup, type TTwoFactorStatus } from '@zapdesk/shared/two-factor';
import { verifyPassword } from '../../core/auth/password.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { seal, unseal } from '../../core/secret-box.js';
import { nowIso } from '../../core/time.js';
import * as users from '../users/users.repository.js';
import * as families from './refresh-families.repository.js';
import { logout } from './auth.service.js';
import { twoFactorRequiredFor } from './two-factor-policy.js';
import * as repo from './two-factor.repository.js';
import { matchingStep, newRecoveryCode, newTotpSecret, otpauthUrl, recoveryCodeHash, looksLikeTotpCode } from './totp.js';

async function authUser(ctx: AppContext, userId: number) {
  const user = await users.findAuthUserById(ctx.db, userId);
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
  return user;
}

export async function twoFactorStatus(ctx: AppContext, userId: number): Promise<TTwoFactorStatus> {
  const [user, state, left] = await Promise.all([authUser(ctx, userId), repo.findTotpState(ctx.db, userId), repo.countUnusedRecoveryCodes(ctx.db, userId)]);
  const enabled = Boolean(state?.totpEnabledAt);
  return { enabled, required: await twoFactorRequiredFor(ctx, user), recoveryCodesLeft: enabled ? left : 0 };
}

/** A new secret for the user's app; it opens nothing until `enableTwoFactor` confirms a code of it. */
export async function beginSetup(ctx: AppContext, userId: number): Promise<TTwoFactorSetup> {
  const user = await authUser(ctx, userId);
  const secret = newTotpSecret();
  if (!(await repo.setPendingSecret(ctx.db, userId, seal(ctx.secrets.settingsKey, secret)))) throw new AppError('ERR_TWO_FACTOR_ALREADY_ENABLED');
  return { secret, otpauthUrl: otpauthUrl(secret, user.email) };
}

function secretOf(ctx: AppContext, sealed: string): string {
  try {
    return unseal(ctx.secrets.settingsKey, sealed);
  } catch {
    // Sealed with another SECRETS_KEY: no code can match it. An admin's reset lets the user set it up again.
    throw new AppError('ERR_SECRET_UNREADABLE');
  }
}

/** Confirms the pending secret with a code of it: two-factor sign-in is on, and the recovery codes are returned once. */
export async function enableTwoFactor(ctx: AppContext, userId: number, code: string): Promise<string[]> {
  const state = await repo.findTotpState(ctx.db, userId);
  if (state?.totpEnabledAt) throw new AppError('ERR_TWO_FACTOR_ALREADY_ENABLED');
  if (!state?.totpSecret) throw new AppError('ERR_TWO_FACTOR_NOT_SET_UP');
  const step = matchingStep(secretOf(ctx, state.totpSecret), code);
  if (step === undefined) throw new AppError('ERR_TWO_FACTOR_CODE_INVALID');
  const codes = newRecoveryCodes();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.enableTotp(trx, userId, step, nowIso()))) throw new AppError('ERR_TWO_FACTOR_ALREADY_ENABLED');
    await repo.replaceRecoveryCodes(trx, userId, codes.map(recoveryCodeHash), nowIso());
  });
  return codes;
}

/**
 * Turning it on from a signed-in browser: that sign-in has just given a code and counts as
 * passed; the user's other sign-ins end, as they did not (they sign in again, with a code).
 */
export async function enableForSession(ctx: AppContext, userId: number, family: string | undefined, code: string): Promise<string[]> {
  const codes = await enableTwoFactor(ctx, userId, code);
  await endOtherSignIns(ctx, userId, family);
  if (family) await families.markSecondFactor(ctx.db, family);
  return codes;
}

/** Ends the user's sign-ins but `family` (none given: all of them). */
export async function endOtherSignIns(ctx: AppContext, userId: number, family: string | undefined): Promise<void> {
  await families.revokeFamiliesOfUser(ctx.db, userId, nowIso(), family ? { except: family } : {});
}

async function clear(ctx: AppContext, userId: number): Promise<void> {
  await ctx.db.transaction().execute((trx) => repo.clearTwoFactor(trx, userId));
}

function newRecoveryCodes(): string[] {
  return Array.from({ length: TWO_FACTOR.recoveryCodeCount }, newRecoveryCode);
}

/**
 * Checks a second factor of a user who has it on: a code of the app (each time step once: a
 * code seen again, even within its 30 s, is refused) or an unused recovery code (then used).
 */
export async function verifySecondFactor(ctx: AppContext, userId: number, code: string): Promise<void> {
  const state = await repo.findTotpState(ctx.db, userId);
  if (!state?.totpEnabledAt || !state.totpSecret) throw new AppError('ERR_TWO_FACTOR_NOT_ENABLED');
  if (looksLikeTotpCode(code)) {
    const step = matchingStep(secretOf(ctx, state.totpSecret), code);
    if (step === undefined) throw new AppError('ERR_TWO_FACTOR_CODE_INVALID');
    if (!(await repo.acceptStep(ctx.db, userId, step))) throw new AppError('ERR_TWO_FACTOR_CODE_USED');
    return;
  }
  if (!(await repo.useRecoveryCode(ctx.db, userId, recoveryCodeHash(code), nowIso()))) throw new AppError('ERR_TWO_FACTOR_CODE_INVALID');
}

/** New recovery codes (the old ones stop working), for a user who gives a code. */
export async function regenerateRecoveryCodes(ctx: AppContext, userId: number, code: string): Promise<string[]> {
  await verifySecondFactor(ctx, userId, code);
  const codes = newRecoveryCodes();
  await repo.replaceRecoveryCodes(ctx.db, userId, codes.map(recoveryCodeHash), nowIso());
  return codes;
}

/**
 * Turning it off takes the password and a code, so a borrowed open browser cannot do it. The
 * user's other sign-ins end (whoever else held one is out); this one carries on.
 */
export async function disableTwoFactor(ctx: AppContext, userId: number, family: string | undefined, input: TTwoFactorDisable): Promise<void> {
  const user = await authUser(ctx, userId);
  const hash = await users.findPasswordHash(ctx.db, userId);
  if (!hash || !(await verifyPassword(hash, input.password))) throw new AppError('ERR_INVALID_CREDENTIALS');
  if (await twoFactorRequiredFor(ctx, user)) throw new AppError('ERR_TWO_FACTOR_REQUIRED');
  await verifySecondFactor(ctx, userId, input.code);
  await clear(ctx, userId);
  await endOtherSignIns(ctx, userId, family);
}

/**
 * An admin turns off someone else's second factor (a lost phone, no recovery code left). Their
 * sign-ins end: they sign in again with the password alone, or set it up again where it is
 * required. One's own is turned off in the profile, with the password and a code.
 */
export async function resetTwoFactor(ctx: AppContext, actorId: number, userId: number): Promise<void> {
  if (actorId === userId) throw new AppError('ERR_NO_PERMISSION');
  await authUser(ctx, userId);
  await clear(ctx, userId);
  await logout(ctx, userId);
}
