/**
 * Tickets and their messages: the calls, the cache keys, and the patches that keep the cached
 * tab lists and the open chat in step with socket events and with this tab's own actions.
 */
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { TicketStatus } from '@zapdesk/shared/domain';
import type { ZMessageListSchema, TTicket, TMessage } from '@zapdesk/shared/messaging';
import type { ServerToClientEvents } from '@zapdesk/shared/realtime';
import type { TUser } from '@zapdesk/shared/schemas';
import { request, requestVoid } from '../../core/api/client';
import { markTicketReadInLists, newestOf, removeTicketFromLists, saveTicketInLists, ticketListsKey } from './ticketLists';

export const ticketsKeys = {
  all: ['tickets'] as const,
  lists: ticketListsKey,
  detail: (id: number) => ['tickets', 'detail', id] as const,
  messages: (ticketId: number) => ['tickets', 'messages', ticketId] as const,
};

export type MessagePage = z.infer<typeof ZMessageListSchema>;

/** A ticket; a read answered with an older state than this tab already knows gets the newer one. */
export async function fetchTicket(id: number) {
  return newestOf(await request<TTicket>(`/tickets/${id}`));
}

export function updateTicketStatus(id: number, status: TicketStatus) {
  return request<TTicket>(`/tickets/${id}`, { method: 'PUT', body: { status } });
}

/** A new ticket for a contact: open and assigned to the current user (ERR_OTHER_OPEN_TICKET when one is active). */
/** A ticket for a contact picked from the list, or for the person with a number typed in full; in one of the opener's queues when given. */
export function createTicket(target: { contactId: number } | { number: string }, userId: number, queueId: number | null) {
  return request<TTicket>('/tickets', { method: 'POST', body: { ...target, userId, status: 'open', ...(queueId !== null ? { queueId } : {}) } });
}

export type CloseAllSummary = { own: number; waiting: number; others: number };

/** What 'Close all' would close: the user's own open tickets, and for admins the waiting ones and other agents'. */
export function closeAllSummary() {
  return request<CloseAllSummary>('/ticketsClosed/summary');
}

/** Close all: an admin's, every open and waiting ticket; an agent's, their own open tickets. */
export function closeAllTickets() {
  return request<{ closed: number }>('/ticketsClosed', { method: 'POST' });
}

export function fetchMessagesPage(ticketId: number, pageNumber: number): Promise<MessagePage> {
  return request<z.output<typeof ZMessageListSchema>>(`/messages/${ticketId}`, { query: { pageNumber, notes: 'true' } });
}

export function sendTextMessage(ticketId: number, body: string, quotedMsgId?: number) {
  return request<TMessage[]>(`/messages/${ticketId}`, {
    method: 'POST',
    body: { body, ...(quotedMsgId === undefined ? {} : { quotedMsg: { id: quotedMsgId } }) },
  });
}

export function sendMediaMessage(ticketId: number, files: File[], body: string, quotedMsgId?: number) {
  const form = new FormData();
  form.append('body', body);
  if (quotedMsgId !== undefined) form.append('quotedMsgId', String(quotedMsgId));
  for (const file of files) form.append('medias', file);
  return request<TMessage[]>(`/messages/${ticketId}`, { method: 'POST', body: form });
}

/** Sends again an own message whose send failed; answers with the message as it now stands. */
export function retryMessage(id: number) {
  return request<TMessage>(`/messages/${id}/retry`, { method: 'POST' });
}

export function deleteMessage(id: number) {
  return requestVoid(`/messages/${id}`, { method: 'DELETE' });
}

// ---------- cache patches ----------

/** Moves a ticket to where it now belongs in every cached list (see ticketLists.ts), and refreshes its open chat. */
export function saveTicketInCache(queryClient: QueryClient, ticket: TTicket, user: TUser | null): void {
  saveTicketInLists(queryClient, ticket, user);
  // Only a ticket already read is updated: no cache entry for every ticket an event mentions.
  // The newest known state: a late or repeated event never rolls the open chat back.
  const shown = newestOf(ticket);
  queryClient.setQueryData<TTicket>(ticketsKeys.detail(ticket.id), (current) => (current && current.updatedAt > shown.updatedAt ? current : current && shown));
}

export function removeTicketFromCache(queryClient: QueryClient, ticketId: number): void {
  removeTicketFromLists(queryClient, ticketId);
  // The open chat's queries are left alone: removing them under a mounted chat would refetch a
  // ticket that no longer exists. The chat leaves by itself, and unused queries are collected.
}

/** Reading a ticket's messages clears its unread count on the server; the rows follow at once. */
export function markTicketReadInCache(queryClient: QueryClient, ticketId: number): void {
  markTicketReadInLists(queryClient, ticketId);
}

/** Adds a message to the open chat's newest page, or replaces the one with its id wherever it is. */
export function saveMessageInCache(queryClient: QueryClient, message: TMessage): void {
  queryClient.setQueryData<InfiniteData<MessagePage>>(ticketsKeys.messages(message.ticketId), (data) => {
    if (!data || data.pages.length === 0) return data;
    const known = data.pages.some((page) => page.messages.some((row) => row.id === message.id));
    if (known) {
      return { ...data, pages: data.pages.map((page) => ({ ...page, messages: page.messages.map((row) => (row.id === message.id ? message : row)) })) };
    }
    const [newest, ...older] = data.pages;
    if (!newest) return data;
    return { ...data, pages: [{ ...newest, count: newest.count + 1, messages: [...newest.messages, message] }, ...older] };
  });
}

export function applyTicketEvent(queryClient: QueryClient, payload: Parameters<ServerToClientEvents['ticket']>[0], user: TUser | null): void {
  if (payload.action === 'update') saveTicketInCache(queryClient, payload.ticket, user);
  else if (payload.action === 'updateUnread') markTicketReadInCache(queryClient, payload.ticketId);
  else removeTicketFromCache(queryClient, payload.ticketId);
}

export function applyAppMessageEvent(queryClient: QueryClient, payload: Parameters<ServerToClientEvents['appMessage']>[0], user: TUser | null): void {
  saveMessageInCache(queryClient, payload.message);
  saveTicketInCache(queryClient, payload.ticket, user);
}
