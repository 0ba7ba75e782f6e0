/**
 * Signing in with a second factor. A right password earns a challenge instead of a session when
 * a code is owed (TOTP on) or the set-up is (required, not set up yet). The challenge is a random
 * token kept hashed, bound to the user's token version (a sign-out or password change voids it),
 * with a deadline and a few attempts; its success spends it and starts the session.
 */
import { createHash } from 'node:crypto';
import { TWO_FACTOR, type TLoginWithRecoveryCodes, type TTwoFactorPending, type TTwoFactorSetup } from '@zapdesk/shared/two-factor';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { randomToken } from '../../core/secrets.js';
import { nowIso } from '../../core/time.js';
import * as users from '../users/users.repository.js';
import { startSession, type Session } from './auth.service.js';
import { twoFactorRequiredFor } from './two-factor-policy.js';
import * as repo from './two-factor.repository.js';
import { beginSetup, enableTwoFactor, endOtherSignIns, verifySecondFactor } from './two-factor.service.js';

function challengeId(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

async function newChallenge(ctx: AppContext, userId: number, tokenVersion: number, purpose: repo.ChallengePurpose): Promise<string> {
  const token = randomToken(32);
  const seconds = purpose === 'setup' ? TWO_FACTOR.setupChallengeSeconds : TWO_FACTOR.challengeSeconds;
  const expiresAt = new Date(Date.now() + seconds * 1000).toISOString();
  await repo.insertChallenge(ctx.db, { id: challengeId(token), userId, tokenVersion, purpose, expiresAt }, nowIso());
  return token;
}

/** What a right password leads to: a challenge when a second factor is owed, else nothing (the session starts). */
export async function secondFactorOwed(ctx: AppContext, userId: number): Promise<TTwoFactorPending | undefined> {
  const [user, state] = await Promise.all([users.findAuthUserById(ctx.db, userId), repo.findTotpState(ctx.db, userId)]);
  if (!user) throw new AppError('ERR_INVALID_CREDENTIALS');
  if (state?.totpEnabledAt) return { twoFactorRequired: true, challenge: await newChallenge(ctx, userId, user.tokenVersion, 'verify') };
  if (await twoFactorRequiredFor(ctx, user)) return { twoFactorSetupRequired: true, challenge: await newChallenge(ctx, userId, user.tokenVersion, 'setup') };
  return undefined;
}

/** The live challenge of that token and purpose; an unknown, expired or voided one answers ERR_TWO_FACTOR_CHALLENGE_EXPIRED. */
async function openChallenge(ctx: AppContext, token: string, purpose: repo.ChallengePurpose): Promise<repo.Challenge> {
  const challenge = await repo.findChallenge(ctx.db, challengeId(token));
  if (!challenge || challenge.purpose !== purpose || challenge.expiresAt <= nowIso()) throw new AppError('ERR_TWO_FACTOR_CHALLENGE_EXPIRED');
  const user = await users.findAuthUserById(ctx.db, challenge.userId);
  if (!user || user.tokenVersion !== challenge.tokenVersion) throw new AppError('ERR_TWO_FACTOR_CHALLENGE_EXPIRED');
  return challenge;
}

/** Each code tried costs one of the challenge's attempts; past the last, the challenge is gone. */
async function attempt(ctx: AppContext, challenge: repo.Challenge): Promise<void> {
  if (await repo.countAttempt(ctx.db, challenge.id, TWO_FACTOR.challengeAttempts)) return;
  await repo.deleteChallenge(ctx.db, challenge.id);
  throw new AppError('ERR_TWO_FACTOR_CHALLENGE_EXPIRED');
}

/** Spends the challenge: of two requests racing with it, one gets the session. */
async function spend(ctx: AppContext, challenge: repo.Challenge): Promise<void> {
  if (!(await repo.deleteChallenge(ctx.db, challenge.id))) throw new AppError('ERR_TWO_FACTOR_CHALLENGE_EXPIRED');
}

/** POST /auth/login/2fa: the challenge and a code (or a recovery code) give the session. */
export async function loginWithSecondFactor(ctx: AppContext, input: { challenge: string; code: string }): Promise<Session> {
  const challenge = await openChallenge(ctx, input.challenge, 'verify');
  await attempt(ctx, challenge);
  await verifySecondFactor(ctx, challenge.userId, input.code);
  await spend(ctx, challenge);
  return startSession(ctx, challenge.userId, { secondFactor: true });
}

/** POST /auth/login/2fa/setup: a user who must set it up gets their secret with the challenge. */
export async function setupWithChallenge(ctx: AppContext, input: { challenge: string }): Promise<TTwoFactorSetup> {
  const challenge = await openChallenge(ctx, input.challenge, 'setup');
  return beginSetup(ctx, challenge.userId);
}

/** POST /auth/login/2fa/enable: the first code turns it on and starts the session; the recovery codes come once. */
export async function enableWithChallenge(ctx: AppContext, input: { challenge: string; code: string }): Promise<TLoginWithRecoveryCodes & { refreshToken: string }> {
  const challenge = await openChallenge(ctx, input.challenge, 'setup');
  await attempt(ctx, challenge);
  const recoveryCodes = await enableTwoFactor(ctx, challenge.userId, input.code);
  await spend(ctx, challenge);
  // As from the profile: the sign-ins that did not pass it end (this one starts after).
  await endOtherSignIns(ctx, challenge.userId, undefined);
  const { token, user, permissions, refreshToken, passwordChangeRequired } = await startSession(ctx, challenge.userId, { secondFactor: true });
  return { token, user, permissions, passwordChangeRequired, recoveryCodes, refreshToken };
}
