/** Outgoing webhooks (migration 041): endpoints, their deliveries, and the last states told. */
import type { Generated } from 'kysely';

type Timestamp = string;

export type WebhooksTable = {
  id: Generated<number>;
  url: string;
  /** JSON array of event names. */
  events: string;
  enabled: number;
  /** Sealed (secret-box.ts): never stored, logged or answered in the clear after creation. */
  secret: string;
  secretHint: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
};

export type WebhookDeliveriesTable = {
  seq: Generated<number>;
  id: string;
  webhookId: number;
  event: string;
  orderKey: string | null;
  body: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: Timestamp | null;
  /** Tried until then (creation, or a resend, plus the retry window), then failed. */
  retryUntil: Timestamp;
  claimedBy: string | null;
  claimedUntil: Timestamp | null;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number | null;
  createdAt: Timestamp;
  lastAttemptAt: Timestamp | null;
  deliveredAt: Timestamp | null;
};

export type WebhookStatesTable = { key: string; value: string; updatedAt: Timestamp };

export type WebhooksTables = {
  webhooks: WebhooksTable;
  webhookDeliveries: WebhookDeliveriesTable;
  webhookStates: WebhookStatesTable;
};
