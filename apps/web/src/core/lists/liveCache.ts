/**
 * Keeps cached lists in step with socket events and with this tab's own saves: one upsert and one
 * remove for the paged lists (users, contacts, quick answers) and the plain ones (queues, settings).
 */
import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';

/** A page of a list; `countIsAtLeast`: the count is a lower bound (a ticket search past its cap). */
export type Page<T> = { items: T[]; count: number; countIsAtLeast?: boolean; hasMore: boolean };
type WithId = { id: number };

function mapPages<T>(data: InfiniteData<Page<T>> | undefined, fn: (items: T[]) => T[]): InfiniteData<Page<T>> | undefined {
  if (!data) return data;
  return { ...data, pages: data.pages.map((page) => ({ ...page, items: fn(page.items) })) };
}

type UpsertOptions<T> = {
  /** The key prefix of every cached list of the entity, e.g. ['users', 'list']. */
  listKey: QueryKey;
  item: T;
  /** Whether the item belongs in a list cached under the given search text. */
  matches: (item: T, search: string) => boolean;
  /** The server's order of the list. */
  compare: (a: T, b: T) => number;
};

/**
 * Puts the item where the server's order would show it, in every cached list whose search it
 * matches (and takes it out of those it no longer matches). An item that sorts after the loaded
 * rows of a list with more pages is left for that list's next page.
 */
export function upsertInPages<T extends WithId>(queryClient: QueryClient, { listKey, item, matches, compare }: UpsertOptions<T>): void {
  for (const [key, data] of queryClient.getQueriesData<InfiniteData<Page<T>>>({ queryKey: listKey })) {
    if (!data || data.pages.length === 0) continue;
    const search = typeof key[listKey.length] === 'string' ? String(key[listKey.length]) : '';
    const pages = data.pages.map((page) => ({ ...page, items: page.items.filter((row) => row.id !== item.id) }));
    if (matches(item, search)) {
      const lastPage = pages[pages.length - 1];
      let placed = false;
      for (const page of pages) {
        const index = page.items.findIndex((row) => compare(item, row) < 0);
        if (index >= 0) {
          page.items.splice(index, 0, item);
          placed = true;
          break;
        }
      }
      if (!placed && lastPage && !lastPage.hasMore) lastPage.items.push(item);
    }
    queryClient.setQueryData(key, { ...data, pages });
  }
}

/** Orders by a text field the way the server does, then by id. */
export function byText<T extends WithId>(field: (row: T) => string) {
  return (a: T, b: T) => field(a).localeCompare(field(b)) || a.id - b.id;
}

export function removeFromPages<T extends WithId>(queryClient: QueryClient, listKey: QueryKey, id: number): void {
  for (const [key, data] of queryClient.getQueriesData<InfiniteData<Page<T>>>({ queryKey: listKey })) {
    if (!data) continue;
    queryClient.setQueryData(
      key,
      mapPages(data, (items) => items.filter((row) => row.id !== id)),
    );
  }
}

export function upsertInArray<T extends WithId>(queryClient: QueryClient, key: QueryKey, item: T, sort?: (a: T, b: T) => number): void {
  queryClient.setQueryData<T[]>(key, (rows) => {
    if (!rows) return rows;
    const next = rows.some((row) => row.id === item.id) ? rows.map((row) => (row.id === item.id ? item : row)) : [...rows, item];
    return sort ? [...next].sort(sort) : next;
  });
}

export function removeFromArray<T extends WithId>(queryClient: QueryClient, key: QueryKey, id: number): void {
  queryClient.setQueryData<T[]>(key, (rows) => rows?.filter((row) => row.id !== id));
}
