/**
 * Exactly one socket per tab: opened after login with the current access token, re-opened with a
 * fresh token when the server refuses or drops it, closed on logout.
 */
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { io, type Socket } from 'socket.io-client';
import { TICKET_STATUSES } from '@zapdesk/shared/domain';
import type { ClientToServerEvents, ServerToClientEvents } from '@zapdesk/shared/realtime';
import { refreshSession } from '../api/client';
import { getToken } from '../api/tokenStore';
import { useAuth } from '../auth/AuthProvider';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const SocketContext = createContext<AppSocket | null>(null);

/** Who hears that a socket has joined its rooms (onRoomsJoined). */
const joinedListeners = new WeakMap<AppSocket, Set<() => void>>();

/**
 * Calls `listener` each time the socket has joined its rooms after a connect, the first one
 * included. An event sent before then reached no room of this tab and is not replayed: what was
 * read before it may have missed one. Returns the unsubscribe.
 */
export function onRoomsJoined(socket: AppSocket, listener: () => void): () => void {
  const listeners = joinedListeners.get(socket) ?? new Set();
  joinedListeners.set(socket, listeners);
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** How many refresh-and-reconnect rounds to try before waiting for the next token change. */
const MAX_RECOVERIES = 3;

export function SocketProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const userId = user?.id ?? null;
  const [socket, setSocket] = useState<AppSocket | null>(null);

  useEffect(() => {
    if (userId === null) return;
    let disposed = false;
    let recoveries = 0;
    const next: AppSocket = io({
      path: '/socket.io',
      // WebSocket only: any node of a cluster can take the connection, no sticky sessions needed.
      transports: ['websocket'],
      autoConnect: false,
      withCredentials: true,
      auth: (cb) => cb({ token: getToken() ?? '' }),
    });

    // The server refused the handshake (expired or revoked token) or dropped a revoked session:
    // get a fresh token and connect again. A failed refresh ends the session, which closes this socket.
    const recover = async () => {
      if (recoveries >= MAX_RECOVERIES) return;
      recoveries += 1;
      const session = await refreshSession();
      if (session && !disposed) next.connect();
    };

    // The server sends ticket and message events only to what a socket joined (and only for
    // tickets its user may see). Rooms do not survive a reconnect, so every connect joins again:
    // the notification room (the bell) and every status list (tickets lists, Kanban, dashboard).
    next.on('connect', () => {
      recoveries = 0;
      const joins = [new Promise((joined) => next.emit('joinNotification', joined)), ...TICKET_STATUSES.map((status) => new Promise((joined) => next.emit('joinTickets', status, joined)))];
      void Promise.all(joins).then(() => {
        if (!disposed && next.connected) for (const listener of joinedListeners.get(next) ?? []) listener();
      });
    });
    next.on('connect_error', () => {
      // While `active`, the client retries by itself (a network blip); otherwise the server said no.
      if (!next.active) void recover();
    });
    next.on('disconnect', (reason) => {
      if (reason === 'io server disconnect') void recover();
    });
    next.connect();
    setSocket(next);

    return () => {
      disposed = true;
      next.removeAllListeners();
      next.disconnect();
      setSocket(null);
    };
  }, [userId]);

  return <SocketContext.Provider value={socket}>{children}</SocketContext.Provider>;
}

export function useSocket(): AppSocket | null {
  return useContext(SocketContext);
}

/**
 * Runs `subscribe` with the tab's socket while the component is mounted; it returns the
 * unsubscribe. Pass a stable function (useCallback).
 */
export function useSocketSubscription(subscribe: (socket: AppSocket) => () => void): void {
  const socket = useSocket();
  useEffect(() => (socket ? subscribe(socket) : undefined), [socket, subscribe]);
}

/**
 * Joins an open chat's room while mounted (and again after a reconnect), as the spec's chat
 * does. The server admits it only for a ticket the user may see.
 */
export function useChatBoxJoin(ticketId: number | undefined): void {
  const socket = useSocket();
  useEffect(() => {
    if (!socket || ticketId === undefined) return;
    const join = () => socket.emit('joinChatBox', ticketId);
    if (socket.connected) join();
    socket.on('connect', join);
    return () => {
      socket.off('connect', join);
      socket.emit('leaveChatBox', ticketId);
    };
  }, [socket, ticketId]);
}
