import type { QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { foldText } from '@zapdesk/shared/domain';
import type { ServerToClientEvents } from '@zapdesk/shared/realtime';
import type { TContactByNumber, TContactImportResult, ZContactListSchema, TContact, TContactInput } from '@zapdesk/shared/schemas';
import { downloadFile, request, requestVoid } from '../../core/api/client';
import { localizeCsv } from '../../core/ui/localizeCsv';
import { i18n } from '../../i18n/i18n';
import { byText, removeFromPages, upsertInPages, type Page } from '../../core/lists/liveCache';

export const contactsKeys = {
  list: ['contacts', 'list'] as const,
  detail: (id: number) => ['contacts', 'detail', id] as const,
};

/** `labelIds`: only the contacts carrying any of these labels. */
export async function fetchContactsPage(search: string, pageNumber: number, labelIds: number[] = []): Promise<Page<TContact>> {
  const query = { searchParam: search, pageNumber, ...(labelIds.length ? { labelIds: JSON.stringify(labelIds) } : {}) };
  const { contacts, count, hasMore } = await request<z.output<typeof ZContactListSchema>>('/contacts', { query });
  return { items: contacts, count, hasMore };
}

/** 'Novo ticket': the person with this exact number, typed as people type it (the contact itself only when the user may see it). */
export function fetchContactByNumber(number: string) {
  return request<TContactByNumber>('/contacts/by-number', { query: { number } });
}

export function fetchContact(id: number) {
  return request<TContact>(`/contacts/${id}`);
}

export function createContact(input: TContactInput) {
  return request<TContact>('/contacts', { method: 'POST', body: input });
}

export function updateContact(id: number, input: TContactInput) {
  return request<TContact>(`/contacts/${id}`, { method: 'PUT', body: input });
}

export function deleteContact(id: number) {
  return requestVoid(`/contacts/${id}`, { method: 'DELETE' });
}

export function importContacts(file: File) {
  const body = new FormData();
  body.append('file', file);
  return request<TContactImportResult>('/contacts/import', { method: 'POST', body });
}

/** The contacts as zdg.csv. */
export function downloadContactsCsv(): Promise<void> {
  // The titles are ones the contacts import reads back (nome/numero/e-mail, nombre/numero/correo).
  const columns = {
    name: { title: i18n.t('exports.contacts.name') },
    number: { title: i18n.t('exports.contacts.number') },
    email: { title: i18n.t('exports.contacts.email') },
    labels: { title: i18n.t('labels.contactsCsvColumn') },
  };
  return downloadFile('/contacts/export', 'zdg.csv', (text) => localizeCsv(text, columns));
}

function matchesSearch(contact: TContact, search: string): boolean {
  const needle = foldText(search.trim());
  return needle === '' || foldText(contact.name).includes(needle) || contact.number.includes(needle) || foldText(contact.email).includes(needle);
}

export function saveContactInCache(queryClient: QueryClient, contact: TContact): void {
  upsertInPages(queryClient, { listKey: contactsKeys.list, item: contact, matches: matchesSearch, compare: byText((row) => row.name) });
  queryClient.setQueryData(contactsKeys.detail(contact.id), contact);
}

export function applyContactEvent(queryClient: QueryClient, payload: Parameters<ServerToClientEvents['contact']>[0]): void {
  if (payload.action === 'delete') {
    removeFromPages(queryClient, contactsKeys.list, payload.contactId);
    queryClient.removeQueries({ queryKey: contactsKeys.detail(payload.contactId) });
  } else {
    saveContactInCache(queryClient, payload.contact);
  }
}
