/**
 * The first-run checklist's state: read from the server (what exists decides each step), again
 * when the window gets the focus, every half minute, and soon after a connection, queue, user or
 * message changes live.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { TFirstRun } from '@zapdesk/shared/schemas';
import { request } from '../../core/api/client';
import { useSocketSubscription, type AppSocket } from '../../core/realtime/SocketProvider';

export const firstRunKey = ['firstRun'] as const;

const REFRESH_MS = 30_000;
/** A burst of live events (a scan changes a connection several times) reads the state once. */
const EVENT_DELAY_MS = 800;

export function useFirstRun(enabled: boolean) {
  return useQuery({
    queryKey: firstRunKey,
    queryFn: () => request<TFirstRun>('/onboarding'),
    enabled,
    staleTime: 0,
    refetchOnMount: 'always',
    refetchOnWindowFocus: 'always',
    refetchInterval: REFRESH_MS,
  });
}

export function dismissFirstRun() {
  return request<TFirstRun>('/onboarding/dismiss', { method: 'POST' });
}

/** Reads the checklist again shortly after anything its steps depend on changes. */
export function useFirstRunLiveRefresh(enabled: boolean): void {
  const queryClient = useQueryClient();
  const subscribe = useCallback(
    (socket: AppSocket) => {
      if (!enabled) return () => undefined;
      let timer: ReturnType<typeof setTimeout> | null = null;
      const schedule = () => {
        if (timer) return;
        timer = setTimeout(() => {
          timer = null;
          void queryClient.invalidateQueries({ queryKey: firstRunKey });
        }, EVENT_DELAY_MS);
      };
      const events = ['whatsapp', 'whatsappSession', 'queue', 'user', 'appMessage'] as const;
      for (const event of events) socket.on(event, schedule);
      return () => {
        if (timer) clearTimeout(timer);
        for (const event of events) socket.off(event, schedule);
      };
    },
    [enabled, queryClient],
  );
  useSocketSubscription(subscribe);
}
