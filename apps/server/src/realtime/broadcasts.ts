/**
 * Domain events to socket events and their recipients, on every namespace: each event is
 * subscribed to once, its recipients worked out once, and emitted in each namespace's form. The entity events
 * (users, queues, quick answers, contacts, settings, connections, messages, reads, deletions)
 * have one form for every client; a ticket's change has two (see ticket-forms.ts), and the
 * campaign progress is our app's own.
 */
import type { AppContext } from '../core/context.js';
import { ticketHoldersOfContact } from '../features/tickets/tickets-list.repository.js';
import { TICKET_STATUSES } from '@zapdesk/shared/domain';
import type { AppNamespace } from './connection.js';
import { ROOMS, TOPICS, ticketRooms, topicRooms } from './rooms.js';
import { emitTicketSaved, emitWhaticketTicketSaved } from './ticket-forms.js';

/** `zapdesk`: our app's clients (the main namespace); `whaticket`: whaticket's frontend (the /api namespace). */
export type ClientForm = 'zapdesk' | 'whaticket';

/** A namespace and the form of the events its clients hear. */
export type ClientNamespace = { nsp: AppNamespace; form: ClientForm };

export function broadcastEvents(ctx: AppContext, clients: ClientNamespace[]): void {
  const { events } = ctx;
  const each = (emit: (client: ClientNamespace) => void) => {
    for (const client of clients) emit(client);
  };
  // `user.saved` is emitted once the sockets of the user are in their new rooms (gateway.ts).
  events.subscribe('user.deleted', ({ userId }) => each(({ nsp }) => nsp.to(ROOMS.admins).emit('user', { action: 'delete', userId })));

  events.subscribe('queue.saved', ({ queue, created }) => each(({ nsp }) => nsp.to(ROOMS.everyone).emit('queue', { action: created ? 'create' : 'update', queue })));
  events.subscribe('queue.deleted', ({ queueId }) => each(({ nsp }) => nsp.to(ROOMS.everyone).emit('queue', { action: 'delete', queueId })));

  events.subscribe('quickAnswer.saved', ({ quickAnswer, created }) => each(({ nsp }) => nsp.to(ROOMS.everyone).emit('quickAnswer', { action: created ? 'create' : 'update', quickAnswer })));
  events.subscribe('quickAnswer.deleted', ({ quickAnswerId }) => each(({ nsp }) => nsp.to(ROOMS.everyone).emit('quickAnswer', { action: 'delete', quickAnswerId })));

  events.subscribe('label.saved', ({ label, created }) => each(({ nsp }) => nsp.to(ROOMS.everyone).emit('label', { action: created ? 'create' : 'update', label })));
  events.subscribe('label.deleted', ({ labelId }) => each(({ nsp }) => nsp.to(ROOMS.everyone).emit('label', { action: 'delete', labelId })));

  // A contact without a conversation is the team's; one with tickets, for those who may see one of them.
  // Should the holders be unreadable, admins alone hear of it.
  events.subscribe('contact.saved', ({ contact, created }) => {
    void ticketHoldersOfContact(ctx.db, contact.id)
      .then((holders) => (holders.length === 0 ? [ROOMS.everyone] : [...new Set(holders.flatMap(ticketRooms))]))
      .catch(() => [ROOMS.admins])
      .then((rooms) => each(({ nsp }) => nsp.to(rooms).emit('contact', { action: created ? 'create' : 'update', contact })));
  });
  events.subscribe('contact.deleted', ({ contactId }) => each(({ nsp }) => nsp.to(ROOMS.everyone).emit('contact', { action: 'delete', contactId })));

  // A campaign's progress: admins, and its author (a send through the API token has none). whaticket has no campaigns.
  events.subscribe('campaign.saved', ({ campaign }) =>
    each(({ nsp, form }) => {
      if (form === 'zapdesk') nsp.to(campaign.userId === null ? [ROOMS.admins] : [ROOMS.admins, ROOMS.user(campaign.userId)]).emit('campaign', { action: 'update', campaign });
    }),
  );

  events.subscribe('setting.updated', ({ setting }) => each(({ nsp }) => nsp.to(ROOMS.admins).emit('settings', { action: 'update', setting })));

  events.subscribe('whatsapp.saved', ({ whatsapp }) =>
    each(({ nsp }) => {
      nsp.to(ROOMS.connectionManagers).emit('whatsapp', { action: 'update', whatsapp });
      nsp
        .to(ROOMS.everyone)
        .except(ROOMS.connectionManagers)
        .emit('whatsapp', { action: 'update', whatsapp: { ...whatsapp, qrcode: '' } });
    }),
  );
  events.subscribe('whatsapp.deleted', ({ whatsappId }) => each(({ nsp }) => nsp.to(ROOMS.everyone).emit('whatsapp', { action: 'delete', whatsappId })));
  events.subscribe('whatsapp.session', (session) =>
    each(({ nsp }) => {
      nsp.to(ROOMS.connectionManagers).emit('whatsappSession', { action: 'update', session });
      nsp
        .to(ROOMS.everyone)
        .except(ROOMS.connectionManagers)
        .emit('whatsappSession', { action: 'update', session: { ...session, qrcode: '' } });
    }),
  );

  events.subscribe('ticket.saved', ({ ticket, previous }) => each(({ nsp, form }) => (form === 'zapdesk' ? emitTicketSaved(nsp, ticket, previous) : emitWhaticketTicketSaved(nsp, ticket, previous))));
  // Read on one tab or device: every other screen of those who may see it clears its badge (whaticket's bell too).
  events.subscribe('ticket.read', ({ ticket }) => {
    const rooms = topicRooms([TOPICS.status(ticket.status), TOPICS.notification, TOPICS.chat(ticket.id)], ticketRooms(ticket));
    each(({ nsp }) => nsp.to(rooms).emit('ticket', { action: 'updateUnread', ticketId: ticket.id }));
  });
  events.subscribe('ticket.deleted', ({ ticket }) => {
    const rooms = topicRooms([...TICKET_STATUSES.map(TOPICS.status), TOPICS.notification, TOPICS.chat(ticket.id)], ticketRooms(ticket));
    each(({ nsp }) => nsp.to(rooms).emit('ticket', { action: 'delete', ticketId: ticket.id }));
  });
  events.subscribe('message.saved', ({ message, ticket, created }) => {
    const rooms = topicRooms([TOPICS.chat(ticket.id), TOPICS.notification, TOPICS.status(ticket.status)], ticketRooms(ticket));
    each(({ nsp }) => nsp.to(rooms).emit('appMessage', { action: created ? 'create' : 'update', message, ticket, contact: ticket.contact }));
  });
}
