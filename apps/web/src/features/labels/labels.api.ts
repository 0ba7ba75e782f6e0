/** Labels: the admin's list, putting them on tickets and contacts, and the cache patches that keep screens in step. */
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { TLabel, TLabelInput } from '@zapdesk/shared/labels';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { ServerToClientEvents } from '@zapdesk/shared/realtime';
import type { TContact } from '@zapdesk/shared/schemas';
import { request, requestVoid } from '../../core/api/client';
import { removeFromArray, upsertInArray } from '../../core/lists/liveCache';

export const labelsKey = ['labels'] as const;

export function useLabels() {
  return useQuery({ queryKey: labelsKey, queryFn: () => request<TLabel[]>('/labels') });
}

export function createLabel(input: TLabelInput) {
  return request<TLabel>('/labels', { method: 'POST', body: input });
}

export function updateLabel(id: number, input: TLabelInput) {
  return request<TLabel>(`/labels/${id}`, { method: 'PUT', body: input });
}

export function deleteLabel(id: number) {
  return requestVoid(`/labels/${id}`, { method: 'DELETE' });
}

/** Puts a label on a ticket (`on`) or takes it off; answers with the ticket as it now is. */
export function setTicketLabel(ticketId: number, labelId: number, on: boolean) {
  return on ? request<TTicket>(`/tickets/${ticketId}/labels`, { method: 'POST', body: { labelId } }) : request<TTicket>(`/tickets/${ticketId}/labels/${labelId}`, { method: 'DELETE' });
}

/** The same for a contact. */
export function setContactLabel(contactId: number, labelId: number, on: boolean) {
  return on ? request<TContact>(`/contacts/${contactId}/labels`, { method: 'POST', body: { labelId } }) : request<TContact>(`/contacts/${contactId}/labels/${labelId}`, { method: 'DELETE' });
}

const byName = (a: TLabel, b: TLabel) => a.name.localeCompare(b.name);

export function saveLabelInCache(queryClient: QueryClient, label: TLabel): void {
  upsertInArray(queryClient, labelsKey, label, byName);
}

/** A label changed or went: the list follows; tickets and contacts carrying it are read again (their chips follow). */
export function applyLabelEvent(queryClient: QueryClient, payload: Parameters<ServerToClientEvents['label']>[0]): void {
  if (payload.action === 'delete') removeFromArray(queryClient, labelsKey, payload.labelId);
  else saveLabelInCache(queryClient, payload.label);
  if (payload.action !== 'create') void queryClient.invalidateQueries({ queryKey: ['contacts'] });
}

/** A contact's new labels show at once in every open chat of that contact. */
export function saveContactInTickets(queryClient: QueryClient, contact: TContact): void {
  queryClient.setQueriesData<TTicket>({ queryKey: ['tickets', 'detail'] }, (current) =>
    current && typeof current === 'object' && 'contactId' in current && current.contactId === contact.id ? { ...current, contact } : current,
  );
}

/** Black or white, whichever reads better on the label's colour. */
export function textOn(color: string): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(color)?.[1];
  if (!hex) return '#fff';
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return (r ?? 0) * 0.299 + (g ?? 0) * 0.587 + (b ?? 0) * 0.114 > 160 ? 'rgba(0,0,0,0.87)' : '#fff';
}
