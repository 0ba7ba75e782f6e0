/**
 * Domain events, published by services after their transaction commits. The realtime gateway
 * is the one listener that turns them into socket events.
 */
import { EventEmitter } from 'node:events';
import type { TCampaign } from '@zapdesk/shared/campaigns';
import type { ConnectionStatus } from '@zapdesk/shared/domain';
import type { TLabel } from '@zapdesk/shared/labels';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { TMention } from '@zapdesk/shared/notes';
import type { Logger } from './logger.js';
import type { TContact, TQueue, TQuickAnswer, TSetting, TUser, TWhatsapp } from '@zapdesk/shared/schemas';

export type DomainEvents = {
  'user.saved': { user: TUser; created: boolean };
  'user.deleted': { userId: number };
  /** Sessions of this user must end (logout, password change, deletion). */
  'user.sessionsRevoked': { userId: number };
  'queue.saved': { queue: TQueue; created: boolean };
  'queue.deleted': { queueId: number };
  'quickAnswer.saved': { quickAnswer: TQuickAnswer; created: boolean };
  'quickAnswer.deleted': { quickAnswerId: number };
  'label.saved': { label: TLabel; created: boolean };
  'label.deleted': { labelId: number };
  'contact.saved': { contact: TContact; created: boolean };
  'contact.deleted': { contactId: number };
  'setting.updated': { setting: TSetting };
  'whatsapp.saved': { whatsapp: TWhatsapp };
  'whatsapp.deleted': { whatsappId: number };
  'whatsapp.session': { id: number; status: ConnectionStatus; qrcode: string; retries: number; updatedAt: string };
  /** `previous` when the ticket may have left someone's view (transfer, accept, return). */
  'ticket.saved': { ticket: TTicket; previous?: TTicket };
  'ticket.deleted': { ticket: TTicket };
  /** The ticket's agent read it: its unread count went to zero (spec: ticket updateUnread). */
  'ticket.read': { ticket: TTicket };
  'message.saved': { message: TMessage; ticket: TTicket; created: boolean };
  /** A colleague was mentioned in a note, or their mention was read or ended (notes feature). */
  'mention.saved': { userId: number; mention: TMention; created: boolean };
  /** A channel reported delivery progress of a message it sent (the campaign sender listens). */
  'channel.ack': { whatsappId: number; providerId: string; ack: number };
  'campaign.saved': { campaign: TCampaign };
  /** A mail was stored to be sent: the mail sender looks at once. */
  'email.queued': { count: number };
  /** Webhook deliveries were stored (an event, a ping, a resend): this node's sender looks at once. */
  'webhook.queued': { count: number };
  /** The chatbot failed on a ticket (Typebot down, a file it could not fetch): kept for admins. */
  'chatbot.error': { ticketId: number; error: string };
  /** A channel session failed to handle an event: logged, never thrown into the driver. */
  'channel.error': { whatsappId: number; error: unknown };
};

export type DomainEventName = keyof DomainEvents;

/**
 * Events whose work may be another node's in the cluster mode: a setting the security policy
 * follows, a mail for the node that sends mails, a bulk send for the node that runs its phone.
 * They are relayed to the other nodes (core/cluster/event-relay.ts), where subscribeCluster
 * handlers hear them; socket events are not (the socket.io adapter fans those out itself).
 */
export const CLUSTER_EVENTS = ['setting.updated', 'email.queued', 'campaign.saved'] as const satisfies readonly DomainEventName[];
export type ClusterEventName = (typeof CLUSTER_EVENTS)[number];

export class DomainEventBus {
  readonly #emitter = new EventEmitter();
  /** Handlers of events raised on this node and, in the cluster mode, on the others. */
  readonly #cluster = new EventEmitter();
  #relay: ((name: ClusterEventName, payload: unknown) => void) | undefined;

  /** `log`: each event's name at trace (never its payload, which may hold a message or a setting's value). */
  constructor(private readonly log?: Logger) {}

  publish<K extends DomainEventName>(name: K, payload: DomainEvents[K]): void {
    this.log?.trace({ event: name }, 'domain event');
    this.#emitter.emit(name, payload);
    if (isClusterEvent(name)) {
      this.#cluster.emit(name, payload);
      this.#relay?.(name, payload);
    }
  }

  subscribe<K extends DomainEventName>(name: K, handler: (payload: DomainEvents[K]) => void): () => void {
    this.#emitter.on(name, handler);
    return () => this.#emitter.off(name, handler);
  }

  /** Hears `name` whichever node raised it (on a single node, like subscribe). */
  subscribeCluster<K extends ClusterEventName>(name: K, handler: (payload: DomainEvents[K]) => void): () => void {
    this.#cluster.on(name, handler);
    return () => this.#cluster.off(name, handler);
  }

  /** The cluster mode: what this node raises is also sent with `send`. */
  relayTo(send: (name: ClusterEventName, payload: unknown) => void): void {
    this.#relay = send;
  }

  /** An event another node raised: for the subscribeCluster handlers only. */
  receiveFromCluster(name: ClusterEventName, payload: unknown): void {
    this.#cluster.emit(name, payload);
  }
}

export function isClusterEvent(name: string): name is ClusterEventName {
  return (CLUSTER_EVENTS as readonly string[]).includes(name);
}
