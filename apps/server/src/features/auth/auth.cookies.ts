import type { FastifyReply } from 'fastify';
import { decodeJwt } from 'jose';
import type { AppContext } from '../../core/context.js';
import { startSession } from './auth.service.js';
import { findTotpState } from './two-factor.repository.js';

export const REFRESH_COOKIE = 'jrt';
const COOKIE_PATH = '/api/auth';

/** Puts a refresh token in its httpOnly cookie, which lives exactly as long as the token. */
export function writeRefreshCookie(reply: FastifyReply, token: string): void {
  const { exp } = decodeJwt(token);
  const maxAge = typeof exp === 'number' ? Math.max(0, exp - Math.floor(Date.now() / 1000)) : undefined;
  reply.setCookie(REFRESH_COOKIE, token, { httpOnly: true, sameSite: 'lax', path: COOKIE_PATH, secure: 'auto', ...(maxAge === undefined ? {} : { maxAge }) });
}

/**
 * Starts a new sign-in for the user (a new refresh family) and sets its cookie: the signed-in
 * user's own browser after a password change. With two-factor sign-in on, that browser passed
 * it: turning it on ends every sign-in that had not.
 */
export async function setRefreshCookie(ctx: AppContext, reply: FastifyReply, userId: number): Promise<void> {
  const secondFactor = Boolean((await findTotpState(ctx.db, userId))?.totpEnabledAt);
  writeRefreshCookie(reply, (await startSession(ctx, userId, { secondFactor })).refreshToken);
}

export function clearRefreshCookie(reply: FastifyReply): void {
  reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
}
