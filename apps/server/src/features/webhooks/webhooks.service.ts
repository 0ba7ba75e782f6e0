/**
 * Outgoing webhooks: the endpoints admins register (address, events, secret) and their
 * deliveries (listed, shown, resent, pinged). The secret is sealed at rest and shown once.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  WEBHOOK_DELIVERIES_PAGE,
  WEBHOOK_EVENTS,
  WEBHOOK_PING_EVENT,
  type TWebhook,
  type TWebhookDelivery,
  type TWebhookDeliveryDetail,
  type TWebhookDeliveryList,
  type TWebhookInput,
  type TWebhookUpdate,
  type TWebhookWithSecret,
  type WebhookDeliveryStatus,
  type WebhookEvent,
} from '@zapdesk/shared/webhooks';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { addressRefusal, literalAddress } from '../../core/net/address-policy.js';
import { seal, unseal } from '../../core/secret-box.js';
import { nowIso } from '../../core/time.js';
import * as deliveries from './deliveries.repository.js';
import * as repo from './webhooks.repository.js';

/** Checks an address on save: http(s), no credentials, and not a private address written literally (unless allowed). */
export function checkWebhookUrl(ctx: AppContext, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AppError('ERR_WEBHOOK_URL_INVALID');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || !url.hostname) throw new AppError('ERR_WEBHOOK_URL_INVALID');
  const literal = literalAddress(url);
  if (literal !== undefined && addressRefusal(literal, ctx.config.webhooks.allowPrivate)) throw new AppError('ERR_WEBHOOK_URL_FORBIDDEN');
  return url.toString();
}

export function parseEvents(text: string): WebhookEvent[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  return Array.isArray(value) ? WEBHOOK_EVENTS.filter((event) => value.includes(event)) : [];
}

function eventsText(events: readonly string[]): string {
  return JSON.stringify(WEBHOOK_EVENTS.filter((event) => events.includes(event)));
}

function present(row: repo.WebhookRow): TWebhook {
  return {
    id: row.id,
    url: row.url,
    events: parseEvents(row.events),
    enabled: row.enabled === 1,
    secretHint: row.secretHint,
    pendingCount: row.pendingCount,
    failedCount: row.failedCount,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function presentDelivery(row: deliveries.DeliveryRow): TWebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhookId,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    error: row.error,
    durationMs: row.durationMs,
    createdAt: row.createdAt,
    lastAttemptAt: row.lastAttemptAt,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt : null,
    deliveredAt: row.deliveredAt,
  };
}

/** The endpoint's secret in the clear, for signing. */
export function openSecret(ctx: AppContext, sealed: string): string {
  return unseal(ctx.secrets.settingsKey, sealed);
}

function sealedSecret(ctx: AppContext, secret: string): { secret: string; secretHint: string } {
  return { secret: seal(ctx.secrets.settingsKey, secret), secretHint: secret.slice(-4) };
}

async function found(ctx: AppContext, id: number): Promise<repo.WebhookRow> {
  const row = await repo.findWebhook(ctx.db, id);
  if (!row) throw new AppError('ERR_NO_WEBHOOK_FOUND');
  return row;
}

export async function listWebhooks(ctx: AppContext): Promise<TWebhook[]> {
  return (await repo.listWebhooks(ctx.db)).map(present);
}

export async function createWebhook(ctx: AppContext, input: TWebhookInput): Promise<TWebhookWithSecret> {
  const url = checkWebhookUrl(ctx, input.url);
  const secret = input.secret ?? randomBytes(32).toString('hex');
  const now = nowIso();
  const id = await repo.insertWebhook(ctx.db, { url, events: eventsText(input.events), enabled: input.enabled === false ? 0 : 1, ...sealedSecret(ctx, secret), createdAt: now, updatedAt: now });
  return { ...present(await found(ctx, id)), secret };
}

