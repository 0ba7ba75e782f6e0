/**
 * The chatbot worker: tickets whose customer messages wait for the bot (and have been quiet for
 * the debounce) are handed to Typebot, several tickets at once, each ticket one turn at a time.
 * What waits is stored, so a restart picks it up where it was.
 */
import type { SessionManager } from '../channels/session-manager.js';
import type { AppContext } from '../core/context.js';
import { pollLoop } from '../core/poll-loop.js';
import { deliverPending, readBotSettings, runTicket } from '../features/chatbot/chatbot.service.js';
import { ticketsReady, ticketsWithPending } from '../features/chatbot/chatbot.repository.js';

export const CHATBOT_POLL_MS = 500;
export const CHATBOT_LEASE = 'job:chatbot';
const TICKETS_AT_ONCE = 10;

export async function startChatbotWorker(ctx: AppContext, sessions: SessionManager, onError: (error: unknown) => void): Promise<() => Promise<void>> {
  let stopped = false;
  const busy = new Map<number, Promise<void>>();
  const sleepers = new Set<() => void>();
  /** A pause between the bot's messages; cut short on stop, when it answers false. */
  const sleep = (ms: number) =>
    new Promise<boolean>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve(!stopped);
      };
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });

  const tick = async () => {
    // One node runs the bot at a time. The one that starts (this server at start, or in the
    // cluster mode a node taking over from one that died) first sends the bot's answers that
    // were not sent yet.
    const lease = await ctx.leases.keep(CHATBOT_LEASE);
    if (!lease) return;
    if (lease === 'new') {
      for (const ticketId of await ticketsWithPending(ctx.db, 100)) {
        if (stopped) return;
        const run = deliverPending(ctx, sessions, ticketId, sleep)
          .catch(onError)
          .finally(() => busy.delete(ticketId));
        busy.set(ticketId, run);
      }
    }
    const bot = await readBotSettings(ctx.db);
    if (!bot || stopped) return;
    const now = Date.now();
    const ready = await ticketsReady(ctx.db, new Date(now).toISOString(), new Date(now - bot.debounceSeconds * 1000).toISOString(), TICKETS_AT_ONCE);
    for (const ticketId of ready) {
      if (busy.has(ticketId) || stopped) continue;
      const run = runTicket(ctx, sessions, bot, ticketId, sleep)
        .catch(onError)
        .finally(() => busy.delete(ticketId));
      busy.set(ticketId, run);
    }
  };

  const polling = pollLoop(tick, CHATBOT_POLL_MS, onError, 'chatbot', ctx.metrics.loop('chatbot'));

  return async () => {
    stopped = true;
    for (const wake of sleepers) wake();
    await polling.stop();
    await Promise.all(busy.values());
  };
}
