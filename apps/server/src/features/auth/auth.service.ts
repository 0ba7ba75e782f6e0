import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { PERMISSIONS } from '@zapdesk/shared/permissions';
import type { TLogin, TLoginResponse, TSignup, TUser } from '@zapdesk/shared/schemas';
import type { TTwoFactorPending } from '@zapdesk/shared/two-factor';
import { hashPassword, isLegacyHash, verifyPassword } from '../../core/auth/password.js';
import { meetsPasswordPolicy } from '../../core/auth/password-policy.js';
import { nowIso } from '../../core/time.js';
import { randomToken } from '../../core/secrets.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { getSettingValue } from '../settings/settings.repository.js';
import * as users from '../users/users.repository.js';
import { createUser } from '../users/users.service.js';
import * as families from './refresh-families.repository.js';
import type { LoginAttempt, LoginGuard } from './login-guard.js';
import { secondFactorOwed } from './two-factor-login.service.js';

/** A sign-in's tokens: the access token, the user, and the refresh token for the cookie. */
export type Session = TLoginResponse & { userId: number; refreshToken: string };

/**
 * Two tabs of one browser refreshing at the same moment present the same cookie: the one that
 * loses the race still gets the family's current token within this window. Past it, a replaced
 * token presented again means a copy, and revokes the family.
 */
export const ROTATION_GRACE_MS = 10_000;

function expiryOf(token: string): string {
  const { exp } = decodeJwt(token);
  return new Date((typeof exp === 'number' ? exp : Date.now() / 1000) * 1000).toISOString();
}

// Verifying against a real hash when the email is unknown keeps the timing of both failures alike.
let dummyHash: Promise<string> | undefined;
function unknownUserHash(): Promise<string> {
  dummyHash ??= hashPassword(randomToken());
  return dummyHash;
}

/**
 * Signs in with e-mail and password: the session, or a challenge when a second factor is owed
 * first (two-factor-login.service.ts). A failure is counted by the guard (which the route asked
 * first whether the attempt may be tried). A password below today's policy still signs in, and
 * marks the account so that the app asks for a new one: only now is the plain password known.
 */
export async function login(ctx: AppContext, guard: LoginGuard, input: TLogin, attempt: LoginAttempt): Promise<Session | TTwoFactorPending> {
  const creds = await users.findCredentialsByEmail(ctx.db, input.email);
  const ok = await verifyPassword(creds?.passwordHash ?? (await unknownUserHash()), input.password);
  if (!creds || !ok) {
    await guard.failed(attempt, creds?.id);
    throw new AppError('ERR_INVALID_CREDENTIALS');
  }
  // A whaticket (bcrypt) hash carried by the importer: replaced by argon2 now that the password is known.
  if (isLegacyHash(creds.passwordHash)) await users.replacePasswordHash(ctx.db, creds.id, creds.passwordHash, await hashPassword(input.password));
  const belowPolicy = !meetsPasswordPolicy(input.password);
  if (belowPolicy !== (await users.isPasswordChangeRequired(ctx.db, creds.id))) await users.setPasswordChangeRequired(ctx.db, creds.id, belowPolicy);
  const pending = await secondFactorOwed(ctx, creds.id);
  if (pending) return pending;
  const failedAttempts = await guard.succeeded(attempt, creds.id);
  const session = await startSession(ctx, creds.id);
  return failedAttempts ? { ...session, failedAttempts } : session;
}

/**
 * A new sign-in: a new refresh family, its first token, and an access token naming the family.
 * The family records whether the sign-in passed a second factor.
 */
export async function startSession(ctx: AppContext, userId: number, options: { secondFactor?: boolean } = {}): Promise<Session> {
  const auth = await users.findAuthUserById(ctx.db, userId);
  if (!auth) throw new AppError('ERR_INVALID_TOKEN');
  const family = randomUUID();
  const jti = randomUUID();
  const refreshToken = await ctx.tokens.signRefresh({ userId, tokenVersion: auth.tokenVersion, family, jti });
  const now = nowIso();
  await families.deleteExpiredFamilies(ctx.db, now);
  await families.createFamily(ctx.db, { id: family, userId, jti, expiresAt: expiryOf(refreshToken), secondFactor: options.secondFactor ?? false }, now);
  return { ...(await accessFor(ctx, userId, auth.tokenVersion, family)), refreshToken };
}

