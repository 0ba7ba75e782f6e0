/**
 * The server sends ticket events only to sockets that joined the lists of a status
 * (`joinTickets`). The board and the dashboard follow every status, so they join all three, and
 * again after a reconnection (a new connection starts with no topics). Joins last as long as the
 * socket: the cached lists keep following once the page is left, which costs nothing extra.
 */
import { useCallback } from 'react';
import { TICKET_STATUSES } from '@zapdesk/shared/domain';
import { useSocketSubscription, type AppSocket } from '../../core/realtime/SocketProvider';

export function useJoinTicketLists(): void {
  const subscribe = useCallback((socket: AppSocket) => {
    const join = () => {
      for (const status of TICKET_STATUSES) socket.emit('joinTickets', status);
    };
    if (socket.connected) join();
    socket.on('connect', join);
    return () => {
      socket.off('connect', join);
    };
  }, []);
  useSocketSubscription(subscribe);
}
