/** Socket event names and payloads: `{ action, <entity> }` as the spec's clients expect. */
import type { TContact, TQueue, TQuickAnswer, TSetting, TUser } from './schemas.js';

export type CrudAction = 'create' | 'update' | 'delete';

export type ServerToClientEvents = {
  user: (payload: { action: 'create' | 'update'; user: TUser } | { action: 'delete'; userId: number }) => void;
  queue: (payload: { action: 'create' | 'update'; queue: TQueue } | { action: 'delete'; queueId: number }) => void;
  quickAnswer: (
    payload: { action: 'create' | 'update'; quickAnswer: TQuickAnswer } | { action: 'delete'; quickAnswerId: number },
  ) => void;
  contact: (payload: { action: 'create' | 'update'; contact: TContact } | { action: 'delete'; contactId: number }) => void;
  settings: (payload: { action: 'update'; setting: TSetting }) => void;
};

export type ClientToServerEvents = {
  joinNotification: () => void;
  joinTickets: (status: string) => void;
  joinChatBox: (ticketId: string) => void;
};

export type RealtimeEventName = keyof ServerToClientEvents;
