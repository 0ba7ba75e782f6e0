/**
 * Domain events to socket events and their recipients, on one namespace. The entity events
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

export function broadcastEvents(ctx: AppContext, nsp: AppNamespace, form: ClientForm): void {
  const { events } = ctx;
  // `user.saved` is emitted once the sockets of the user are in their new rooms (gateway.ts).
  events.subscribe('user.deleted', ({ userId }) => nsp.to(ROOMS.admins).emit('user', { action: 'delete', userId }));

  events.subscribe('queue.saved', ({ queue, created }) => nsp.to(ROOMS.everyone).emit('queue', { action: created ? 'create' : 'update', queue }));
  events.subscribe('queue.deleted', ({ queueId }) => nsp.to(ROOMS.everyone).emit('queue', { action: 'delete', queueId }));

  events.subscribe('quickAnswer.saved', ({ quickAnswer, created }) => nsp.to(ROOMS.everyone).emit('quickAnswer', { action: created ? 'create' : 'update', quickAnswer }));
  events.subscribe('quickAnswer.deleted', ({ quickAnswerId }) => nsp.to(ROOMS.everyone).emit('quickAnswer', { action: 'delete', quickAnswerId }));

  // A contact without a conversation is the team's; one with tickets, for those who may see one of them.
  // Should the holders be unreadable, admins alone hear of it.
  events.subscribe('contact.saved', ({ contact, created }) => {
    void ticketHoldersOfContact(ctx.db, contact.id)
      .then((holders) => (holders.length === 0 ? [ROOMS.everyone] : [...new Set(holders.flatMap(ticketRooms))]))
      .catch(() => [ROOMS.admins])
      .then((rooms) => nsp.to(rooms).emit('contact', { action: created ? 'create' : 'update', contact }));
  });
  events.subscribe('contact.deleted', ({ contactId }) => nsp.to(ROOMS.everyone).emit('contact', { action: 'delete', contactId }));

  // A campaign's progress: admins, and its author (a send through the API token has none). whaticket has no campaigns.
  if (form === 'zapdesk') {
    events.subscribe('campaign.saved', ({ campaign }) =>
      nsp.to(campaign.userId === null ? [ROOMS.admins] : [ROOMS.admins, ROOMS.user(campaign.userId)]).emit('campaign', { action: 'update', campaign }),
    );
  }

  events.subscribe('setting.updated', ({ setting }) => nsp.to(ROOMS.admins).emit('settings', { action: 'update', setting }));

  events.subscribe('whatsapp.saved', ({ whatsapp }) => {
    nsp.to(ROOMS.connectionManagers).emit('whatsapp', { action: 'update', whatsapp });
    nsp
      .to(ROOMS.everyone)
      .except(ROOMS.connectionManagers)
      .emit('whatsapp', { action: 'update', whatsapp: { ...whatsapp, qrcode: '' } });
  });
  events.subscribe('whatsapp.deleted', ({ whatsappId }) => nsp.to(ROOMS.everyone).emit('whatsapp', { action: 'delete', whatsappId }));
  events.subscribe('whatsapp.session', (session) => {
    nsp.to(ROOMS.connectionManagers).emit('whatsappSession', { action: 'update', session });
    nsp
      .to(ROOMS.everyone)
      .except(ROOMS.connectionManagers)
      .emit('whatsappSession', { action: 'update', session: { ...session, qrcode: '' } });
  });

  events.subscribe('ticket.saved', ({ ticket, previous }) => (form === 'zapdesk' ? emitTicketSaved(nsp, ticket, previous) : emitWhaticketTicketSaved(nsp, ticket, previous)));
  // Read on one tab or device: every other screen of those who may see it clears its badge (whaticket's bell too).
  events.subscribe('ticket.read', ({ ticket }) =>
    nsp.to(topicRooms([TOPICS.status(ticket.status), TOPICS.notification, TOPICS.chat(ticket.id)], ticketRooms(ticket))).emit('ticket', { action: 'updateUnread', ticketId: ticket.id }),
  );
  events.subscribe('ticket.deleted', ({ ticket }) =>
    nsp.to(topicRooms([...TICKET_STATUSES.map(TOPICS.status), TOPICS.notification, TOPICS.chat(ticket.id)], ticketRooms(ticket))).emit('ticket', { action: 'delete', ticketId: ticket.id }),
  );
  events.subscribe('message.saved', ({ message, ticket, created }) =>
    nsp
      .to(topicRooms([TOPICS.chat(ticket.id), TOPICS.notification, TOPICS.status(ticket.status)], ticketRooms(ticket)))
      .emit('appMessage', { action: created ? 'create' : 'update', message, ticket, contact: ticket.contact }),
  );
}
