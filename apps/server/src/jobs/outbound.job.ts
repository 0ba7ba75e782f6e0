/**
 * The outbound dispatcher: queued sends that are due (tried again after a passing failure,
 * or left queued by a crash) go out, each connection's in the order they were written.
 */
import type { SessionManager } from '../channels/session-manager.js';
import type { AppContext } from '../core/context.js';
import { pollLoop } from '../core/poll-loop.js';
import { queueStats, requeueInterrupted } from '../features/messages/outbox.repository.js';
import { sendDueJobs, serveDeliveries } from '../features/messages/outbound.service.js';
import { nowIso } from '../core/time.js';

export const OUTBOUND_POLL_MS = 1_000;
const BATCH = 100;

/** Starts the dispatcher; the returned function stops it and waits for the round under way. */
export async function startOutboundDispatcher(ctx: AppContext, sessions: SessionManager, onError: (error: unknown) => void): Promise<() => Promise<void>> {
  // A try that was under way when the node sending it stopped is queued again, and goes out
  // under the same provider id: on a single node at start (it is the only sender), in the
  // cluster mode for each connection this node takes over.
  if (sessions.clustered) sessions.onTakeover(async (whatsappId) => void (await requeueInterrupted(ctx.db, nowIso(), whatsappId)));
  else await requeueInterrupted(ctx.db, nowIso());
  serveDeliveries(ctx, sessions);
  ctx.metrics.watchOutbound(() => queueStats(ctx.db));
  let stopped = false;
  const polling = pollLoop(
    async () => {
      // A full batch means more is due: go on at once.
      while (!stopped && (await sendDueJobs(ctx, sessions, BATCH)) === BATCH);
    },
    OUTBOUND_POLL_MS,
    onError,
    'outbound',
    ctx.metrics.loop('outbound'),
  );
  return async () => {
    stopped = true;
    await polling.stop();
  };
}
