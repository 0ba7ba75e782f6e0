/**
 * The browser a user signed in from: an httpOnly cookie set at each successful sign-in, naming
 * the user and signed with a key derived from the refresh-token secret. It grants nothing by
 * itself; it only lets the owner's own browser past the limits an attack on the account sets
 * for unknown addresses.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../core/context.js';

export const DEVICE_COOKIE = 'jdv';
const DEVICE_COOKIE_DAYS = 365;

function signature(ctx: AppContext, userId: number): Buffer {
  return createHmac('sha256', ctx.secrets.jwtRefreshSecret).update(`sign-in-device:${userId}`).digest();
}

export function writeDeviceMarker(ctx: AppContext, reply: FastifyReply, userId: number): void {
  const value = `${userId}.${signature(ctx, userId).toString('base64url')}`;
  reply.setCookie(DEVICE_COOKIE, value, { httpOnly: true, sameSite: 'lax', path: '/api/auth', secure: 'auto', maxAge: DEVICE_COOKIE_DAYS * 24 * 3600 });
}

/** The user whose browser this is, when the cookie is one this server signed. */
export function deviceUserId(ctx: AppContext, cookie: string | undefined): number | undefined {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(cookie ?? '');
  if (!match) return undefined;
  const userId = Number(match[1]);
  const given = Buffer.from(match[2] ?? '', 'base64url');
  const expected = signature(ctx, userId);
  return given.length === expected.length && timingSafeEqual(given, expected) ? userId : undefined;
}
