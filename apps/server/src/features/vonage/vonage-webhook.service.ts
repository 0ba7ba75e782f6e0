/**
 * Vonage's webhooks, taken in this order: the signature (401 ERR_WEBHOOK_SIGNATURE), the
 * delivery's own time within WEBHOOK_FRESHNESS_SECONDS of ours (401 ERR_WEBHOOK_STALE), the body,
 * and the delivery not taken before (409 ERR_WEBHOOK_REPLAYED). A refused delivery changes nothing.
 */
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { readSecretSetting } from '../settings/settings.service.js';
import { applyReport } from './vonage.service.js';
import { forgetDelivery, rememberDelivery } from './webhook-replays.repository.js';
import { WEBHOOK_FRESHNESS_SECONDS, callEventKey, isFresh, parseWebhookBody, smsReceiptKey, smsReceiptTime, verifiedCallToken, verifySmsSignature } from './vonage-webhooks.js';

/**
 * How long a taken delivery is remembered: past this, its own time is out of the window
 * (a delivery dated up to the window ahead stays fresh for twice the window), so it is refused as stale.
 */
const REPLAY_MEMORY_MS = (2 * WEBHOOK_FRESHNESS_SECONDS + 60) * 1000;

/** Runs `apply` for a delivery not taken before; forgets it again when applying fails, so that Vonage's next try is taken. */
async function once(ctx: AppContext, key: string, apply: () => Promise<unknown>): Promise<void> {
  const now = Date.now();
  if (!(await rememberDelivery(ctx.db, key, new Date(now + REPLAY_MEMORY_MS).toISOString(), new Date(now).toISOString()))) throw new AppError('ERR_WEBHOOK_REPLAYED');
  try {
    await apply();
  } catch (error) {
    await forgetDelivery(ctx.db, key).catch(() => undefined);
    throw error;
  }
}

/** An SMS delivery receipt (the query of a GET, or the body of a POST, as parameters). */
export async function receiveSmsReceipt(ctx: AppContext, params: Record<string, string>): Promise<void> {
  const secret = await readSecretSetting(ctx, 'vonageSignatureSecret');
  if (!verifySmsSignature(params, secret)) throw new AppError('ERR_WEBHOOK_SIGNATURE');
  if (!isFresh(smsReceiptTime(params))) throw new AppError('ERR_WEBHOOK_STALE');
  const id = params.messageId ?? params['message-id'] ?? params.message_uuid;
  const status = params.status;
  await once(ctx, smsReceiptKey(params), async () => {
    if (id && status) await applyReport(ctx, 'sms', id, status);
  });
}

/** A call's status event: the raw body, checked against the token's hash before it is read. */
export async function receiveCallEvent(ctx: AppContext, request: { authorization: string | undefined; contentType: string | undefined; rawBody: string }): Promise<void> {
  const secret = await readSecretSetting(ctx, 'vonageSignatureSecret');
  const token = verifiedCallToken(request.authorization, request.rawBody, secret);
  if (!token) throw new AppError('ERR_WEBHOOK_SIGNATURE');
  if (!isFresh(token.iat)) throw new AppError('ERR_WEBHOOK_STALE');
  const event = parseWebhookBody(request.contentType, request.rawBody);
  await once(ctx, callEventKey(token), async () => {
    if (event.uuid && event.status) await applyReport(ctx, 'call', event.uuid, event.status);
  });
}
