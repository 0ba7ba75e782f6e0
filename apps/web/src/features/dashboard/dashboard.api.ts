/**
 * The dashboard's numbers: tickets in service, waiting and closed within the user's queues,
 * today's new tickets per hour, and over the chosen period new tickets per day and the figures per
 * queue and agent. Ticket events from the socket make it read them again.
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { DashboardRange, TDashboard } from '@zapdesk/shared/messaging';
import { request } from '../../core/api/client';
import { useSocketSubscription, type AppSocket } from '../../core/realtime/SocketProvider';
import { useJoinTicketLists } from '../kanban/useJoinTicketLists';

export type { TDashboard };

export const dashboardKey = ['dashboard'] as const;

/** A burst of ticket events (a contact typing several messages) refreshes the counters once. */
export const DASHBOARD_REFRESH_MS = 1500;

export function fetchDashboard(range: DashboardRange) {
  return request<TDashboard>(`/dashboard?range=${range}`);
}

/** Another period keeps the last numbers on screen until its own arrive (the counters do not change). */
export function useDashboard(range: DashboardRange) {
  return useQuery({ queryKey: [...dashboardKey, range], queryFn: () => fetchDashboard(range), placeholderData: keepPreviousData });
}

/** Reads the dashboard again after ticket changes, at most once per DASHBOARD_REFRESH_MS. */
export function useDashboardLiveRefresh(): void {
  const queryClient = useQueryClient();
  useJoinTicketLists();
  const subscribe = useCallback(
    (socket: AppSocket) => {
      let timer: ReturnType<typeof setTimeout> | null = null;
      const schedule = () => {
        if (timer) return;
        timer = setTimeout(() => {
          timer = null;
          void queryClient.invalidateQueries({ queryKey: dashboardKey });
        }, DASHBOARD_REFRESH_MS);
      };
      // Events missed while the socket was down are not replayed.
      socket.on('connect', schedule);
      socket.on('ticket', schedule);
      socket.on('appMessage', schedule);
      return () => {
        if (timer) clearTimeout(timer);
        socket.off('connect', schedule);
        socket.off('ticket', schedule);
        socket.off('appMessage', schedule);
      };
    },
    [queryClient],
  );
  useSocketSubscription(subscribe);
}
