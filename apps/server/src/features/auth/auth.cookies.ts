import type { FastifyReply } from 'fastify';
import { decodeJwt } from 'jose';
import type { AppContext } from '../../core/context.js';
import { findAuthUserById } from '../users/users.repository.js';

export const REFRESH_COOKIE = 'jrt';
const COOKIE_PATH = '/api/auth';

/** Issues a fresh refresh cookie for the user's current token version. */
export async function setRefreshCookie(ctx: AppContext, reply: FastifyReply, userId: number): Promise<void> {
  const user = await findAuthUserById(ctx.db, userId);
  if (!user) return;
  const token = await ctx.tokens.signRefresh({ userId, tokenVersion: user.tokenVersion });
  // The cookie lives exactly as long as the token inside it.
  const { exp } = decodeJwt(token);
  const maxAge = typeof exp === 'number' ? Math.max(0, exp - Math.floor(Date.now() / 1000)) : undefined;
  reply.setCookie(REFRESH_COOKIE, token, { httpOnly: true, sameSite: 'lax', path: COOKIE_PATH, secure: 'auto', ...(maxAge === undefined ? {} : { maxAge }) });
}

export function clearRefreshCookie(reply: FastifyReply): void {
  reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
}
