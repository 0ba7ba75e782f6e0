/** One tab's list of tickets, loaded 20 at a time as it scrolls. */
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TicketStatus } from '@zapdesk/shared/domain';
import type { TTicket } from '@zapdesk/shared/messaging';
import { useInfiniteScroll } from '../../core/hooks/useInfiniteScroll';
import { toastError } from '../../core/ui/toastError';
import { TicketRow } from './TicketRow';
import { useTicketsQuery } from './tickets.api';

type Props = {
  status: TicketStatus;
  showAll: boolean;
  selectedId: number | null;
  /** A ticket was accepted from this list: the caller shows the 'Working on' list. */
  onAccepted: () => void;
};

export function TicketsList({ status, showAll, selectedId, onAccepted }: Props) {
  const { t } = useTranslation();
  const query = useTicketsQuery(status, showAll);
  const { containerRef, onScroll } = useInfiniteScroll({
    hasNextPage: query.hasNextPage,
    isFetching: query.isFetching,
    fetchNextPage: () => void query.fetchNextPage(),
  });

  useEffect(() => {
    if (query.error) toastError(query.error);
  }, [query.error]);

  // Live inserts can shift a row onto the next page: show each ticket once.
  const tickets = useMemo(() => {
    const seen = new Set<number>();
    const rows: TTicket[] = [];
    for (const page of query.data?.pages ?? []) {
      for (const ticket of page.items) {
        if (seen.has(ticket.id)) continue;
        seen.add(ticket.id);
        rows.push(ticket);
      }
    }
    return rows;
  }, [query.data]);

  return (
    <Box ref={containerRef} onScroll={onScroll} sx={{ flex: 1, minHeight: 0, overflowY: 'auto' }} data-testid={`tickets-list-${status}`}>
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
        <List disablePadding>
          {tickets.map((ticket) => (
            <TicketRow key={ticket.id} ticket={ticket} selected={ticket.id === selectedId} onAccepted={onAccepted} />
          ))}
          {query.isFetchingNextPage ? (
            <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
              <CircularProgress size={22} />
            </Box>
          ) : null}
        </List>
      )}
    </Box>
  );
}
