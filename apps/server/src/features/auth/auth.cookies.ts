import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { findAuthUserById } from '../users/users.repository.js';

export const REFRESH_COOKIE = 'jrt';
const COOKIE_PATH = '/api/auth';

/** Issues a fresh refresh cookie for the user's current token version. */
export async function setRefreshCookie(ctx: AppContext, reply: FastifyReply, userId: number): Promise<void> {
  const user = await findAuthUserById(ctx.db, userId);
  if (!user) return;
  const token = await ctx.tokens.signRefresh({ userId, tokenVersion: user.tokenVersion });
  reply.setCookie(REFRESH_COOKIE, token, { httpOnly: true, sameSite: 'lax', path: COOKIE_PATH, secure: 'auto', maxAge: 60 * 60 * 24 * 30 });
}

export function clearRefreshCookie(reply: FastifyReply): void {
  reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
}
