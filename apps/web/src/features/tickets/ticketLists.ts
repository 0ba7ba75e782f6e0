/**
 * The cached ticket lists: one infinite query per filter (a tab's status, the 'All' switch, the
 * group flag, the queue filter, a search, the bell's unread-only list), and the patches that move
 * a ticket between them when this tab or a socket event changes it.
 */
import { useInfiniteQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { isAdminProfile, TICKET_STATUSES, type TicketStatus } from '@zapdesk/shared/domain';
import { canSeeTicket } from '@zapdesk/shared/visibility';
import type { ZTicketListSchema, TTicket } from '@zapdesk/shared/messaging';
import type { TUser } from '@zapdesk/shared/schemas';
import { request } from '../../core/api/client';
import type { Page } from '../../core/lists/liveCache';

export type TicketListFilter = {
  /** Absent: every status (the Search tab, the bell). */
  status?: TicketStatus;
  /** Admins only: tickets assigned to anyone. */
  showAll: boolean;
  /** true: the Group tab; false: private tickets only; absent: both. */
  isGroup?: boolean;
  /** The queue filter; tickets without a queue always show. Absent: no filter. */
  queueIds?: number[];
  /** Lower-cased search text; lists with a search only update the rows they hold. */
  search?: string;
  /** The bell: tickets with unread messages only. */
  withUnreadMessages?: boolean;
  /** Tickets carrying any of these labels. Absent: no filter. */
  labelIds?: number[];
};

export const ticketListsKey = ['tickets', 'list'] as const;

export function ticketListKey(filter: TicketListFilter) {
  return [...ticketListsKey, filter] as const;
}

/** The filter a cached list was stored under (query keys are plain data, so check the shape). */
function filterOfKey(key: readonly unknown[]): TicketListFilter | null {
  const raw: unknown = key[ticketListsKey.length];
  if (typeof raw !== 'object' || raw === null || !('showAll' in raw) || typeof raw.showAll !== 'boolean') return null;
  const filter: TicketListFilter = { showAll: raw.showAll };
  if ('status' in raw) {
    const status = TICKET_STATUSES.find((value) => value === raw.status);
    if (!status) return null;
    filter.status = status;
  }
  if ('isGroup' in raw && typeof raw.isGroup === 'boolean') filter.isGroup = raw.isGroup;
  if ('queueIds' in raw && Array.isArray(raw.queueIds)) filter.queueIds = raw.queueIds.filter((id): id is number => typeof id === 'number');
  if ('search' in raw && typeof raw.search === 'string') filter.search = raw.search;
  if ('withUnreadMessages' in raw && raw.withUnreadMessages === true) filter.withUnreadMessages = true;
  if ('labelIds' in raw && Array.isArray(raw.labelIds)) filter.labelIds = raw.labelIds.filter((id): id is number => typeof id === 'number');
  return filter;
}

/**
 * The newest state of each ticket this tab has learnt, from an action's own answer or a live
 * event, by `updatedAt` (every write of a ticket moves it on). A late or repeated event, or a
 * list read that started before the change, brings no older state back.
 */
const newest = new Map<number, TTicket>();
const NEWEST_KEPT = 1000;

/** Records a ticket's state; false when a newer one is already known (the state is stale: leave it). */
export function rememberTicket(ticket: TTicket): boolean {
  const known = newest.get(ticket.id);
  if (known && known.updatedAt > ticket.updatedAt) return false;
  newest.delete(ticket.id);
  newest.set(ticket.id, ticket);
  if (newest.size > NEWEST_KEPT) newest.delete(newest.keys().next().value ?? ticket.id);
  return true;
}

/** The ticket as this tab knows it newest: a read answered with an older state gets the newer one. */
export function newestOf(ticket: TTicket): TTicket {
  const known = newest.get(ticket.id);
  if (!known || known.updatedAt <= ticket.updatedAt) return ticket;
  return ticket.match === undefined ? known : { ...known, match: ticket.match };
}

export async function fetchTicketsPage(filter: TicketListFilter, pageNumber: number): Promise<Page<TTicket>> {
  const query: Record<string, string | number> = { showAll: String(filter.showAll), pageNumber };
  if (filter.status) query.status = filter.status;
  if (filter.isGroup !== undefined) query.isGroup = String(filter.isGroup);
  if (filter.queueIds) query.queueIds = JSON.stringify(filter.queueIds);
  if (filter.search) query.searchParam = filter.search;
  if (filter.withUnreadMessages) query.withUnreadMessages = 'true';
  if (filter.labelIds?.length) query.labelIds = JSON.stringify(filter.labelIds);
  const { tickets, count, countIsAtLeast, hasMore } = await request<z.output<typeof ZTicketListSchema>>('/tickets', { query });
  // A read that started before one of this tab's changes answers with the old state: the newer one
  // wins, and a ticket that has left this status since is not brought back.
  const items = tickets.map(newestOf).filter((ticket) => !filter.status || ticket.status === filter.status);
  return { items, count: Math.max(0, count - (tickets.length - items.length)), ...(countIsAtLeast ? { countIsAtLeast } : {}), hasMore };
}

/** A tab's list; its count badge reads the same query, so both cost one request. */
export function useTicketsQuery(filter: TicketListFilter, options: { enabled?: boolean } = {}) {
  return useInfiniteQuery({
    queryKey: ticketListKey(filter),
    queryFn: ({ pageParam }) => fetchTicketsPage(filter, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled: options.enabled ?? true,
  });
}

/** The loaded rows of a list, each once (a live insert can push a row onto the next page). */
export function uniqueTickets(data: InfiniteData<Page<TTicket>> | undefined): TTicket[] {
  const seen = new Set<number>();
  const rows: TTicket[] = [];
  for (const page of data?.pages ?? []) {
    for (const ticket of page.items) {
      if (seen.has(ticket.id)) continue;
      seen.add(ticket.id);
      rows.push(ticket);
    }
  }
  return rows;
}

/** The server's order: newest activity first. */
const byActivity = (a: TTicket, b: TTicket) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id;

/** Whether a ticket belongs in a list with this filter, as the server would answer it for this user. */
export function ticketMatchesFilter(ticket: TTicket, filter: TicketListFilter, user: TUser | null): boolean {
  if (filter.status && ticket.status !== filter.status) return false;
  if (filter.isGroup !== undefined && ticket.isGroup !== filter.isGroup) return false;
  if (filter.withUnreadMessages && ticket.unreadMessages === 0) return false;
  if (filter.labelIds?.length && !ticket.labels.some((label) => filter.labelIds?.includes(label.id))) return false;
  const own = user !== null && ticket.userId === user.id;
  // The queue filter narrows the queues' lists; one's own tickets stay whatever it says.
  if (filter.queueIds && ticket.queueId !== null && !own && !filter.queueIds.includes(ticket.queueId)) return false;
  if (!user) return true;
  // The server's rule, the same clauses it turns into SQL. 'All' is on only for who may turn it on
  // (admins, the allQueues permission: TicketsManager), so the switch itself says they may.
  const all = filter.showAll === true;
  return canSeeTicket({ id: user.id, admin: isAdminProfile(user.profile), allQueues: all, queueIds: user.queues.map((queue) => queue.id) }, ticket, { all });
}

function listsOf(queryClient: QueryClient) {
  return queryClient.getQueriesData<InfiniteData<Page<TTicket>>>({ queryKey: ticketListsKey });
}

/**
 * Moves a ticket to where it now belongs in every cached list: out of the lists it left, into the
 * right place of the lists it joined, with the counts following. A search list cannot tell whether
 * a ticket matches its words, so it only refreshes or drops the rows it already holds.
 */
export function saveTicketInLists(queryClient: QueryClient, ticket: TTicket, user: TUser | null): void {
  // An older state than one already shown (a late or repeated event) changes nothing.
  if (!rememberTicket(ticket)) return;
  for (const [key, data] of listsOf(queryClient)) {
    const filter = filterOfKey(key);
    if (!data || data.pages.length === 0 || !filter) continue;
    const cached = data.pages.flatMap((page) => page.items).find((row) => row.id === ticket.id);
    // A live update that overtook an answer: keep the newer state.
    if (cached && cached.updatedAt > ticket.updatedAt) continue;
    const matches = ticketMatchesFilter(ticket, filter, user);
    const wanted = filter.search ? matches && cached !== undefined : matches;
    if (!wanted && !cached) continue;
    const delta = (wanted ? 1 : 0) - (cached ? 1 : 0);
    const pages = data.pages.map((page) => ({ ...page, count: Math.max(0, page.count + delta), items: page.items.filter((row) => row.id !== ticket.id) }));
    // A search row keeps the words it matched.
    const row = cached?.match !== undefined && ticket.match === undefined ? { ...ticket, match: cached.match } : ticket;
    if (wanted) {
      let placed = false;
      for (const page of pages) {
        const index = page.items.findIndex((other) => byActivity(row, other) < 0);
        if (index >= 0) {
          page.items.splice(index, 0, row);
          placed = true;
          break;
        }
      }
      const lastPage = pages[pages.length - 1];
      if (!placed && lastPage && !lastPage.hasMore) lastPage.items.push(row);
    }
    queryClient.setQueryData(key, { ...data, pages });
  }
}

export function removeTicketFromLists(queryClient: QueryClient, ticketId: number): void {
  for (const [key, data] of listsOf(queryClient)) {
    if (!data || !data.pages.some((page) => page.items.some((row) => row.id === ticketId))) continue;
    const pages = data.pages.map((page) => ({ ...page, count: Math.max(0, page.count - 1), items: page.items.filter((row) => row.id !== ticketId) }));
    queryClient.setQueryData(key, { ...data, pages });
  }
}

/** A ticket's messages were read: its rows show no unread badge, and the bell's list lets it go. */
export function markTicketReadInLists(queryClient: QueryClient, ticketId: number): void {
  for (const [key, data] of listsOf(queryClient)) {
    if (!data || !data.pages.some((page) => page.items.some((row) => row.id === ticketId && row.unreadMessages > 0))) continue;
    if (filterOfKey(key)?.withUnreadMessages) {
      removeFromOneList(queryClient, key, data, ticketId);
      continue;
    }
    const pages = data.pages.map((page) => ({ ...page, items: page.items.map((row) => (row.id === ticketId ? { ...row, unreadMessages: 0 } : row)) }));
    queryClient.setQueryData(key, { ...data, pages });
  }
}

function removeFromOneList(queryClient: QueryClient, key: readonly unknown[], data: InfiniteData<Page<TTicket>>, ticketId: number): void {
  const pages = data.pages.map((page) => ({ ...page, count: Math.max(0, page.count - 1), items: page.items.filter((row) => row.id !== ticketId) }));
  queryClient.setQueryData(key, { ...data, pages });
}
