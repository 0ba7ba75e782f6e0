/** Socket event names and payloads: `{ action, <entity> }` as the spec's clients expect. */
import type { TCampaign } from './campaigns.js';
import type { ConnectionStatus } from './domain.js';
import type { TLabel } from './labels.js';
import type { TMessage, TTicket } from './messaging.js';
import type { TContact, TQueue, TQuickAnswer, TSetting, TUser, TWhatsapp } from './schemas.js';

export type CrudAction = 'create' | 'update' | 'delete';

export type ServerToClientEvents = {
  user: (payload: { action: 'create' | 'update'; user: TUser } | { action: 'delete'; userId: number }) => void;
  queue: (payload: { action: 'create' | 'update'; queue: TQueue } | { action: 'delete'; queueId: number }) => void;
  quickAnswer: (payload: { action: 'create' | 'update'; quickAnswer: TQuickAnswer } | { action: 'delete'; quickAnswerId: number }) => void;
  contact: (payload: { action: 'create' | 'update'; contact: TContact } | { action: 'delete'; contactId: number }) => void;
  settings: (payload: { action: 'update'; setting: TSetting }) => void;
  whatsapp: (payload: { action: 'update'; whatsapp: TWhatsapp } | { action: 'delete'; whatsappId: number }) => void;
  /** The QR code reaches admins only; others get an empty one. */
  whatsappSession: (payload: { action: 'update'; session: { id: number; status: ConnectionStatus; updatedAt: string; qrcode: string; retries: number } }) => void;
  ticket: (payload: { action: 'update'; ticket: TTicket } | { action: 'updateUnread'; ticketId: number } | { action: 'delete'; ticketId: number }) => void;
  appMessage: (payload: { action: 'create' | 'update'; message: TMessage; ticket: TTicket; contact: TTicket['contact'] }) => void;
  /** A label was defined, changed or deleted: to everyone (the pickers and filters list them). */
  label: (payload: { action: 'create' | 'update'; label: TLabel } | { action: 'delete'; labelId: number }) => void;
  /** A campaign's state and counts changed: to admins and to its author. */
  campaign: (payload: { action: 'update'; campaign: TCampaign }) => void;
};

/** The answer to a join: admitted, or refused with an error code (ERR_NO_PERMISSION, ERR_NO_TICKET_FOUND, ERR_VALIDATION). */
export type JoinResult = { ok: true } | { ok: false; error: string };

/**
 * A socket hears ticket and message events only for what it joined (the notification room,
 * the lists of a status, an open chat), and only for tickets its user may see.
 */
export type ClientToServerEvents = {
  joinNotification: (ack?: (result: JoinResult) => void) => void;
  joinTickets: (status: string, ack?: (result: JoinResult) => void) => void;
  joinChatBox: (ticketId: string | number, ack?: (result: JoinResult) => void) => void;
  leaveChatBox: (ticketId: string | number) => void;
};

export type RealtimeEventName = keyof ServerToClientEvents;
