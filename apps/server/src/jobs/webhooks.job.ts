/**
 * The webhook sender: every node claims due deliveries with a lease (claimedBy, claimedUntil),
 * so the nodes of a cluster share the work and a dead node's claims are taken again once the
 * lease runs out. A delivery is claimable only when no older pending delivery of its endpoint
 * and order key (a ticket) exists: in order per ticket. At most PER_ENDPOINT attempts per
 * endpoint and PER_NODE in all at a time. Old delivered and failed rows are swept after
 * WEBHOOK_RETENTION_DAYS.
 */
import type { AppContext } from '../core/context.js';
import { claimDue, releaseAllClaims, sweepDeliveries } from '../features/webhooks/deliveries.repository.js';
import { recordWebhookEvents } from '../features/webhooks/webhook-events.js';
import { sendClaimed } from '../features/webhooks/webhook-sender.js';
import { endpointsByIds, sweepStates } from '../features/webhooks/webhooks.repository.js';
import { WEBHOOK_TIMEOUT_MS } from '../features/webhooks/webhook-post.js';

export const WEBHOOK_POLL_MS = 1_000;
/** Longer than an attempt's time limit: a live node finishes well within its claim. */
export const WEBHOOK_LEASE_MS = WEBHOOK_TIMEOUT_MS * 3;
export const PER_ENDPOINT = 4;
export const PER_NODE = 16;
export const WEBHOOK_RETENTION_DAYS = 30;
const SWEEP_MS = 60 * 60_000;

export async function startWebhookSender(ctx: AppContext, onError: (error: unknown) => void): Promise<() => Promise<void>> {
  // A single node is the only sender: what it had under way when it stopped (kill -9) is due again
  // at once, sent a second time (at least once). In the cluster mode a dead node's claims are
  // taken again when their lease runs out.
  if (!ctx.config.redisUrl) await releaseAllClaims(ctx.db);
  const stopRecording = recordWebhookEvents(ctx, onError);
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;
  const inFlight = new Set<Promise<void>>();
  const perEndpoint = new Map<number, number>();

  const pump = async () => {
    while (!stopped) {
      const free = PER_NODE - inFlight.size;
      if (free <= 0) return;
      const picked = new Map<number, number>();
      const now = Date.now();
      const claimed = await claimDue(ctx.db, ctx.dbKind, {
        nodeId: ctx.config.nodeId,
        now: new Date(now).toISOString(),
        leaseUntil: new Date(now + WEBHOOK_LEASE_MS).toISOString(),
        limit: free,
        canTake: ({ webhookId }) => {
          const count = (perEndpoint.get(webhookId) ?? 0) + (picked.get(webhookId) ?? 0);
          if (count >= PER_ENDPOINT) return false;
          picked.set(webhookId, (picked.get(webhookId) ?? 0) + 1);
          return true;
        },
      });
      if (claimed.length === 0) return;
      const endpoints = new Map((await endpointsByIds(ctx.db, [...new Set(claimed.map((d) => d.webhookId))])).map((e) => [e.id, e]));
      for (const delivery of claimed) {
        const endpoint = endpoints.get(delivery.webhookId);
        if (!endpoint) continue;
        perEndpoint.set(delivery.webhookId, (perEndpoint.get(delivery.webhookId) ?? 0) + 1);
        const attempt: Promise<void> = sendClaimed(ctx, delivery, endpoint)
          .then(() => undefined)
          .catch(onError)
          .finally(() => {
            inFlight.delete(attempt);
            const left = (perEndpoint.get(delivery.webhookId) ?? 1) - 1;
            if (left > 0) perEndpoint.set(delivery.webhookId, left);
            else perEndpoint.delete(delivery.webhookId);
            // A finished delivery may free the next one of its ticket: look again at once.
            kick();
          });
        inFlight.add(attempt);
      }
    }
  };

  /** One pass at a time; a kick during a pass makes another pass right after it. */
  const kick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = pump()
      .catch(onError)
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          kick();
        }
      });
  };

  const sweep = async () => {
    const before = new Date(Date.now() - WEBHOOK_RETENTION_DAYS * 24 * 60 * 60_000).toISOString();
    await sweepDeliveries(ctx.db, before);
    await sweepStates(ctx.db, before);
  };

  const unsubscribe = ctx.events.subscribe('webhook.queued', () => kick());
  const timer = setInterval(kick, WEBHOOK_POLL_MS);
  timer.unref();
  const sweeper = setInterval(() => void sweep().catch(onError), SWEEP_MS);
  sweeper.unref();
  void sweep().catch(onError);
  kick();

  return async () => {
    stopped = true;
    clearInterval(timer);
    clearInterval(sweeper);
    unsubscribe();
    await stopRecording();
    await running;
    // The attempts under way finish (each within its time limit) and write their outcome.
    await Promise.all([...inFlight]);
  };
}
