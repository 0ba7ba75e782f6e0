/**
 * The bell's tickets: those with unread messages that are unassigned or the user's own, within
 * the user's queues (the server's list with showAll off and withUnreadMessages on, kept live like
 * every ticket list). A contact's new message on such a ticket chimes and shows a desktop
 * notification, unless that ticket is the one open in a focused window.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { ServerToClientEvents } from '@zapdesk/shared/realtime';
import { useAuth } from '../../core/auth/AuthProvider';
import { useSocketSubscription, type AppSocket } from '../../core/realtime/SocketProvider';
import { ticketMatchesFilter, uniqueTickets, useTicketsQuery, type TicketListFilter } from '../../features/tickets/ticketLists';
import { playChime, showDesktopNotification, unlockAudioOnFirstGesture } from './notificationAlerts';

const BELL_FILTER: TicketListFilter = { showAll: false, withUnreadMessages: true };

function openTicketId(pathname: string): number | null {
  const match = /^\/tickets\/(\d+)/.exec(pathname);
  return match ? Number(match[1]) : null;
}

export function useTicketNotifications() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const query = useTicketsQuery(BELL_FILTER);
  const tickets = useMemo(() => uniqueTickets(query.data), [query.data]);
  const count = query.data?.pages[0]?.count ?? 0;
  // How many alerts this tab gave: the browser tests read it, since they cannot hear the chime.
  const [alerts, setAlerts] = useState(0);

  const state = useRef({ user, openId: openTicketId(pathname), t, navigate });
  useEffect(() => {
    state.current = { user, openId: openTicketId(pathname), t, navigate };
  }, [user, pathname, t, navigate]);

  useEffect(() => unlockAudioOnFirstGesture(), []);

  const subscribe = useCallback((socket: AppSocket) => {
    const onAppMessage: ServerToClientEvents['appMessage'] = ({ action, message, ticket }) => {
      const { user: me, openId, t: translate, navigate: go } = state.current;
      if (action !== 'create' || message.fromMe || !ticketMatchesFilter(ticket, BELL_FILTER, me)) return;
      if (openId === ticket.id && document.visibilityState === 'visible' && document.hasFocus()) return;
      playChime();
      showDesktopNotification({
        title: translate('notifications.newMessage', { name: ticket.contact.name }),
        body: ticket.lastMessage || message.body,
        icon: ticket.contact.profilePicUrl,
        tag: `ticket-${ticket.id}`,
        onClick: () => void go(`/tickets/${ticket.id}`),
      });
      setAlerts((n) => n + 1);
    };
    socket.on('appMessage', onAppMessage);
    return () => {
      socket.off('appMessage', onAppMessage);
    };
  }, []);
  useSocketSubscription(subscribe);

  return { tickets, count, alerts, query };
}
