/**
 * Outgoing webhooks: endpoints an admin registers (address, events, secret) and the deliveries
 * the server stores, then sends, signed, retried for a day, in order per ticket.
 *
 * A delivery's body: `{ id, event, timestamp, data }` as JSON. Headers:
 * - `X-ZapDesk-Event`: the event name; `X-ZapDesk-Delivery`: the delivery id (also `id` in the
 *   body; the same on every attempt and on a resend, for the receiver's de-duplication);
 * - `X-ZapDesk-Timestamp`: the attempt's time in Unix seconds;
 * - `X-ZapDesk-Signature`: `sha256=` and the hex HMAC-SHA256, keyed by the endpoint's secret,
 *   of `${timestamp}.${body}` (the raw body as sent).
 */
import { z } from 'zod';
import { MAX_ID } from './domain.js';

export const WEBHOOK_EVENTS = [
  'ticket.created',
  'ticket.updated',
  'ticket.closed',
  'message.created',
  'message.ack',
  'contact.created',
  'contact.updated',
  'campaign.finished',
  'connection.status',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** Sent on demand from the page ('Enviar teste'), to whatever events the endpoint listens to. */
export const WEBHOOK_PING_EVENT = 'ping';

export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_SECRET_MIN = 16;
export const WEBHOOK_SECRET_MAX = 200;
/** A delivery is tried with exponential back-off until this long after it was stored, then marked failed. */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;

export const ZWebhookSchema = z.object({
  id: z.number(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  /** The last four characters of the secret, for the admin to recognise it; the secret itself is shown once. */
  secretHint: z.string(),
  /** Deliveries still to be sent (pending) and given up after a day (failed). */
  pendingCount: z.number(),
  failedCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TWebhook = z.infer<typeof ZWebhookSchema>;

/** POST /webhooks and POST /webhooks/{id}/secret answer with the secret, this once. */
export const ZWebhookWithSecretSchema = ZWebhookSchema.extend({ secret: z.string() });
export type TWebhookWithSecret = z.infer<typeof ZWebhookWithSecretSchema>;

export const ZWebhookInputSchema = z.object({
  url: z.string('INVALID').trim().min(1, 'REQUIRED').max(WEBHOOK_URL_MAX, 'TOO_LONG'),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, 'INVALID'), 'INVALID')
    .min(1, 'REQUIRED')
    .max(WEBHOOK_EVENTS.length * 2, 'TOO_LONG'),
  enabled: z.boolean('INVALID').optional(),
  /** Given by the admin (an integration that already has one), or generated when absent. */
  secret: z.string('INVALID').trim().min(WEBHOOK_SECRET_MIN, 'TOO_SHORT').max(WEBHOOK_SECRET_MAX, 'TOO_LONG').optional(),
});
export type TWebhookInput = z.input<typeof ZWebhookInputSchema>;
export const ZWebhookUpdateSchema = ZWebhookInputSchema.omit({ secret: true }).partial();
export type TWebhookUpdate = z.input<typeof ZWebhookUpdateSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const ZWebhookDeliverySchema = z.object({
  /** The delivery id (a UUID), sent as `id` and `X-ZapDesk-Delivery`. */
  id: z.string(),
  webhookId: z.number(),
  event: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number(),
  /** The last attempt's HTTP status, null when it got none (refused, timed out, address not allowed). */
  responseStatus: z.number().nullable(),
  /** The last attempt's error in words (timeout, connection refused, address not allowed), or null. */
  error: z.string().nullable(),
  /** How long the last attempt took, in milliseconds. */
  durationMs: z.number().nullable(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type TWebhookDelivery = z.infer<typeof ZWebhookDeliverySchema>;

/** GET /webhooks/{id}/deliveries/{deliveryId}: also the body sent and the start of the answer. */
export const ZWebhookDeliveryDetailSchema = ZWebhookDeliverySchema.extend({ body: z.string(), responseBody: z.string().nullable() });
export type TWebhookDeliveryDetail = z.infer<typeof ZWebhookDeliveryDetailSchema>;

/** At most this much of a receiver's answer is kept. */
export const WEBHOOK_RESPONSE_KEPT = 2000;
export const WEBHOOK_DELIVERIES_PAGE = 50;

export const ZWebhookDeliveryListQuerySchema = z.object({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES, 'INVALID').optional(),
  pageNumber: z.coerce.number('INVALID').int('INVALID').min(1, 'INVALID').max(100_000, 'INVALID').default(1),
});
export const ZWebhookDeliveryListSchema = z.object({ deliveries: z.array(ZWebhookDeliverySchema), hasMore: z.boolean() });
export type TWebhookDeliveryList = z.infer<typeof ZWebhookDeliveryListSchema>;

const ZRouteId = z.coerce.number('INVALID').int('INVALID').positive('INVALID').max(MAX_ID, 'INVALID');
export const ZWebhookParamsSchema = z.object({ id: ZRouteId });
export const ZWebhookDeliveryParamsSchema = z.object({ id: ZRouteId, deliveryId: z.string('INVALID').uuid('INVALID') });
