/**
 * What a session's driver emits, handed on: statuses to be stored, inbound messages to their
 * batches, the rest to the inbound handler; and, after an unclean stop, the recent chats read
 * again once connected.
 */
import type { AppContext } from '../core/context.js';
import type { ChannelDriver, InboundMessage } from './channel.js';
import type { InboundBatches } from './inbound-batches.js';
import type { InboundHandler } from './inbound-handler.js';
import type { SessionStatuses } from './session-statuses.js';

/** How many messages per chat a catch-up after an unclean stop reads at most. */
export const CATCH_UP_MESSAGES_MAX = 50;

export type SessionWiring = {
  ctx: AppContext;
  whatsappId: number;
  driver: ChannelDriver;
  /** False once the session was replaced, stopped, or its lease ran out: its events are not this node's to handle. */
  isCurrent: () => boolean;
  statuses: SessionStatuses;
  batches: InboundBatches;
  handler: () => InboundHandler | undefined;
  /** Whether the session's previous run ended without a clean stop (asked once, when it connects). */
  takeCatchUp: () => boolean;
  /** Keeps work the driver's events started, for a clean stop to wait for. */
  track: (work: Promise<unknown>) => void;
};

export function wireSession(w: SessionWiring): void {
  const { ctx, whatsappId, driver, isCurrent, statuses, batches } = w;
  const log = (error: unknown) => ctx.events.publish('channel.error', { whatsappId, error });
  /** Runs the handler's work for a current session, kept for a clean stop; failures are logged. */
  const run = (work: (handler: InboundHandler) => Promise<void>): Promise<void> | undefined => {
    const handler = w.handler();
    if (!isCurrent() || !handler) return undefined;
    const done = work(handler).catch(log);
    w.track(done);
    return done;
  };
  driver.on('qr', (qrcode) => {
    if (isCurrent()) statuses.enqueue(whatsappId, { status: qrcode ? 'qrcode' : 'OPENING', qrcode });
  });
  driver.on('status', (status, info) => {
    if (!isCurrent()) return;
    if (status === 'CONNECTED') statuses.connected(whatsappId);
    if (status === 'CONNECTED' && w.takeCatchUp()) w.track(readAgain(w).catch(log));
    if (status === 'DISCONNECTED' && !info?.loggedOut) statuses.retrying(whatsappId, info?.retries);
    statuses.enqueue(whatsappId, { status, ...(status === 'qrcode' ? {} : { qrcode: '' }) });
  });
  driver.on('message', (message) => (isCurrent() ? batches.receive(whatsappId, message) : Promise.resolve()));
  driver.on('ack', ({ providerId, ack }) => {
    ctx.events.publish('channel.ack', { whatsappId, providerId, ack });
    const handler = w.handler();
    if (handler) w.track(handler.ack(whatsappId, providerId, ack).catch(log));
  });
  // A deletion, an edit or a reaction may concern a message still waiting in the inbound queue:
  // it is applied once what arrived before it is written.
  driver.on('revoke', ({ providerId }) => {
    const handler = w.handler();
    if (handler) void batches.after(whatsappId, () => handler.revoke(whatsappId, providerId)).catch(log);
  });
  driver.on('edit', (update) => void run((handler) => batches.after(whatsappId, () => handler.edit(whatsappId, update))));
  driver.on('reaction', (reaction) => void run((handler) => batches.after(whatsappId, () => handler.reaction(whatsappId, reaction))));
  driver.on('contact', (update) => void run((handler) => handler.contact(whatsappId, update)));
  driver.on('call', (call) => run((handler) => handler.call(whatsappId, call)));
}

/**
 * After an unclean stop: what the phone holds of the recently active chats, from each chat's
 * newest stored message on, goes through the pipeline like a live message; the unique
 * provider id drops what is already stored.
 */
async function readAgain(w: SessionWiring): Promise<void> {
  const handler = w.handler();
  if (!handler) return;
  for (const { chat, after } of await handler.recentChats(w.whatsappId)) {
    if (!w.isCurrent()) return;
    let missed: InboundMessage[];
    try {
      missed = await w.driver.fetchHistory({ chat, limit: CATCH_UP_MESSAGES_MAX, after });
    } catch (error) {
      w.ctx.events.publish('channel.error', { whatsappId: w.whatsappId, error });
      continue;
    }
    await Promise.all(missed.map((message) => w.batches.receive(w.whatsappId, message)));
  }
}
