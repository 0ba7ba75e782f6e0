/**
 * Tickets and their messages: the calls, the cache keys, and the patches that keep the cached
 * tab lists and the open chat in step with socket events and with this tab's own actions.
 */
import { useInfiniteQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { isAdminProfile, type TicketStatus } from '@zapdesk/shared/domain';
import { ZMessageListSchema, ZMessageSchema, ZTicketListSchema, ZTicketSchema, type TMessage, type TTicket } from '@zapdesk/shared/messaging';
import type { ServerToClientEvents } from '@zapdesk/shared/realtime';
import type { TUser } from '@zapdesk/shared/schemas';
import { request, requestVoid } from '../../core/api/client';
import type { Page } from '../../core/lists/liveCache';

export const ticketsKeys = {
  all: ['tickets'] as const,
  lists: ['tickets', 'list'] as const,
  list: (status: TicketStatus, showAll: boolean) => ['tickets', 'list', status, showAll] as const,
  detail: (id: number) => ['tickets', 'detail', id] as const,
  messages: (ticketId: number) => ['tickets', 'messages', ticketId] as const,
};

export type MessagePage = z.infer<typeof ZMessageListSchema>;

export async function fetchTicketsPage(status: TicketStatus, showAll: boolean, pageNumber: number): Promise<Page<TTicket>> {
  const { tickets, count, hasMore } = await request('/tickets', ZTicketListSchema, { query: { status, showAll: String(showAll), pageNumber } });
  return { items: tickets, count, hasMore };
}

/** The tab lists share their queries with the badges: one request per status and 'All' choice. */
export function useTicketsQuery(status: TicketStatus, showAll: boolean) {
  return useInfiniteQuery({
    queryKey: ticketsKeys.list(status, showAll),
    queryFn: ({ pageParam }) => fetchTicketsPage(status, showAll, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

export function fetchTicket(id: number) {
  return request(`/tickets/${id}`, ZTicketSchema);
}

export function updateTicketStatus(id: number, status: TicketStatus) {
  return request(`/tickets/${id}`, ZTicketSchema, { method: 'PUT', body: { status } });
}

export function fetchMessagesPage(ticketId: number, pageNumber: number): Promise<MessagePage> {
  return request(`/messages/${ticketId}`, ZMessageListSchema, { query: { pageNumber } });
}

export function sendTextMessage(ticketId: number, body: string, quotedMsgId?: number) {
  return request(`/messages/${ticketId}`, z.array(ZMessageSchema), {
    method: 'POST',
    body: { body, ...(quotedMsgId === undefined ? {} : { quotedMsg: { id: quotedMsgId } }) },
  });
}

export function sendMediaMessage(ticketId: number, files: File[], body: string, quotedMsgId?: number) {
  const form = new FormData();
  form.append('body', body);
  if (quotedMsgId !== undefined) form.append('quotedMsgId', String(quotedMsgId));
  for (const file of files) form.append('medias', file);
  return request(`/messages/${ticketId}`, z.array(ZMessageSchema), { method: 'POST', body: form });
}

export function deleteMessage(id: number) {
  return requestVoid(`/messages/${id}`, { method: 'DELETE' });
}

// ---------- cache patches ----------

/** The server's order: newest activity first. */
const byActivity = (a: TTicket, b: TTicket) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id;

/** Whether a ticket belongs in a list of this status, as the server would answer it for this user. */
function belongs(ticket: TTicket, status: TicketStatus, showAll: boolean, user: TUser | null): boolean {
  if (ticket.status !== status) return false;
  if (!user) return true;
  if (isAdminProfile(user.profile) && showAll) return true;
  const ownOrFree = ticket.userId === null || ticket.userId === user.id;
  const inQueues = ticket.queueId === null || user.queues.some((queue) => queue.id === ticket.queueId);
  return ownOrFree && inQueues;
}

/**
 * Moves a ticket to where it now belongs in every cached tab list: out of the lists of its old
 * status, into the right place of the lists of its new one, with the counts following.
 */
export function saveTicketInCache(queryClient: QueryClient, ticket: TTicket, user: TUser | null): void {
  for (const [key, data] of queryClient.getQueriesData<InfiniteData<Page<TTicket>>>({ queryKey: ticketsKeys.lists })) {
    if (!data || data.pages.length === 0) continue;
    const status = key[2];
    const showAll = key[3] === true;
    if (status !== 'pending' && status !== 'open' && status !== 'closed') continue;
    const cached = data.pages.flatMap((page) => page.items).find((row) => row.id === ticket.id);
    // A live update that overtook an answer: keep the newer state.
    if (cached && cached.updatedAt > ticket.updatedAt) continue;
    const wanted = belongs(ticket, status, showAll, user);
    const delta = (wanted ? 1 : 0) - (cached ? 1 : 0);
    const pages = data.pages.map((page) => ({ ...page, count: Math.max(0, page.count + delta), items: page.items.filter((row) => row.id !== ticket.id) }));
    if (wanted) {
      let placed = false;
      for (const page of pages) {
        const index = page.items.findIndex((row) => byActivity(ticket, row) < 0);
        if (index >= 0) {
          page.items.splice(index, 0, ticket);
          placed = true;
          break;
        }
      }
      const lastPage = pages[pages.length - 1];
      if (!placed && lastPage && !lastPage.hasMore) lastPage.items.push(ticket);
    }
    queryClient.setQueryData(key, { ...data, pages });
  }
  // Only a ticket already read is updated: no cache entry for every ticket an event mentions.
  queryClient.setQueryData<TTicket>(ticketsKeys.detail(ticket.id), (current) => (current && current.updatedAt > ticket.updatedAt ? current : current && ticket));
}

export function removeTicketFromCache(queryClient: QueryClient, ticketId: number): void {
  for (const [key, data] of queryClient.getQueriesData<InfiniteData<Page<TTicket>>>({ queryKey: ticketsKeys.lists })) {
    if (!data) continue;
    const present = data.pages.some((page) => page.items.some((row) => row.id === ticketId));
    if (!present) continue;
    const pages = data.pages.map((page) => ({ ...page, count: Math.max(0, page.count - 1), items: page.items.filter((row) => row.id !== ticketId) }));
    queryClient.setQueryData(key, { ...data, pages });
  }
  // The open chat's queries are left alone: removing them under a mounted chat would refetch a
  // ticket that no longer exists. The chat leaves by itself, and unused queries are collected.
}

/** Reading a ticket's messages clears its unread count on the server; the rows follow at once. */
export function markTicketReadInCache(queryClient: QueryClient, ticketId: number): void {
  for (const [key, data] of queryClient.getQueriesData<InfiniteData<Page<TTicket>>>({ queryKey: ticketsKeys.lists })) {
    if (!data || !data.pages.some((page) => page.items.some((row) => row.id === ticketId && row.unreadMessages > 0))) continue;
    const pages = data.pages.map((page) => ({ ...page, items: page.items.map((row) => (row.id === ticketId ? { ...row, unreadMessages: 0 } : row)) }));
    queryClient.setQueryData(key, { ...data, pages });
  }
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
