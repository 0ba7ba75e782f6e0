/**
 * The bell's tickets: waiting or open tickets with unread messages that are unassigned or the
 * user's own, within the user's queues (the server's lists with showAll off and
 * withUnreadMessages on, kept live like every ticket list). Closed tickets are left out: closing
 * is the end of the work, and 'Close all' would otherwise leave the bell full. A contact's new
 * message on such a ticket chimes and shows a desktop notification, unless that ticket is the one
 * open in a focused window.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { ServerToClientEvents } from '@zapdesk/shared/realtime';
import { useAuth } from '../../core/auth/AuthProvider';
import { useSocketSubscription, type AppSocket } from '../../core/realtime/SocketProvider';
import { listLine } from '../../core/ui/mediaLine';
import { ticketMatchesFilter, uniqueTickets, useTicketsQuery, type TicketListFilter } from '../../features/tickets/ticketLists';
import { playChime, showDesktopNotification, unlockAudioOnFirstGesture } from './notificationAlerts';

const PENDING_FILTER: TicketListFilter = { status: 'pending', showAll: false, withUnreadMessages: true };
const OPEN_FILTER: TicketListFilter = { status: 'open', showAll: false, withUnreadMessages: true };

/** Newest activity first, as the server orders a list. */
const byActivity = (a: TTicket, b: TTicket) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id;

function openTicketId(pathname: string): number | null {
  const match = /^\/tickets\/(\d+)/.exec(pathname);
  return match ? Number(match[1]) : null;
}

export function useTicketNotifications() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const pending = useTicketsQuery(PENDING_FILTER);
  const open = useTicketsQuery(OPEN_FILTER);
  const tickets = useMemo(() => [...uniqueTickets(pending.data), ...uniqueTickets(open.data)].sort(byActivity), [pending.data, open.data]);
  const count = (pending.data?.pages[0]?.count ?? 0) + (open.data?.pages[0]?.count ?? 0);
  const hasMore = Boolean(pending.hasNextPage || open.hasNextPage);
  const isFetching = pending.isFetching || open.isFetching;
  const { fetchNextPage: nextPending, hasNextPage: morePending } = pending;
  const { fetchNextPage: nextOpen, hasNextPage: moreOpen } = open;
  const fetchMore = useCallback(() => {
    if (morePending) void nextPending();
    if (moreOpen) void nextOpen();
  }, [morePending, moreOpen, nextPending, nextOpen]);
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
      if (action !== 'create' || message.fromMe) return;
      if (!ticketMatchesFilter(ticket, PENDING_FILTER, me) && !ticketMatchesFilter(ticket, OPEN_FILTER, me)) return;
      if (openId === ticket.id && document.visibilityState === 'visible' && document.hasFocus()) return;
      playChime();
      showDesktopNotification({
        title: translate('notifications.newMessage', { name: ticket.contact.name }),
        body: listLine(ticket.lastMessage, translate) || message.body,
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

  return { tickets, count, alerts, hasMore, isFetching, fetchMore };
}
