/**
 * The realtime gateway: the one place that talks to sockets. Two namespaces share the rooms'
 * rules (rooms.ts), the authentication and the joins (connection.ts):
 * - `/`: our app's clients, the access token in `auth.token`;
 * - `/api`: whaticket's frontend, which connects to `<origin>/api` (a namespace to socket.io's
 *   client) with the access token in the query, and hears whaticket's forms of the events
 *   (broadcasts.ts, ticket-forms.ts).
 * A cross-origin frontend (FRONTEND_URL) gets CORS for exactly its origin, as the HTTP API does.
 */
import { createAdapter } from '@socket.io/redis-adapter';
import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '@zapdesk/shared/realtime';
import type { AppContext } from '../core/context.js';
import { socketCors } from '../core/http/cors.js';
import type { RedisClients } from '../core/redis.js';
import { findAuthUserById } from '../features/users/users.repository.js';
import { broadcastEvents } from './broadcasts.js';
import { encodeOnDemand } from './encode-on-demand.js';
import { serveConnections, type AppNamespace, type SocketData } from './connection.js';
import { audienceRooms, ROOMS, roomsOf, topicRooms } from './rooms.js';

export { ROOMS, TOPICS, audienceRooms, ticketRooms, topicRooms } from './rooms.js';
export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** whaticket's frontend: `io('<origin>/api', { query: { token } })`. */
export const WHATICKET_NAMESPACE = '/api';

export function attachRealtime(ctx: AppContext, httpServer: HttpServer, redis?: RedisClients): RealtimeServer {
  // CORS for the socket's polling transport: FRONTEND_URL's origin with credentials, nothing for others.
  const cors = socketCors(ctx.config.frontendOrigin);
  const io: RealtimeServer = new Server(httpServer, { path: '/socket.io', serveClient: false, ...(cors ? { cors } : {}) });
  // The cluster mode: what this node emits to a room reaches that room's sockets on every node
  // (every namespace, the ones made below too, uses this adapter).
  if (redis) io.adapter(createAdapter(redis.pub, redis.sub, { key: `${redis.prefix}:socket.io` }));
  const namespaces: AppNamespace[] = [io.of('/'), io.of(WHATICKET_NAMESPACE)];
  const [main, whaticket] = namespaces as [AppNamespace, AppNamespace];
  for (const nsp of namespaces) encodeOnDemand(nsp.adapter);

  serveConnections(ctx, main, 'auth');
  serveConnections(ctx, whaticket, 'query');
  // The metrics: sockets signed in, and those open on this node now.
  for (const nsp of namespaces) nsp.on('connection', () => ctx.metrics.socketConnectionsOpened.inc({ namespace: nsp.name }));
  ctx.metrics.watchSockets(() => Object.fromEntries(namespaces.map((nsp) => [nsp.name, nsp.sockets.size])));
  broadcastEvents(ctx, [
    { nsp: main, form: 'zapdesk' },
    { nsp: whaticket, form: 'whaticket' },
  ]);

  // Online: a socket open for the user on any node and namespace (the Redis adapter asks every
  // node). Should a node not answer in time, what this node's own sockets say is what is known.
  ctx.presence.answerWith(async () => {
    const lists = await Promise.all(namespaces.map((nsp) => nsp.fetchSockets().catch(() => nsp.local.fetchSockets())));
    return lists.flat().map((socket) => socket.data.user.id);
  });

  const { events } = ctx;
  events.subscribe('user.saved', ({ user, created }) => {
    // A changed profile or queue list changes what this user's open sockets may hear: their
    // audience rooms are rebuilt, and their topics joined again for the new audience.
    // The user hears of the change once the rooms are rebuilt.
    void Promise.all([findAuthUserById(ctx.db, user.id), Promise.all(namespaces.map((nsp) => nsp.in(ROOMS.user(user.id)).fetchSockets()))])
      .then(([auth, lists]) => {
        if (!auth) return;
        const audience = audienceRooms(
          auth,
          user.queues.map((q) => q.id),
        );
        for (const socket of lists.flat()) {
          const { topics } = roomsOf(socket);
          for (const room of [...socket.rooms]) if (room !== socket.id) socket.leave(room);
          socket.join([...audience, ...topicRooms(topics, audience)]);
        }
      })
      .finally(() => {
        for (const nsp of namespaces) nsp.to([ROOMS.admins, ROOMS.user(user.id)]).emit('user', { action: created ? 'create' : 'update', user });
      });
  });
  events.subscribe('user.sessionsRevoked', ({ userId }) => {
    for (const nsp of namespaces) nsp.in(ROOMS.user(userId)).disconnectSockets(true);
  });

  return io;
}
