/**
 * One attempt at a delivery: a signed JSON POST, through the SSRF guard (address-policy.ts: a
 * host written as an address is judged before connecting, a name on every address DNS gives),
 * with a time limit and no redirect followed. Never throws: the outcome says what happened.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { WEBHOOK_RESPONSE_KEPT } from '@zapdesk/shared/webhooks';
import { AppError } from '../../core/errors.js';
import { addressRefusal, guardedLookup, literalAddress } from '../../core/net/address-policy.js';

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const ADDRESS_NOT_ALLOWED = 'address not allowed';

/** `sha256=` and the hex HMAC-SHA256 of `${timestamp}.${body}`, keyed by the endpoint's secret. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export type PostOutcome = { ok: boolean; responseStatus: number | null; responseBody: string | null; error: string | null; durationMs: number };

export type PostRequest = { url: string; secret: string; deliveryId: string; event: string; body: string; allowPrivate: boolean; timeoutMs?: number };

function errorText(error: unknown, timedOut: boolean): string {
  if (timedOut) return 'timeout';
  if (error instanceof AppError) return ADDRESS_NOT_ALLOWED;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET') return 'connection reset';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  const message = error instanceof Error ? error.message : String(error);
  return (code ? `${code}: ${message}` : message).slice(0, 500);
}

export async function postWebhook(request: PostRequest): Promise<PostOutcome> {
  const started = Date.now();
  const done = (outcome: Omit<PostOutcome, 'durationMs'>): PostOutcome => ({ ...outcome, durationMs: Date.now() - started });
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return done({ ok: false, responseStatus: null, responseBody: null, error: 'invalid address' });
  }
  const literal = literalAddress(url);
  if (literal !== undefined && addressRefusal(literal, request.allowPrivate)) return done({ ok: false, responseStatus: null, responseBody: null, error: ADDRESS_NOT_ALLOWED });
  const timestamp = Math.floor(Date.now() / 1000);
  const payload = Buffer.from(request.body, 'utf8');
  const headers = {
    'content-type': 'application/json',
    'content-length': String(payload.length),
    'user-agent': 'ZapDesk-Webhooks',
    'x-zapdesk-event': request.event,
    'x-zapdesk-delivery': request.deliveryId,
    'x-zapdesk-timestamp': String(timestamp),
    'x-zapdesk-signature': signWebhook(request.secret, timestamp, request.body),
  };
  const timeoutMs = request.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<PostOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve(done(outcome));
    };
    const req = send(url, { method: 'POST', agent: false, lookup: guardedLookup(request.allowPrivate), signal, headers }, (response) => {
      const status = response.statusCode ?? 0;
      let kept = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (kept.length < WEBHOOK_RESPONSE_KEPT) kept += chunk.slice(0, WEBHOOK_RESPONSE_KEPT - kept.length);
      });
      const end = () => {
        const ok = status >= 200 && status < 300;
        // A redirect is an answer, not a delivery: it is not followed (the target could be anywhere).
        finish({ ok, responseStatus: status, responseBody: kept, error: ok ? null : status >= 300 && status < 400 ? 'redirect not followed' : `HTTP ${status}` });
      };
      response.on('end', end);
      response.on('error', (error) => finish({ ok: false, responseStatus: status, responseBody: kept, error: errorText(error, signal.aborted) }));
      response.on('aborted', () => finish({ ok: false, responseStatus: status, responseBody: kept, error: errorText(new Error('aborted'), signal.aborted) }));
    });
    req.on('error', (error) => finish({ ok: false, responseStatus: null, responseBody: null, error: errorText(error, signal.aborted) }));
    req.end(payload);
  });
}
