/**
 * Route guards: who is calling (bearer access token) and whether they may. They run onRequest,
 * before the body is read and validated: a caller without the right sees 401/403, never field errors.
 */
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { isAdminProfile } from '@zapdesk/shared/domain';
import type { AppContext } from '../context.js';
import { AppError } from '../errors.js';
import type { AuthUser } from '../auth/identity.js';

declare module 'fastify' {
  interface FastifyRequest {
    authUser: AuthUser | null;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

/** Resolves an access token to its user: 403 ERR_SESSION_EXPIRED when expired, 401 otherwise. */
export async function userFromAccessToken(ctx: AppContext, token: string | undefined): Promise<AuthUser> {
  if (!token) throw new AppError('ERR_INVALID_TOKEN');
  const result = await ctx.tokens.verifyAccess(token);
  if (!result.ok) throw new AppError(result.reason === 'expired' ? 'ERR_SESSION_EXPIRED' : 'ERR_INVALID_TOKEN');
  const { family } = result.claims;
  const { user, revoked } = await ctx.identity.session(result.claims.userId, family || undefined);
  if (!user) throw new AppError('ERR_INVALID_TOKEN');
  // A sign-in whose refresh token was copied and used twice is over, its access tokens too.
  if (revoked) throw new AppError('ERR_SESSION_EXPIRED');
  // A token from before a logout or password change has expired early: the client refreshes
  // once, which works only where the refresh cookie is current (the browser that changed the
  // password) and ends the session everywhere else.
  if (user.tokenVersion !== result.claims.tokenVersion) throw new AppError('ERR_SESSION_EXPIRED');
  return user;
}

export function authenticate(ctx: AppContext): onRequestAsyncHookHandler {
  return async (request: FastifyRequest) => {
    request.authUser = await userFromAccessToken(ctx, bearerToken(request));
  };
}

export function requireAdmin(ctx: AppContext): onRequestAsyncHookHandler {
  const auth = authenticate(ctx);
  return async function (this: unknown, request: FastifyRequest, reply: FastifyReply) {
    await auth.call(this as never, request, reply);
    if (!isAdmin(request)) throw new AppError('ERR_NO_PERMISSION');
  };
}

/** The authenticated user of a request that passed `authenticate`. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw new AppError('ERR_INVALID_TOKEN');
  return request.authUser;
}

export function isAdmin(request: FastifyRequest): boolean {
  return request.authUser !== null && isAdminProfile(request.authUser.profile);
}
