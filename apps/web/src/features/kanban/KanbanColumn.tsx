/** One column of the board: a drop target that says, while a card is dragged, whether the move is allowed. */
import { useDroppable } from '@dnd-kit/core';
import BlockOutlined from '@mui/icons-material/BlockOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TTicket } from '@zapdesk/shared/messaging';
import { useInfiniteScroll } from '../../core/hooks/useInfiniteScroll';
import { KanbanCard } from './KanbanCard';
import { canMove, isSameColumn, targetId, type KanbanTarget } from './kanban.api';

/** What a column shows: the page builds these, one per status or per queue. */
export type ColumnSpec = {
  target: KanbanTarget;
  title: string;
  color: string;
  tickets: TTicket[];
  /** The column's total when the server tells it, else the cards shown. */
  count: number;
  loading: boolean;
  hasMore: boolean;
  fetchingMore: boolean;
  loadMore: () => void;
  /** 'scroll' loads the next page near the bottom; 'button' waits for 'Load more' (the closed column). */
  paging: 'scroll' | 'button';
};

type Props = ColumnSpec & {
  /** The card being dragged, if any. */
  dragged: TTicket | null;
  showStatus: boolean;
  wasDragging: () => boolean;
};

export function KanbanColumn({ target, title, color, tickets, count, loading, hasMore, fetchingMore, loadMore, paging, dragged, showStatus, wasDragging }: Props) {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id: targetId(target), data: { target } });
  const { containerRef, onScroll } = useInfiniteScroll({ hasNextPage: paging === 'scroll' && hasMore, isFetching: fetchingMore, fetchNextPage: loadMore });

  const home = dragged ? isSameColumn(dragged, target) : false;
  const dropState = !dragged || home ? 'idle' : canMove(dragged, target) ? 'allowed' : 'forbidden';
  const border = dropState === 'forbidden' ? (isOver ? 'error.main' : 'divider') : dropState === 'allowed' ? 'primary.main' : 'divider';

  return (
    <Box
      ref={setNodeRef}
      sx={{
        display: 'flex',
        flexDirection: 'column',
        minHeight: 0,
        // Without it a long unbroken last message would widen the column past the screen.
        minWidth: 0,
        height: '100%',
        flex: { xs: '0 0 86%', sm: '0 0 320px', lg: '1 0 300px' },
        maxWidth: { lg: 440 },
        scrollSnapAlign: 'start',
        bgcolor: dropState === 'forbidden' && isOver ? 'rgba(211, 47, 47, 0.06)' : dropState === 'allowed' && isOver ? 'rgba(0, 121, 107, 0.08)' : '#EEF1F4',
        border: 2,
        borderStyle: dropState === 'idle' ? 'solid' : 'dashed',
        borderColor: dropState === 'idle' ? 'transparent' : border,
        borderRadius: 2,
        transition: 'background-color 120ms, border-color 120ms, opacity 120ms',
        opacity: dropState === 'forbidden' && !isOver ? 0.6 : 1,
      }}
      data-testid="kanban-column"
      data-column={targetId(target)}
      data-drop-state={dropState}
      data-over={isOver && dropState !== 'idle' ? 'true' : 'false'}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1.5, pt: 1.25, pb: 1 }}>
        <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: color, flexShrink: 0 }} />
        <Typography fontWeight={700} noWrap sx={{ flex: 1, minWidth: 0 }} data-testid="kanban-column-title">
          {title}
        </Typography>
        <Chip label={loading ? '…' : count} size="small" sx={{ height: 22, fontWeight: 700, bgcolor: 'background.paper' }} data-testid="kanban-column-count" data-count={loading ? '' : count} />
      </Box>
      {dropState === 'forbidden' ? (
        <Box
          sx={{ mx: 1.5, mb: 1, px: 1, py: 0.5, borderRadius: 1, display: 'flex', alignItems: 'center', gap: 0.75, color: 'error.main', bgcolor: 'rgba(211, 47, 47, 0.08)' }}
          data-testid="kanban-not-allowed"
        >
          <BlockOutlined sx={{ fontSize: 16 }} />
          <Typography variant="caption" fontWeight={600}>
            {t('kanban.notAllowed')}
          </Typography>
        </Box>
      ) : dropState === 'allowed' ? (
        <Box sx={{ mx: 1.5, mb: 1, px: 1, py: 0.5, borderRadius: 1, color: 'primary.main', bgcolor: 'rgba(0, 121, 107, 0.08)' }}>
          <Typography variant="caption" fontWeight={600}>
            {t('kanban.dropHere')}
          </Typography>
        </Box>
      ) : null}
      <Box ref={containerRef} onScroll={onScroll} sx={{ flex: 1, minHeight: 0, overflowY: 'auto', px: 1, pb: 1 }}>
        {loading ? (
          <Stack gap={1} data-testid="kanban-column-loading">
            {[0, 1, 2].map((n) => (
              <Skeleton key={n} variant="rounded" height={92} />
            ))}
          </Stack>
        ) : tickets.length === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', py: 4 }} data-testid="kanban-column-empty">
            {t('kanban.empty')}
          </Typography>
        ) : (
          <Stack gap={1}>
            {tickets.map((ticket) => (
              <KanbanCard key={ticket.id} ticket={ticket} showStatus={showStatus} wasDragging={wasDragging} dragId={target.kind === 'label' ? `${targetId(target)}|${ticket.id}` : undefined} />
            ))}
          </Stack>
        )}
        {fetchingMore ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', p: 1.5 }}>
            <CircularProgress size={22} />
          </Box>
        ) : paging === 'button' && hasMore && !loading ? (
          <Button fullWidth size="small" onClick={loadMore} sx={{ mt: 1 }} data-testid="kanban-load-more">
            {t('kanban.loadMore')}
          </Button>
        ) : null}
      </Box>
    </Box>
  );
}
