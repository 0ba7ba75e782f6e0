/**
 * A socket's life on any namespace: the handshake is authenticated with the access token, the
 * socket is put in the audience rooms of its user, and it joins the topics it asks for
 * (`joinNotification`, `joinTickets(status)`, `joinChatBox(ticketId)`), answering each join when
 * the client gave an acknowledgement (whaticket's client gives none).
 */
import type { Namespace, Socket } from 'socket.io';
import { TICKET_STATUSES } from '@zapdesk/shared/domain';
import type { ClientToServerEvents, JoinResult, ServerToClientEvents } from '@zapdesk/shared/realtime';
import type { AppContext } from '../core/context.js';
import { AppError } from '../core/errors.js';
import { userFromAccessToken } from '../core/http/auth-hooks.js';
import { findTicketById, userQueueIds } from '../features/tickets/tickets.repository.js';
import { canReadTicket } from '../features/tickets/tickets.service.js';
import { findAuthUserById, type AuthUser } from '../features/users/users.repository.js';
import { audienceRooms, roomsOf, TOPICS, topicRooms } from './rooms.js';

export type SocketData = { user: AuthUser; queueIds: number[] };
export type AppNamespace = Namespace<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** Where a namespace's clients put the access token: our app in `auth.token`, whaticket's in the query. */
export type TokenSource = 'auth' | 'query';

function handshakeToken(socket: AppSocket, source: TokenSource): string | undefined {
  const holder: unknown = source === 'auth' ? socket.handshake.auth : socket.handshake.query;
  return typeof holder === 'object' && holder !== null && 'token' in holder && typeof holder.token === 'string' ? holder.token : undefined;
}

function refusal(error: unknown): JoinResult {
  return { ok: false, error: error instanceof AppError ? error.code : 'ERR_INTERNAL' };
}

function parseTicketId(value: unknown): number | undefined {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 ? id : undefined;
}

/** Authenticates every handshake of `nsp` and serves the joins of its sockets. */
export function serveConnections(ctx: AppContext, nsp: AppNamespace, source: TokenSource): void {
  nsp.use(async (socket, next) => {
    try {
      socket.data.user = await userFromAccessToken(ctx, handshakeToken(socket, source));
      socket.data.queueIds = await userQueueIds(ctx.db, socket.data.user.id);
      next();
    } catch (error) {
      next(new Error(error instanceof AppError ? error.code : 'ERR_INVALID_TOKEN'));
    }
  });

  nsp.on('connection', (socket: AppSocket) => {
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
      // An agent's 'Atendendo' list listening: the moment they can be handed tickets live.
      void Promise.resolve(joinTopic(TOPICS.status(known))).then(() => known === 'open' && ctx.presence.arrived(user.id));
      answer(ack, { ok: true });
    });
    // A chat is joined only when its ticket may be seen now; what changes later the audience rooms follow.
    socket.on('joinChatBox', (ticketId, ack) => {
      const id = parseTicketId(ticketId);
      void (async () => {
        if (id === undefined) throw new AppError('ERR_VALIDATION');
        const [ticket, actor] = await Promise.all([findTicketById(ctx.db, id), findAuthUserById(ctx.db, user.id)]);
        // A ticket the user may not see answers as one that does not exist, as the API does.
        if (!ticket || !actor || !(await canReadTicket(ctx, actor, ticket))) throw new AppError('ERR_NO_TICKET_FOUND');
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
}
