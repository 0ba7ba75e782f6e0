/**
 * One tab's list of tickets, loaded a page at a time as it scrolls and virtualized: only the rows
 * in view (and a margin) are in the page, so ten thousand loaded tickets scroll like twenty.
 */
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Virtuoso } from 'react-virtuoso';
import type { TTicket } from '@zapdesk/shared/messaging';
import { searchWords } from '@zapdesk/shared/text-match';
import { SCROLL_THRESHOLD_PX } from '../../core/hooks/useInfiniteScroll';
import { toastError } from '../../core/ui/toastError';
import { TicketRow } from './TicketRow';
import { uniqueTickets, useTicketsQuery, type TicketListFilter } from './ticketLists';

/** About the height of a ticket row, for the list's first layout before rows are measured. */
const ROW_HEIGHT_ESTIMATE_PX = 84;

type Props = {
  filter: TicketListFilter;
  /** Names the list for tests: `tickets-list-<name>`. */
  name: string;
  selectedId: number | null;
  /** False while the queue filter is not known yet. */
  enabled?: boolean;
  /** A ticket was accepted from this list: the caller shows the 'Working on' list. */
  onAccepted: () => void;
};

function Footer({ context }: { context?: { loading: boolean } }) {
  return context?.loading ? (
    <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
      <CircularProgress size={22} />
    </Box>
  ) : null;
}

export function TicketsList({ filter, name, selectedId, enabled = true, onAccepted }: Props) {
  const { t } = useTranslation();
  const query = useTicketsQuery(filter, { enabled });
  const { hasNextPage, isFetching, fetchNextPage } = query;
  const tickets = useMemo(() => uniqueTickets(query.data), [query.data]);
  const [atBottom, setAtBottom] = useState(false);

  useEffect(() => {
    if (query.error) toastError(query.error);
  }, [query.error]);

  // Within 100px of the bottom, load the next page; again after it arrived if the list is still
  // short enough to show its bottom (a tall screen with one page would otherwise never get a second).
  useEffect(() => {
    if (atBottom && hasNextPage && !isFetching) void fetchNextPage();
  }, [atBottom, hasNextPage, isFetching, fetchNextPage]);

  const words = useMemo(() => (filter.search ? searchWords(filter.search) : undefined), [filter.search]);
  const itemContent = useCallback(
    (_index: number, ticket: TTicket) => <TicketRow ticket={ticket} selected={ticket.id === selectedId} onAccepted={onAccepted} searchWords={words} />,
    [selectedId, onAccepted, words],
  );

  return (
    <Box sx={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }} data-testid={`tickets-list-${name}`} data-loaded={tickets.length} data-count={query.data?.pages[0]?.count ?? 0}>
      {query.isPending ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
          <CircularProgress size={28} />
        </Box>
      ) : tickets.length === 0 ? (
        <Box sx={{ p: 3, textAlign: 'center' }} data-testid="tickets-empty">
          <Typography fontWeight={600}>{t('tickets.emptyTitle')}</Typography>
          <Typography variant="body2" color="text.secondary">
            {t('tickets.emptyBody')}
          </Typography>
        </Box>
      ) : (
        <Virtuoso
          style={{ flex: 1, minHeight: 0 }}
          data={tickets}
          computeItemKey={(_index, ticket) => ticket.id}
          itemContent={itemContent}
          atBottomThreshold={SCROLL_THRESHOLD_PX}
          // Rows are about this tall: before they are measured (a busy machine, a first paint),
          // the list must not look short enough to be at its bottom and load the next page.
          defaultItemHeight={ROW_HEIGHT_ESTIMATE_PX}
          atBottomStateChange={setAtBottom}
          increaseViewportBy={{ top: 300, bottom: 600 }}
          context={{ loading: query.isFetchingNextPage }}
          components={{ Footer }}
          data-testid="tickets-scroller"
        />
      )}
    </Box>
  );
}
