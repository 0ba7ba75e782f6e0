import { useInfiniteQuery, type QueryKey } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Page } from './liveCache';

type Options<T> = {
  listKey: QueryKey;
  search: string;
  fetchPage: (search: string, pageNumber: number) => Promise<Page<T>>;
};

/** A searchable list loaded 20 rows at a time; rows are unique by id even if a live insert shifted the pages. */
export function usePagedList<T extends { id: number }>({ listKey, search, fetchPage }: Options<T>) {
  const query = useInfiniteQuery({
    queryKey: [...listKey, search],
    queryFn: ({ pageParam }) => fetchPage(search, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });

  const items = useMemo(() => {
    const seen = new Set<number>();
    const rows: T[] = [];
    for (const page of query.data?.pages ?? []) {
      for (const row of page.items) {
        if (seen.has(row.id)) continue;
        seen.add(row.id);
        rows.push(row);
      }
    }
    return rows;
  }, [query.data]);

  return { ...query, items };
}
