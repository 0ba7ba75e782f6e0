/**
 * The realtime gateway: the one place that talks to sockets. It authenticates the handshake
 * with the access token, puts each socket in the rooms its user may see, and maps domain
 * events to the spec's socket events and their recipients.
 */
import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { isAdminProfile } from '@zapdesk/shared/domain';
import type { ClientToServerEvents, ServerToClientEvents } from '@zapdesk/shared/realtime';
import type { AppContext } from '../core/context.js';
import { AppError } from '../core/errors.js';
import { userFromAccessToken } from '../core/http/auth-hooks.js';
import type { TTicket } from '@zapdesk/shared/messaging';
import { userQueueIds } from '../features/tickets/tickets.repository.js';
import type { AuthUser } from '../features/users/users.repository.js';

type SocketData = { user: AuthUser; queueIds: number[] };
export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** Rooms: every signed-in user, admins only, and one per user. */
export const ROOMS = {
  everyone: 'everyone',
  admins: 'admins',
  user: (id: number) => `user:${id}`,
  queue: (id: number) => `queue:${id}`,
} as const;

/** Who may see a ticket: its agent when assigned, else its queue's agents (everyone when it has no queue); admins always. */
export function ticketRooms(ticket: Pick<TTicket, 'userId' | 'queueId'>): string[] {
  if (ticket.userId !== null) return [ROOMS.admins, ROOMS.user(ticket.userId)];
  if (ticket.queueId !== null) return [ROOMS.admins, ROOMS.queue(ticket.queueId)];
  return [ROOMS.everyone];
}

export function attachRealtime(ctx: AppContext, httpServer: HttpServer): RealtimeServer {
  const io: RealtimeServer = new Server(httpServer, { path: '/socket.io', serveClient: false });

  io.use(async (socket, next) => {
    const auth: unknown = socket.handshake.auth;
    const token = typeof auth === 'object' && auth !== null && 'token' in auth && typeof auth.token === 'string' ? auth.token : undefined;
    try {
      socket.data.user = await userFromAccessToken(ctx, token);
      socket.data.queueIds = await userQueueIds(ctx.db, socket.data.user.id);
      next();
    } catch (error) {
      next(new Error(error instanceof AppError ? error.code : 'ERR_INVALID_TOKEN'));
    }
  });

  io.on('connection', (socket: AppSocket) => {
    const user = socket.data.user;
    void socket.join([ROOMS.everyone, ROOMS.user(user.id), ...(isAdminProfile(user.profile) ? [ROOMS.admins] : []), ...socket.data.queueIds.map(ROOMS.queue)]);
  });

  const { events } = ctx;
  events.subscribe('user.saved', ({ user, created }) => {
    // A changed profile changes what this user's open sockets may hear.
    if (isAdminProfile(user.profile)) io.in(ROOMS.user(user.id)).socketsJoin(ROOMS.admins);
    else io.in(ROOMS.user(user.id)).socketsLeave(ROOMS.admins);
    void io
      .in(ROOMS.user(user.id))
      .fetchSockets()
      .then((sockets) => {
        for (const socket of sockets) {
          for (const room of socket.rooms) if (room.startsWith('queue:')) socket.leave(room);
          socket.join(user.queues.map((q) => ROOMS.queue(q.id)));
        }
      });
    io.to([ROOMS.admins, ROOMS.user(user.id)]).emit('user', { action: created ? 'create' : 'update', user });
  });
  events.subscribe('user.deleted', ({ userId }) => io.to(ROOMS.admins).emit('user', { action: 'delete', userId }));
  events.subscribe('user.sessionsRevoked', ({ userId }) => io.in(ROOMS.user(userId)).disconnectSockets(true));

  events.subscribe('queue.saved', ({ queue, created }) => io.to(ROOMS.everyone).emit('queue', { action: created ? 'create' : 'update', queue }));
  events.subscribe('queue.deleted', ({ queueId }) => io.to(ROOMS.everyone).emit('queue', { action: 'delete', queueId }));

  events.subscribe('quickAnswer.saved', ({ quickAnswer, created }) =>
    io.to(ROOMS.everyone).emit('quickAnswer', { action: created ? 'create' : 'update', quickAnswer }),
  );
  events.subscribe('quickAnswer.deleted', ({ quickAnswerId }) => io.to(ROOMS.everyone).emit('quickAnswer', { action: 'delete', quickAnswerId }));

  events.subscribe('contact.saved', ({ contact, created }) => io.to(ROOMS.everyone).emit('contact', { action: created ? 'create' : 'update', contact }));
  events.subscribe('contact.deleted', ({ contactId }) => io.to(ROOMS.everyone).emit('contact', { action: 'delete', contactId }));

  events.subscribe('setting.updated', ({ setting }) => io.to(ROOMS.admins).emit('settings', { action: 'update', setting }));

  events.subscribe('whatsapp.saved', ({ whatsapp }) => {
    io.to(ROOMS.admins).emit('whatsapp', { action: 'update', whatsapp });
    io.to(ROOMS.everyone).except(ROOMS.admins).emit('whatsapp', { action: 'update', whatsapp: { ...whatsapp, qrcode: '' } });
  });
  events.subscribe('whatsapp.deleted', ({ whatsappId }) => io.to(ROOMS.everyone).emit('whatsapp', { action: 'delete', whatsappId }));
  events.subscribe('whatsapp.session', (session) => {
    io.to(ROOMS.admins).emit('whatsappSession', { action: 'update', session });
    io.to(ROOMS.everyone).except(ROOMS.admins).emit('whatsappSession', { action: 'update', session: { ...session, qrcode: '' } });
  });

  // Whoever could see the ticket before hears the change too, so their lists can drop it.
  events.subscribe('ticket.saved', ({ ticket, previous }) =>
    io.to([...new Set([...ticketRooms(ticket), ...(previous ? ticketRooms(previous) : [])])]).emit('ticket', { action: 'update', ticket }),
  );
  events.subscribe('ticket.deleted', ({ ticket }) => io.to(ticketRooms(ticket)).emit('ticket', { action: 'delete', ticketId: ticket.id }));
  events.subscribe('message.saved', ({ message, ticket, created }) =>
    io.to(ticketRooms(ticket)).emit('appMessage', { action: created ? 'create' : 'update', message, ticket, contact: ticket.contact }),
  );

  return io;
}
