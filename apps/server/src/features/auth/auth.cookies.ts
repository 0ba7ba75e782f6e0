import type { FastifyReply } from 'fastify';
import { decodeJwt } from 'jose';
import type { AppContext } from '../../core/context.js';
import { startSession } from './auth.service.js';

export const REFRESH_COOKIE = 'jrt';
const COOKIE_PATH = '/api/auth';

/** Puts a refresh token in its httpOnly cookie, which lives exactly as long as the token. */
export function writeRefreshCookie(reply: FastifyReply, token: string): void {
  const { exp } = decodeJwt(token);
  const maxAge = typeof exp === 'number' ? Math.max(0, exp - Math.floor(Date.now() / 1000)) : undefined;
  reply.setCookie(REFRESH_COOKIE, token, { httpOnly: true, sameSite: 'lax', path: COOKIE_PATH, secure: 'auto', ...(maxAge === undefined ? {} : { maxAge }) });
}

/** Starts a new sign-in for the user (a new refresh family) and sets its cookie. */
export async function setRefreshCookie(ctx: AppContext, reply: FastifyReply, userId: number): Promise<void> {
  writeRefreshCookie(reply, (await startSession(ctx, userId)).refreshToken);
}

export function clearRefreshCookie(reply: FastifyReply): void {
  reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
}
