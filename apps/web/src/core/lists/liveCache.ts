/**
 * Keeps cached lists in step with socket events and with this tab's own saves: one upsert and one
 * remove for the paged lists (users, contacts, quick answers) and the plain ones (queues, settings).
 */
import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';

export type Page<T> = { items: T[]; count: number; hasMore: boolean };
type WithId = { id: number };

function mapPages<T>(data: InfiniteData<Page<T>> | undefined, fn: (items: T[], index: number) => T[]): InfiniteData<Page<T>> | undefined {
  if (!data) return data;
  return { ...data, pages: data.pages.map((page, index) => ({ ...page, items: fn(page.items, index) })) };
}

type UpsertOptions<T> = {
  /** The key prefix of every cached list of the entity, e.g. ['users', 'list']. */
  listKey: QueryKey;
  item: T;
  /** Whether a new item belongs in a list cached under the given search text. */
  matches: (item: T, search: string) => boolean;
};

/** Replaces the item where it is shown; a new one goes to the top of each list whose search it matches. */
export function upsertInPages<T extends WithId>(queryClient: QueryClient, { listKey, item, matches }: UpsertOptions<T>): void {
  for (const [key, data] of queryClient.getQueriesData<InfiniteData<Page<T>>>({ queryKey: listKey })) {
    if (!data) continue;
    const present = data.pages.some((page) => page.items.some((row) => row.id === item.id));
    const search = typeof key[listKey.length] === 'string' ? String(key[listKey.length]) : '';
    let next: InfiniteData<Page<T>> | undefined;
    if (present) next = mapPages(data, (items) => items.map((row) => (row.id === item.id ? item : row)));
    else if (matches(item, search)) next = mapPages(data, (items, index) => (index === 0 ? [item, ...items] : items));
    else continue;
    queryClient.setQueryData(key, next);
  }
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
