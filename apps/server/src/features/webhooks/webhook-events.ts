/**
 * Domain events become webhook deliveries: for each event, one row per enabled endpoint that
 * listens to it, stored before anything is sent. Events are handled one after the other, in the
 * order this node published them, so a ticket's deliveries are stored in the order its changes
 * happened. "Updated", "ack" and "status" events are told when a tracked field really changed:
 * the last state told is kept in webhookStates and swapped in one compare-and-set.
 *
 * The window: a service publishes after its transaction commits, and the rows are written just
 * after. A process that dies in between (kill -9 within those milliseconds) loses those events'
 * deliveries; a delivery once stored is never lost.
 */
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { WebhookEvent } from '@zapdesk/shared/webhooks';
import type { AppContext } from '../../core/context.js';
import { nowIso } from '../../core/time.js';
import { MEDIA_URL_TTL_SECONDS, signedMediaUrl } from '../messages/media-store.js';
import * as deliveries from './deliveries.repository.js';
import * as repo from './webhooks.repository.js';
import { newDelivery, parseEvents } from './webhooks.service.js';

/** A media address in a webhook stays valid this long: the whole retry window and a day for the receiver to fetch. */
export const WEBHOOK_MEDIA_TTL_SECONDS = 48 * 60 * 60;
/** A ticket first seen this soon after it was created is told as 'ticket.created'. */
export const CREATED_WITHIN_MS = 60_000;

type Outgoing = { event: WebhookEvent; data: unknown; orderKey: string | null };

/** What a ticket's 'updated' follows: status, queue, agent, labels. */
function ticketState(ticket: TTicket): string {
  return JSON.stringify({ status: ticket.status, queueId: ticket.queueId, userId: ticket.userId, labels: ticket.labels.map((l) => l.id).sort((a, b) => a - b) });
}

/** The message as the API shows it, with an absolute media address valid for WEBHOOK_MEDIA_TTL_SECONDS (when PUBLIC_URL is set). */
function messageData(ctx: AppContext, message: TMessage): TMessage {
  if (!message.mediaUrl || !ctx.config.publicUrl) return message;
  const name = new URL(message.mediaUrl, 'http://x').searchParams.get('name');
  const later = Date.now() + (WEBHOOK_MEDIA_TTL_SECONDS - MEDIA_URL_TTL_SECONDS) * 1000;
  return { ...message, mediaUrl: new URL(signedMediaUrl(ctx, message.id, later, name), ctx.config.publicUrl).toString() };
}

/** The enabled endpoints' ids by the events they listen to. */
async function listenersByEvent(ctx: AppContext): Promise<Map<string, number[]>> {
  const byEvent = new Map<string, number[]>();
  for (const endpoint of await repo.enabledEndpoints(ctx.db)) {
    for (const event of parseEvents(endpoint.events)) byEvent.set(event, [...(byEvent.get(event) ?? []), endpoint.id]);
  }
  return byEvent;
}

/** Starts listening; the returned function stops and waits for the events already received to be stored. */
export function recordWebhookEvents(ctx: AppContext, onError: (error: unknown) => void): () => Promise<void> {
  let chain: Promise<void> = Promise.resolve();
  /** Runs `work` after every earlier event's work, so rows are stored in publish order. */
  const inOrder = (work: (listening: Set<string>) => Promise<Outgoing[]>) => {
    chain = chain
      .then(async () => {
        const byEvent = await listenersByEvent(ctx);
        if (byEvent.size === 0) return;
        const outgoing = await work(new Set(byEvent.keys()));
        const now = nowIso();
        const rows = outgoing.flatMap(({ event, data, orderKey }) => (byEvent.get(event) ?? []).map((webhookId) => newDelivery(ctx, webhookId, event, data, orderKey, now)));
        if (rows.length === 0) return;
        await deliveries.insertDeliveries(ctx.db, rows);
        ctx.events.publish('webhook.queued', { count: rows.length });
      })
      .catch(onError);
  };
  const swap = (key: string, value: string) => repo.swapState(ctx.db, key, value, nowIso());

  const unsubscribers = [
    ctx.events.subscribe('ticket.saved', ({ ticket, previous }) =>
      inOrder(async (listening) => {
        if (!['ticket.created', 'ticket.updated', 'ticket.closed'].some((e) => listening.has(e))) return [];
        const state = ticketState(ticket);
        const swapped = await swap(`ticket:${ticket.id}`, state);
        const orderKey = `ticket:${ticket.id}`;
        if (!swapped.existed && swapped.changed && Date.now() - Date.parse(ticket.createdAt) < CREATED_WITHIN_MS) return [{ event: 'ticket.created', data: ticket, orderKey }];
        const before = swapped.existed ? swapped.previous : previous ? ticketState(previous) : undefined;
        if (!swapped.changed || before === undefined || before === state) return [];
        const wasClosed = (JSON.parse(before) as { status: string }).status === 'closed';
        return [{ event: ticket.status === 'closed' && !wasClosed ? 'ticket.closed' : 'ticket.updated', data: ticket, orderKey }];
      }),
    ),
    ctx.events.subscribe('message.saved', ({ message, created }) =>
      inOrder(async (listening) => {
        // Notes are private to the team: never sent out.
        if (message.isNote) return [];
        const orderKey = `ticket:${message.ticketId}`;
        const out: Outgoing[] = [];
        if (listening.has('message.ack')) {
          const swapped = await swap(`ack:${message.id}`, String(message.ack));
          // Told for messages whose creation was seen (not a history import's old messages, nor an edit or reaction).
          if (!created && swapped.existed && swapped.changed) out.push({ event: 'message.ack', data: messageData(ctx, message), orderKey });
        }
        if (created) out.unshift({ event: 'message.created', data: messageData(ctx, message), orderKey });
        return out;
      }),
    ),
    ctx.events.subscribe('contact.saved', ({ contact, created }) =>
      inOrder(async () => [{ event: created ? 'contact.created' : 'contact.updated', data: contact, orderKey: `contact:${contact.id}` }]),
    ),
    ctx.events.subscribe('campaign.saved', ({ campaign }) =>
      inOrder(async (listening) => {
        if (!listening.has('campaign.finished') || (campaign.status !== 'completed' && campaign.status !== 'cancelled') || !campaign.finishedAt) return [];
        const swapped = await swap(`campaign:${campaign.id}`, campaign.finishedAt);
        return swapped.changed ? [{ event: 'campaign.finished', data: campaign, orderKey: `campaign:${campaign.id}` }] : [];
      }),
    ),
    ctx.events.subscribe('whatsapp.session', ({ id, status }) =>
      inOrder(async (listening) => {
        if (!listening.has('connection.status')) return [];
        const swapped = await swap(`connection:${id}`, status);
        if (!swapped.changed) return [];
        const name = (await repo.connectionName(ctx.db, id)) ?? '';
        return [{ event: 'connection.status', data: { id, name, status }, orderKey: `connection:${id}` }];
      }),
    ),
  ];
  return async () => {
    for (const unsubscribe of unsubscribers) unsubscribe();
    await chain;
  };
}
