/**
 * Vonage's signed webhooks. SMS delivery receipts carry `sig`: an HMAC-SHA256, with the
 * account's signature secret, of the other parameters sorted by name as `&name=value` ('&' and
 * '=' in values replaced by '_'), in hex, and `timestamp` (Unix time) among the signed ones.
 * Call events carry `Authorization: Bearer <JWT>` signed HS256 with the same secret, whose
 * `payload_hash` is the SHA-256 of the body and `iat` its time. Both are compared in constant
 * time; anything missing or wrong is refused. A delivery is taken only while it is fresh
 * (WEBHOOK_FRESHNESS_SECONDS either way of our clock) and only once (see vonage.service.ts).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { verifySignature } from '@vonage/jwt';
import { AppError } from '../../core/errors.js';

/**
 * How far a delivery's own time may be from the server's clock, either way. Older deliveries
 * (or ones dated ahead) are refused: a captured delivery cannot be played back later.
 */
export const WEBHOOK_FRESHNESS_SECONDS = 5 * 60;

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

/** Whether a delivery dated `seconds` (Unix time) is within the freshness window of now. */
export function isFresh(seconds: unknown, nowMs = Date.now()): boolean {
  return typeof seconds === 'number' && Number.isFinite(seconds) && Math.abs(nowMs / 1000 - seconds) <= WEBHOOK_FRESHNESS_SECONDS;
}

/** A receipt's signed `timestamp` in Unix seconds; undefined when missing or not a number. */
export function smsReceiptTime(params: Record<string, string>): number | undefined {
  const value = params.timestamp ?? '';
  return /^\d{1,12}$/.test(value) ? Number(value) : undefined;
}

export type CallToken = { token: string; iat: unknown; jti: unknown };

/** A call event's bearer token when it is signed with the secret and about this very body; else undefined. */
export function verifiedCallToken(authorization: string | undefined, rawBody: string, secret: string): CallToken | undefined {
  const token = /^Bearer ([\w-]+\.[\w-]+\.[\w-]+)$/.exec(authorization ?? '')?.[1];
  if (!secret || !token || !verifySignature(token, secret)) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof claims !== 'object' || claims === null) return undefined;
  const payloadHash = 'payload_hash' in claims ? claims.payload_hash : undefined;
  if (typeof payloadHash !== 'string' || !sameHex(payloadHash, createHash('sha256').update(rawBody).digest('hex'))) return undefined;
  return { token, iat: 'iat' in claims ? claims.iat : undefined, jti: 'jti' in claims ? claims.jti : undefined };
}

/** What makes a delivery the same delivery: a receipt's signature, a call event's token id (or the token itself). */
export function smsReceiptKey(params: Record<string, string>): string {
  return `vonage:sms:${(params.sig ?? '').toLowerCase()}`;
}

export function callEventKey(token: CallToken): string {
  if (typeof token.jti === 'string' && /^[\w.:-]{1,150}$/.test(token.jti)) return `vonage:call:${token.jti}`;
  return `vonage:call:${createHash('sha256').update(token.token).digest('hex')}`;
}

/** String parameters only (a repeated or nested one is dropped): what Vonage signs. */
export function flatParams(value: unknown): Record<string, string> {
  const params: Record<string, string> = {};
  if (typeof value !== 'object' || value === null) return params;
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string') params[key] = item;
    else if (typeof item === 'number' || typeof item === 'boolean') params[key] = String(item);
  }
  return params;
}

/** A webhook's body as parameters: a form, or a JSON object. */
export function parseWebhookBody(contentType: string | undefined, body: unknown): Record<string, string> {
  if (typeof body !== 'string' || body === '') return {};
  if ((contentType ?? '').includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(body));
  try {
    return flatParams(JSON.parse(body));
  } catch {
    throw new AppError('ERR_VALIDATION', { message: 'The body is not JSON.' });
  }
}
