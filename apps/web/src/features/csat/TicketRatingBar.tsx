/**
 * Above a ticket's messages: the customer's satisfaction rating (stars and comment), or that the
 * question is waiting for an answer or went unanswered. Read again whenever the ticket changes
 * (closed, a reply stored), so an answer shows live.
 */
import StarRounded from '@mui/icons-material/StarRounded';
import Box from '@mui/material/Box';
import Rating from '@mui/material/Rating';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TTicket } from '@zapdesk/shared/messaging';
import { formatShortDateTime } from '../../core/ui/formatDate';
import { csatKeys, fetchTicketRatings } from './csat.api';

export function TicketRatingBar({ ticket }: { ticket: Pick<TTicket, 'id' | 'updatedAt'> }) {
  const { t } = useTranslation();
  const { data } = useQuery({ queryKey: [...csatKeys.ratings(ticket.id), ticket.updatedAt], queryFn: () => fetchTicketRatings(ticket.id), placeholderData: keepPreviousData });
  const latest = data?.at(-1);
  if (!latest) return null;
  const bar = { display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 1.5, rowGap: 0.25, px: 2, py: 0.75, borderBottom: 1, borderColor: 'divider', bgcolor: 'action.hover' } as const;
  if (latest.state !== 'answered' || latest.score === null) {
    return (
      <Box sx={bar} data-testid="ticket-rating" data-state={latest.state}>
        <StarRounded fontSize="small" color="disabled" />
        <Typography variant="body2" color="text.secondary">
          {latest.state === 'waiting' ? t('csat.waiting') : t('csat.expired')}
        </Typography>
      </Box>
    );
  }
  return (
    <Box sx={bar} data-testid="ticket-rating" data-state="answered" data-score={latest.score}>
      <Typography variant="body2" fontWeight={600}>
        {t('csat.rating')}
      </Typography>
      <Rating value={latest.score} readOnly size="small" aria-label={t('csat.scoreLabel', { score: latest.score })} />
      <Typography variant="body2" color="text.secondary">
        {t('csat.score', { score: latest.score })}
        {latest.answeredAt ? ` · ${formatShortDateTime(latest.answeredAt)}` : ''}
      </Typography>
      {latest.comment ? (
        <Typography variant="body2" sx={{ flexBasis: '100%', fontStyle: 'italic', overflowWrap: 'anywhere' }} data-testid="ticket-rating-comment">
          “{latest.comment}”
        </Typography>
      ) : null}
    </Box>
  );
}
