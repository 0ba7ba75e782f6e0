import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { TWhatsappInput } from '@zapdesk/shared/messaging';
import type { ServerToClientEvents } from '@zapdesk/shared/realtime';
import type { TWhatsapp } from '@zapdesk/shared/schemas';
import { request, requestVoid } from '../../core/api/client';
import { removeFromArray, upsertInArray } from '../../core/lists/liveCache';

export const whatsappsKey = ['whatsapps'] as const;

export function fetchWhatsapps() {
  return request<TWhatsapp[]>('/whatsapp');
}

export function useWhatsapps(enabled = true) {
  return useQuery({ queryKey: whatsappsKey, queryFn: fetchWhatsapps, enabled });
}

export function createWhatsapp(input: TWhatsappInput) {
  return request<TWhatsapp>('/whatsapp', { method: 'POST', body: input });
}

/** The channel of a connection never changes, so it is not sent. */
export function updateWhatsapp(id: number, input: Omit<TWhatsappInput, 'channel'>) {
  return request<TWhatsapp>(`/whatsapp/${id}`, { method: 'PUT', body: input });
}

export function deleteWhatsapp(id: number) {
  return requestVoid(`/whatsapp/${id}`, { method: 'DELETE' });
}

/** The session calls: try again (start), new QR (log out, then start a fresh pairing), disconnect (log out). */
export const SESSION_ACTIONS = { retry: 'POST', newQr: 'PUT', disconnect: 'DELETE' } as const;
export type SessionAction = keyof typeof SESSION_ACTIONS;

export function runSessionAction(id: number, action: SessionAction) {
  return request<TWhatsapp>(`/whatsappsession/${id}`, { method: SESSION_ACTIONS[action] });
}

/** Pairing by phone number: the code the phone's owner types in WhatsApp instead of scanning the QR code. */
export function requestPairingCode(id: number, phoneNumber: string) {
  return request<{ code: string }>(`/whatsappsession/${id}/pairing-code`, { method: 'POST', body: { phoneNumber } });
}

const byName = (a: TWhatsapp, b: TWhatsapp) => a.name.localeCompare(b.name) || a.id - b.id;

/** Upserts a connection, unless the cache already holds a newer state of it (a live update that overtook an answer). */
export function saveWhatsappInCache(queryClient: QueryClient, whatsapp: TWhatsapp): void {
  const cached = queryClient.getQueryData<TWhatsapp[]>(whatsappsKey)?.find((row) => row.id === whatsapp.id);
  if (cached && cached.updatedAt > whatsapp.updatedAt) return;
  upsertInArray(queryClient, whatsappsKey, whatsapp, byName);
}

export function removeWhatsappFromCache(queryClient: QueryClient, id: number): void {
  removeFromArray(queryClient, whatsappsKey, id);
}

export function applyWhatsappEvent(queryClient: QueryClient, payload: Parameters<ServerToClientEvents['whatsapp']>[0]): void {
  if (payload.action === 'delete') removeWhatsappFromCache(queryClient, payload.whatsappId);
  else saveWhatsappInCache(queryClient, payload.whatsapp);
}

/** Session updates change the status, QR code and retries of a connection already listed. */
export function applyWhatsappSessionEvent(queryClient: QueryClient, payload: Parameters<ServerToClientEvents['whatsappSession']>[0]): void {
  const { session } = payload;
  queryClient.setQueryData<TWhatsapp[]>(whatsappsKey, (rows) => rows?.map((row) => (row.id === session.id && session.updatedAt >= row.updatedAt ? { ...row, ...session } : row)));
}
