/**
 * Sends one claimed delivery and writes its outcome: delivered on a 2xx; otherwise tried again
 * after an exponential wait (WEBHOOK_RETRY_BASE_MS, doubled each time, at most an hour) until
 * the retry window ends, then failed.
 */
import type { AppContext } from '../../core/context.js';
import { nowIso } from '../../core/time.js';
import { reportWebhookAttempt, type WebhookAttemptOutcome } from './attempt-outcomes.js';
import * as deliveries from './deliveries.repository.js';
import type { EndpointRow } from './webhooks.repository.js';
import { postWebhook } from './webhook-post.js';
import { openSecret } from './webhooks.service.js';

export const MAX_RETRY_WAIT_MS = 60 * 60_000;

/** The wait after the `attempts`-th failed attempt: base, 2×base, 4×base ... at most an hour. */
export function retryWaitMs(baseMs: number, attempts: number): number {
  return Math.min(MAX_RETRY_WAIT_MS, baseMs * 2 ** Math.min(30, Math.max(0, attempts - 1)));
}

export async function sendClaimed(ctx: AppContext, delivery: deliveries.ClaimedDelivery, endpoint: EndpointRow): Promise<WebhookAttemptOutcome | undefined> {
  const result = await postWebhook({
    url: endpoint.url,
    secret: openSecret(ctx, endpoint.secret),
    deliveryId: delivery.id,
    event: delivery.event,
    body: delivery.body,
    allowPrivate: ctx.config.webhooks.allowPrivate,
  });
  const attempts = delivery.attempts + 1;
  const nowMs = Date.now();
  const now = nowIso();
  const retryUntilMs = Date.parse(delivery.retryUntil);
  const outcome: WebhookAttemptOutcome = result.ok ? 'delivered' : nowMs >= retryUntilMs ? 'failed' : 'retry';
  const next = outcome === 'retry' ? new Date(Math.min(nowMs + retryWaitMs(ctx.config.webhooks.retryBaseMs, attempts), retryUntilMs)).toISOString() : null;
  const written = await deliveries.finishAttempt(ctx.db, delivery.id, ctx.config.nodeId, {
    status: outcome === 'delivered' ? 'delivered' : outcome === 'failed' ? 'failed' : 'pending',
    attempts,
    nextAttemptAt: next,
    responseStatus: result.responseStatus,
    responseBody: result.responseBody,
    error: result.error,
    durationMs: result.durationMs,
    lastAttemptAt: now,
    ...(result.ok ? { deliveredAt: now } : {}),
  });
  // A claim lost meanwhile (this node was too slow, another took the row): that node writes the outcome.
  if (!written) return undefined;
  reportWebhookAttempt({
    webhookId: delivery.webhookId,
    deliveryId: delivery.id,
    event: delivery.event,
    outcome,
    responseStatus: result.responseStatus,
    error: result.error,
    durationMs: result.durationMs,
  });
  return outcome;
}
