/**
 * Every attempt's outcome passes here, in one place: 'delivered' (2xx), 'retry' (anything else,
 * tried again later) or 'failed' (the retry window is over). Listeners (metrics) subscribe with
 * onWebhookAttempt; a listener's error never reaches the sender.
 */
export type WebhookAttemptOutcome = 'delivered' | 'retry' | 'failed';

export type WebhookAttempt = {
  webhookId: number;
  deliveryId: string;
  event: string;
  outcome: WebhookAttemptOutcome;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
};

const listeners = new Set<(attempt: WebhookAttempt) => void>();

export function onWebhookAttempt(listener: (attempt: WebhookAttempt) => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export function reportWebhookAttempt(attempt: WebhookAttempt): void {
  for (const listener of listeners) {
    try {
      listener(attempt);
    } catch {
      // A listener's failure is its own.
    }
  }
}
