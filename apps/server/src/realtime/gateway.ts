/**
 * The realtime gateway: the one place that talks to sockets. It authenticates the handshake
 * with the access token, puts each socket in the rooms its user may see, and maps domain
 * events to the spec's socket events and their recipients.
 *
 * Two kinds of rooms. Audience rooms say who may see a ticket (everyone, admins, a queue's
 * agents, an agent's own tickets); a socket is put in its user's audience rooms at connection.
 * Topic rooms say what a socket asked for: `joinNotification`, `joinTickets(status)` and
 * `joinChatBox(ticketId)`. A socket joins a topic once per audience room it is in
 * (`status:open@queue:3`), and a ticket event goes to the topic rooms of that ticket's audience
 * only, so it reaches exactly the sockets that asked for it and may see the ticket, on one
 * node or many (the room names do the intersection, the Redis adapter fans them out).
 */
import { createAdapter } from '@socket.io/redis-adapter';
import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { isAdminProfile, TICKET_STATUSES, type TicketStatus } from '@zapdesk/shared/domain';
import type { ClientToServerEvents, JoinResult, ServerToClientEvents } from '@zapdesk/shared/realtime';
import { ticketAudiences, viewerAudiences } from '@zapdesk/shared/visibility';
import type { AppContext } from '../core/context.js';
import type { RedisClients } from '../core/redis.js';
import { AppError } from '../core/errors.js';
import { userFromAccessToken } from '../core/http/auth-hooks.js';
import type { TTicket } from '@zapdesk/shared/messaging';
import { ticketHoldersOfContact } from '../features/tickets/tickets-list.repository.js';
import { findTicketById, userQueueIds } from '../features/tickets/tickets.repository.js';
import { canSeeTicket } from '../features/tickets/tickets.service.js';
import { findAuthUserById, type AuthUser } from '../features/users/users.repository.js';

type SocketData = { user: AuthUser; queueIds: number[] };
export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** Audience rooms: every signed-in user, admins only, one per user, one per queue, an agent's own tickets. */
export const ROOMS = {
  everyone: 'everyone',
  admins: 'admins',
  /** Users whose role holds allQueues: they hear every ticket, as admins do. */
  allQueues: 'allQueues',
  /** Those who may manage connections (admins, the connectionsManage permission): they get the QR codes. */
  connectionManagers: 'connectionManagers',
  user: (id: number) => `user:${id}`,
  queue: (id: number) => `queue:${id}`,
  /** Agents who belong to at least one queue: they see the unassigned tickets without a queue. */
  queued: 'queued',
  // These names are the visibility rule's audiences (ticketAudiences, viewerAudiences).
} as const;

/** Topic rooms: what a socket joined. */
export const TOPICS = {
  notification: 'notification',
  status: (status: TicketStatus) => `status:${status}`,
  chat: (ticketId: number) => `chat:${ticketId}`,
} as const;

const TOPIC_SEPARATOR = '@';
const topicRoom = (topic: string, audience: string) => `${topic}${TOPIC_SEPARATOR}${audience}`;

/** The rooms of those who may see a ticket: the visibility rule's audiences (@zapdesk/shared/visibility). */
export function ticketRooms(ticket: Pick<TTicket, 'userId' | 'queueId'>): string[] {
  return ticketAudiences(ticket);
}

/** The audience rooms of a user's sockets: everyone's, and the rule's audiences they belong to. */
export function audienceRooms(user: Pick<AuthUser, 'id' | 'profile' | 'permissions'>, queueIds: number[]): string[] {
  const managers = user.permissions.has('connectionsManage') ? [ROOMS.connectionManagers] : [];
  return [ROOMS.everyone, ...managers, ...viewerAudiences({ id: user.id, admin: isAdminProfile(user.profile), allQueues: user.permissions.has('allQueues'), queueIds })];
}

/** The rooms that carry `topics` to the sockets of `audience`. */
export function topicRooms(topics: string[], audience: string[]): string[] {
  return [...new Set(topics.flatMap((topic) => audience.map((a) => topicRoom(topic, a))))];
}

/** What a socket (local or on another node) is in, split into audience and topics. */
function roomsOf(socket: { id: string; rooms: Set<string> }): { audience: string[]; topics: string[] } {
  const rooms = [...socket.rooms].filter((r) => r !== socket.id);
  return {
    audience: rooms.filter((r) => !r.includes(TOPIC_SEPARATOR)),
    topics: [...new Set(rooms.filter((r) => r.includes(TOPIC_SEPARATOR)).map((r) => r.slice(0, r.indexOf(TOPIC_SEPARATOR))))],
  };
}