export async function updateWebhook(ctx: AppContext, id: number, input: TWebhookUpdate): Promise<TWebhook> {
  await found(ctx, id);
  const patch = {
    ...(input.url !== undefined ? { url: checkWebhookUrl(ctx, input.url) } : {}),
    ...(input.events !== undefined ? { events: eventsText(input.events) } : {}),
    ...(input.enabled !== undefined ? { enabled: input.enabled ? 1 : 0 } : {}),
    updatedAt: nowIso(),
  };
  await repo.updateWebhook(ctx.db, id, patch);
  return present(await found(ctx, id));
}

export async function deleteWebhook(ctx: AppContext, id: number): Promise<void> {
  if (!(await repo.deleteWebhook(ctx.db, id))) throw new AppError('ERR_NO_WEBHOOK_FOUND');
}

export async function rotateSecret(ctx: AppContext, id: number): Promise<TWebhookWithSecret> {
  await found(ctx, id);
  const secret = randomBytes(32).toString('hex');
  await repo.updateWebhook(ctx.db, id, { ...sealedSecret(ctx, secret), updatedAt: nowIso() });
  return { ...present(await found(ctx, id)), secret };
}

export function retryUntil(ctx: AppContext, fromMs = Date.now()): string {
  return new Date(fromMs + ctx.config.webhooks.retryWindowMs).toISOString();
}

/** A delivery row for an event, its body fixed now: `{ id, event, timestamp, data }`. */
export function newDelivery(ctx: AppContext, webhookId: number, event: string, data: unknown, orderKey: string | null, now: string) {
  const id = randomUUID();
  return {
    id,
    webhookId,
    event,
    orderKey,
    body: JSON.stringify({ id, event, timestamp: now, data }),
    status: 'pending' as const,
    attempts: 0,
    nextAttemptAt: now,
    retryUntil: retryUntil(ctx, Date.parse(now)),
    createdAt: now,
  };
}

/** A 'ping' delivery, stored and sent like the others. */
export async function pingWebhook(ctx: AppContext, id: number): Promise<TWebhookDelivery> {
  const webhook = await found(ctx, id);
  const now = nowIso();
  const row = newDelivery(ctx, id, WEBHOOK_PING_EVENT, { webhookId: id, url: webhook.url, events: parseEvents(webhook.events) }, null, now);
  await deliveries.insertDeliveries(ctx.db, [row]);
  ctx.events.publish('webhook.queued', { count: 1 });
  return deliveryOf(ctx, id, row.id);
}

async function deliveryOf(ctx: AppContext, webhookId: number, deliveryId: string): Promise<TWebhookDelivery> {
  return presentDelivery(await foundDelivery(ctx, webhookId, deliveryId));
}

async function foundDelivery(ctx: AppContext, webhookId: number, deliveryId: string): Promise<deliveries.DeliveryRow> {
  await found(ctx, webhookId);
  const row = await deliveries.findDelivery(ctx.db, webhookId, deliveryId);
  if (!row) throw new AppError('ERR_NO_WEBHOOK_DELIVERY_FOUND');
  return row;
}

export async function listDeliveries(ctx: AppContext, id: number, query: { status?: WebhookDeliveryStatus; pageNumber: number }): Promise<TWebhookDeliveryList> {
  await found(ctx, id);
  const rows = await deliveries.listDeliveries(ctx.db, id, query.status, query.pageNumber, WEBHOOK_DELIVERIES_PAGE);
  return { deliveries: rows.slice(0, WEBHOOK_DELIVERIES_PAGE).map(presentDelivery), hasMore: rows.length > WEBHOOK_DELIVERIES_PAGE };
}

export async function deliveryDetail(ctx: AppContext, id: number, deliveryId: string): Promise<TWebhookDeliveryDetail> {
  const row = await foundDelivery(ctx, id, deliveryId);
  return { ...presentDelivery(row), body: row.body, responseBody: row.responseBody };
}

/** Back to pending, due now, same id and body; a fresh retry window; attempts go on counting. */
export async function resendDelivery(ctx: AppContext, id: number, deliveryId: string): Promise<TWebhookDelivery> {
  await foundDelivery(ctx, id, deliveryId);
  const now = nowIso();
  await deliveries.resendDelivery(ctx.db, id, deliveryId, now, retryUntil(ctx));
  ctx.events.publish('webhook.queued', { count: 1 });
  return deliveryOf(ctx, id, deliveryId);
}
