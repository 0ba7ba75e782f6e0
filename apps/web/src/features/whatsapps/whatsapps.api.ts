import { useQuery, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { ServerToClientEvents } from '@zapdesk/shared/realtime';
import { ZWhatsappSchema, type TWhatsapp } from '@zapdesk/shared/schemas';
import { request } from '../../core/api/client';
import { removeFromArray, upsertInArray } from '../../core/lists/liveCache';

export const whatsappsKey = ['whatsapps'] as const;

export function fetchWhatsapps() {
  return request('/whatsapp', z.array(ZWhatsappSchema));
}

export function useWhatsapps(enabled = true) {
  return useQuery({ queryKey: whatsappsKey, queryFn: fetchWhatsapps, enabled });
}

export function applyWhatsappEvent(queryClient: QueryClient, payload: Parameters<ServerToClientEvents['whatsapp']>[0]): void {
  if (payload.action === 'delete') removeFromArray(queryClient, whatsappsKey, payload.whatsappId);
  else upsertInArray(queryClient, whatsappsKey, payload.whatsapp, (a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/** Session updates change the status, QR code and retries of a connection already listed. */
export function applyWhatsappSessionEvent(queryClient: QueryClient, payload: Parameters<ServerToClientEvents['whatsappSession']>[0]): void {
  const { session } = payload;
  queryClient.setQueryData<TWhatsapp[]>(whatsappsKey, (rows) => rows?.map((row) => (row.id === session.id ? { ...row, ...session } : row)));
}