function refusal(error: unknown): JoinResult {
  return { ok: false, error: error instanceof AppError ? error.code : 'ERR_INTERNAL' };
}

function parseTicketId(value: unknown): number | undefined {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 ? id : undefined;
}

export function attachRealtime(ctx: AppContext, httpServer: HttpServer, redis?: RedisClients): RealtimeServer {
  const io: RealtimeServer = new Server(httpServer, { path: '/socket.io', serveClient: false });
  // The cluster mode: what this node emits to a room reaches that room's sockets on every node.
  if (redis) io.adapter(createAdapter(redis.pub, redis.sub, { key: `${redis.prefix}:socket.io` }));

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
    void socket.join(audienceRooms(user, socket.data.queueIds));
    const joinTopic = (topic: string) => socket.join(topicRooms([topic], roomsOf(socket).audience));
    const answer = (ack: unknown, result: JoinResult) => {
      if (typeof ack === 'function') (ack as (answer: JoinResult) => void)(result);
    };

    socket.on('joinNotification', (ack) => {
      void joinTopic(TOPICS.notification);
      answer(ack, { ok: true });
    });
    socket.on('joinTickets', (status, ack) => {
      const known = TICKET_STATUSES.find((s) => s === status);
      if (!known) return answer(ack, refusal(new AppError('ERR_VALIDATION')));
      void joinTopic(TOPICS.status(known));
      answer(ack, { ok: true });
    });
    // A chat is joined only when its ticket may be seen now; what changes later the audience rooms follow.
    socket.on('joinChatBox', (ticketId, ack) => {
      const id = parseTicketId(ticketId);
      void (async () => {
        if (id === undefined) throw new AppError('ERR_VALIDATION');
        const [ticket, actor] = await Promise.all([findTicketById(ctx.db, id), findAuthUserById(ctx.db, user.id)]);
        // A ticket the user may not see answers as one that does not exist, as the API does.
        if (!ticket || !actor || !(await canSeeTicket(ctx, actor, ticket))) throw new AppError('ERR_NO_TICKET_FOUND');
        await joinTopic(TOPICS.chat(id));
        answer(ack, { ok: true });
      })().catch((error: unknown) => answer(ack, refusal(error)));
    });
    socket.on('leaveChatBox', (ticketId) => {
      const id = parseTicketId(ticketId);
      if (id === undefined) return;
      for (const room of topicRooms([TOPICS.chat(id)], roomsOf(socket).audience)) void socket.leave(room);
    });
  });

  // Online: a socket open for the user on any node (the Redis adapter asks every node). Should a
  // node not answer in time, what this node's own sockets say is what is known.
  ctx.presence.answerWith(async () => {
    const sockets = await io.fetchSockets().catch(() => io.local.fetchSockets());
    return sockets.map((socket) => socket.data.user.id);
  });

  const { events } = ctx;
  events.subscribe('user.saved', ({ user, created }) => {
    // A changed profile or queue list changes what this user's open sockets may hear: their
    // audience rooms are rebuilt, and their topics joined again for the new audience.
    // The user hears of the change once the rooms are rebuilt.
    void Promise.all([findAuthUserById(ctx.db, user.id), io.in(ROOMS.user(user.id)).fetchSockets()])
      .then(([auth, sockets]) => {
        if (!auth) return;
        const audience = audienceRooms(
          auth,
          user.queues.map((q) => q.id),
        );
        for (const socket of sockets) {
          const { topics } = roomsOf(socket);
          for (const room of [...socket.rooms]) if (room !== socket.id) socket.leave(room);
          socket.join([...audience, ...topicRooms(topics, audience)]);
        }
      })
      .finally(() => io.to([ROOMS.admins, ROOMS.user(user.id)]).emit('user', { action: created ? 'create' : 'update', user }));
  });
  events.subscribe('user.deleted', ({ userId }) => io.to(ROOMS.admins).emit('user', { action: 'delete', userId }));
  events.subscribe('user.sessionsRevoked', ({ userId }) => io.in(ROOMS.user(userId)).disconnectSockets(true));

  events.subscribe('queue.saved', ({ queue, created }) => io.to(ROOMS.everyone).emit('queue', { action: created ? 'create' : 'update', queue }));
  events.subscribe('queue.deleted', ({ queueId }) => io.to(ROOMS.everyone).emit('queue', { action: 'delete', queueId }));

  events.subscribe('quickAnswer.saved', ({ quickAnswer, created }) => io.to(ROOMS.everyone).emit('quickAnswer', { action: created ? 'create' : 'update', quickAnswer }));
  events.subscribe('quickAnswer.deleted', ({ quickAnswerId }) => io.to(ROOMS.everyone).emit('quickAnswer', { action: 'delete', quickAnswerId }));

  // A contact without a conversation is the team's; one with tickets, for those who may see one of them.
  // Should the holders be unreadable, admins alone hear of it.
  events.subscribe('contact.saved', ({ contact, created }) => {
    void ticketHoldersOfContact(ctx.db, contact.id)
      .then((holders) => (holders.length === 0 ? [ROOMS.everyone] : [...new Set(holders.flatMap(ticketRooms))]))
      .catch(() => [ROOMS.admins])
      .then((rooms) => io.to(rooms).emit('contact', { action: created ? 'create' : 'update', contact }));
  });
  events.subscribe('contact.deleted', ({ contactId }) => io.to(ROOMS.everyone).emit('contact', { action: 'delete', contactId }));

  // A campaign's progress: admins, and its author (a send through the API token has none).
  events.subscribe('campaign.saved', ({ campaign }) => io.to(campaign.userId === null ? [ROOMS.admins] : [ROOMS.admins, ROOMS.user(campaign.userId)]).emit('campaign', { action: 'update', campaign }));

  events.subscribe('setting.updated', ({ setting }) => io.to(ROOMS.admins).emit('settings', { action: 'update', setting }));

  events.subscribe('whatsapp.saved', ({ whatsapp }) => {
    io.to(ROOMS.connectionManagers).emit('whatsapp', { action: 'update', whatsapp });
    io.to(ROOMS.everyone)
      .except(ROOMS.connectionManagers)
      .emit('whatsapp', { action: 'update', whatsapp: { ...whatsapp, qrcode: '' } });
  });
  events.subscribe('whatsapp.deleted', ({ whatsappId }) => io.to(ROOMS.everyone).emit('whatsapp', { action: 'delete', whatsappId }));
  events.subscribe('whatsapp.session', (session) => {
    io.to(ROOMS.connectionManagers).emit('whatsappSession', { action: 'update', session });
    io.to(ROOMS.everyone)
      .except(ROOMS.connectionManagers)
      .emit('whatsappSession', { action: 'update', session: { ...session, qrcode: '' } });
  });

  // A ticket change goes to its status lists, the notification room and its chat. Whoever could
  // see it before hears the change too, so their lists can drop it; and the lists of the status
  // it left, which is every other status when the service did not say (close all, auto-close,
  // a closed ticket reopened by a message).
  events.subscribe('ticket.saved', ({ ticket, previous }) => {
    const statuses = previous ? [ticket.status, previous.status] : TICKET_STATUSES;
    const topics = [...statuses.map(TOPICS.status), TOPICS.notification, TOPICS.chat(ticket.id)];
    const audience = [...ticketRooms(ticket), ...(previous ? ticketRooms(previous) : [])];
    io.to(topicRooms(topics, audience)).emit('ticket', { action: 'update', ticket });
  });
  // Read on one tab or device: every other screen of those who may see it clears its badge.
  events.subscribe('ticket.read', ({ ticket }) =>
    io.to(topicRooms([TOPICS.status(ticket.status), TOPICS.notification, TOPICS.chat(ticket.id)], ticketRooms(ticket))).emit('ticket', { action: 'updateUnread', ticketId: ticket.id }),
  );
  events.subscribe('ticket.deleted', ({ ticket }) =>
    io.to(topicRooms([...TICKET_STATUSES.map(TOPICS.status), TOPICS.notification, TOPICS.chat(ticket.id)], ticketRooms(ticket))).emit('ticket', { action: 'delete', ticketId: ticket.id }),
  );
  events.subscribe('message.saved', ({ message, ticket, created }) =>
    io
      .to(topicRooms([TOPICS.chat(ticket.id), TOPICS.notification, TOPICS.status(ticket.status)], ticketRooms(ticket)))
      .emit('appMessage', { action: created ? 'create' : 'update', message, ticket, contact: ticket.contact }),
  );

  return io;
}
