import { useCallback, useEffect, useRef, type UIEvent } from 'react';

/** Lists load their next page when scrolled within this distance of the bottom. */
export const SCROLL_THRESHOLD_PX = 100;

type Options = { hasNextPage: boolean; isFetching: boolean; fetchNextPage: () => unknown };

/**
 * Loads the next page when the scroll container nears its bottom, and also while the content is
 * too short to scroll at all (a tall screen with one page would otherwise never load the second).
 */
export function useInfiniteScroll({ hasNextPage, isFetching, fetchNextPage }: Options) {
  const containerRef = useRef<HTMLDivElement | null>(null);

  const check = useCallback(
    (element: HTMLElement) => {
      if (!hasNextPage || isFetching) return;
      if (element.scrollHeight - (element.scrollTop + element.clientHeight) < SCROLL_THRESHOLD_PX) fetchNextPage();
    },
    [hasNextPage, isFetching, fetchNextPage],
  );

  useEffect(() => {
    if (containerRef.current) check(containerRef.current);
  }, [check]);

  const onScroll = useCallback((event: UIEvent<HTMLElement>) => check(event.currentTarget), [check]);

  return { containerRef, onScroll };
}
