/**
 * Vonage's signed webhooks. SMS delivery receipts carry `sig`: an HMAC-SHA256, with the
 * account's signature secret, of the other parameters sorted by name as `&name=value` ('&' and
 * '=' in values replaced by '_'), in hex. Call events carry `Authorization: Bearer <JWT>` signed
 * HS256 with the same secret, whose `payload_hash` is the SHA-256 of the body. Both are
 * compared in constant time; anything missing or wrong is refused.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { verifySignature } from '@vonage/jwt';

function sameHex(a: string, b: string): boolean {
  const left = Buffer.from(a.toLowerCase());
  const right = Buffer.from(b.toLowerCase());
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The string Vonage signs for an SMS webhook. */
export function signedSmsQuery(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((key) => key !== 'sig')
    .sort()
    .map((key) => `&${key}=${(params[key] ?? '').replace(/[&=]/g, '_')}`)
    .join('');
}

export function smsSignature(params: Record<string, string>, secret: string): string {
  return createHmac('sha256', secret).update(signedSmsQuery(params)).digest('hex');
}

export function verifySmsSignature(params: Record<string, string>, secret: string): boolean {
  const sig = params.sig;
  if (!secret || typeof sig !== 'string' || !/^[0-9a-fA-F]{64}$/.test(sig)) return false;
  return sameHex(sig, smsSignature(params, secret));
}

/** A call event's bearer token: signed with the secret, and about this very body. */
export function verifyCallSignature(authorization: string | undefined, rawBody: string, secret: string): boolean {
  const token = /^Bearer ([\w-]+\.[\w-]+\.[\w-]+)$/.exec(authorization ?? '')?.[1];
  if (!secret || !token || !verifySignature(token, secret)) return false;
  let claims: { payload_hash?: unknown };
  try {
    claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { payload_hash?: unknown };
  } catch {
    return false;
  }
  if (typeof claims.payload_hash !== 'string') return false;
  return sameHex(claims.payload_hash, createHash('sha256').update(rawBody).digest('hex'));
}
