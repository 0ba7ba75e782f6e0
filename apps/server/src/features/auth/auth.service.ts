import type { TLogin, TLoginResponse, TSignup, TUser } from '@zapdesk/shared/schemas';
import { hashPassword, verifyPassword } from '../../core/auth/password.js';
import { randomToken } from '../../core/secrets.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { getSettingValue } from '../settings/settings.repository.js';
import * as users from '../users/users.repository.js';
import { createUser } from '../users/users.service.js';

// Verifying against a real hash when the email is unknown keeps the timing of both failures alike.
let dummyHash: Promise<string> | undefined;
function unknownUserHash(): Promise<string> {
  dummyHash ??= hashPassword(randomToken());
  return dummyHash;
}

export async function login(ctx: AppContext, input: TLogin): Promise<TLoginResponse & { userId: number }> {
  const creds = await users.findCredentialsByEmail(ctx.db, input.email);
  const ok = await verifyPassword(creds?.passwordHash ?? (await unknownUserHash()), input.password);
  if (!creds || !ok) throw new AppError('ERR_INVALID_CREDENTIALS');
  return issueSession(ctx, creds.id);
}

export async function issueSession(ctx: AppContext, userId: number): Promise<TLoginResponse & { userId: number }> {
  const auth = await users.findAuthUserById(ctx.db, userId);
  const user = await users.findUserById(ctx.db, userId);
  if (!auth || !user) throw new AppError('ERR_INVALID_TOKEN');
  const token = await ctx.tokens.signAccess({ userId, tokenVersion: auth.tokenVersion });
  return { token, user, userId };
}

export async function refresh(ctx: AppContext, refreshToken: string | undefined): Promise<TLoginResponse & { userId: number }> {
  if (!refreshToken) throw new AppError('ERR_INVALID_TOKEN');
  const result = await ctx.tokens.verifyRefresh(refreshToken);
  if (!result.ok) throw new AppError('ERR_INVALID_TOKEN');
  const auth = await users.findAuthUserById(ctx.db, result.claims.userId);
  if (!auth || auth.tokenVersion !== result.claims.tokenVersion) throw new AppError('ERR_INVALID_TOKEN');
  return issueSession(ctx, auth.id);
}

export async function signup(ctx: AppContext, input: TSignup): Promise<TUser> {
  if ((await getSettingValue(ctx.db, 'userCreation')) !== 'enabled') throw new AppError('ERR_USER_CREATION_DISABLED');
  return createUser(ctx, { ...input, profile: 'user', queueIds: [], whatsappId: null });
}

/** Ends every session of the user: refresh cookies and access tokens issued before stop working. */
export async function logout(ctx: AppContext, userId: number): Promise<void> {
  await users.bumpTokenVersion(ctx.db, userId);
  ctx.events.publish('user.sessionsRevoked', { userId });
}