async function accessFor(ctx: AppContext, userId: number, tokenVersion: number, family: string): Promise<TLoginResponse & { userId: number }> {
  const [user, auth] = await Promise.all([users.findUserById(ctx.db, userId), users.findAuthUserById(ctx.db, userId)]);
  if (!user || !auth) throw new AppError('ERR_INVALID_TOKEN');
  const passwordChangeRequired = await users.isPasswordChangeRequired(ctx.db, userId);
  // What the user may use, for the web app's menu (the server checks each call all the same).
  const permissions = PERMISSIONS.filter((p) => auth.permissions.has(p));
  return { token: await ctx.tokens.signAccess({ userId, tokenVersion, family }), user, permissions, userId, passwordChangeRequired };
}

/**
 * Exchanges a refresh token for new tokens. Each token id is valid once: the family's current id
 * is replaced by a new one. A replaced id presented again (past a short grace for two tabs
 * racing) means the cookie was copied: the family is revoked, so both copies stop working.
 */
export async function refresh(ctx: AppContext, refreshToken: string | undefined): Promise<Session> {
  if (!refreshToken) throw new AppError('ERR_INVALID_TOKEN');
  const result = await ctx.tokens.verifyRefresh(refreshToken);
  if (!result.ok) throw new AppError('ERR_INVALID_TOKEN');
  const { userId, tokenVersion, family: familyId, jti } = result.claims;
  if (!familyId || !jti) throw new AppError('ERR_INVALID_TOKEN');
  const auth = await users.findAuthUserById(ctx.db, userId);
  if (!auth || auth.tokenVersion !== tokenVersion) throw new AppError('ERR_INVALID_TOKEN');
  const family = await families.findFamily(ctx.db, familyId);
  if (!family || family.userId !== userId || family.revokedAt) throw new AppError('ERR_INVALID_TOKEN');
  const now = nowIso();

  const nextJti = randomUUID();
  const next = await ctx.tokens.signRefresh({ userId, tokenVersion, family: familyId, jti: nextJti });
  if (family.currentJti === jti && (await families.rotateFamily(ctx.db, familyId, jti, nextJti, expiryOf(next), now))) {
    return { ...(await accessFor(ctx, userId, tokenVersion, familyId)), refreshToken: next };
  }
  const current = await families.findFamily(ctx.db, familyId);
  const racing = current && !current.revokedAt && current.previousJti === jti && current.rotatedAt !== null && Date.now() - Date.parse(current.rotatedAt) < ROTATION_GRACE_MS;
  if (!racing) {
    await families.revokeFamily(ctx.db, familyId, now);
    throw new AppError('ERR_INVALID_TOKEN');
  }
  const same = await ctx.tokens.signRefresh({ userId, tokenVersion, family: familyId, jti: current.currentJti });
  return { ...(await accessFor(ctx, userId, tokenVersion, familyId)), refreshToken: same };
}

export async function signup(ctx: AppContext, input: TSignup): Promise<TUser> {
  if ((await getSettingValue(ctx.db, 'userCreation')) !== 'enabled') throw new AppError('ERR_USER_CREATION_DISABLED');
  return createUser(ctx, { ...input, profile: 'user', queueIds: [], whatsappId: null });
}

/** Ends every session of the user: refresh cookies and access tokens issued before stop working. */
export async function logout(ctx: AppContext, userId: number): Promise<void> {
  await users.bumpTokenVersion(ctx.db, userId);
  await families.revokeFamiliesOfUser(ctx.db, userId, nowIso());
  ctx.events.publish('user.sessionsRevoked', { userId });
}
