/**
 * The Tickets screen: the tab lists on the left (about 380px; full width on phones) and the open
 * chat, or a placeholder, on the right. On phones only one of the two shows at a time.
 */
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { visuallyHidden } from '../../core/ui/visuallyHidden';
import { TicketsManager } from './TicketsManager';

// The chat (message kinds, input, recorder, modals) loads when a ticket is opened: the first screen is the list.
const Ticket = lazy(() => import('../chat/Ticket').then((m) => ({ default: m.Ticket })));

const LIST_WIDTH = 380;

export default function TicketsPage() {
  const { t } = useTranslation();
  const { ticketId } = useParams();
  const selectedId = ticketId && /^\d+$/.test(ticketId) ? Number(ticketId) : null;

  useEffect(() => {
    document.title = `${t('menu.tickets')} · ${t('app.name')}`;
  }, [t]);

  return (
    <Box sx={{ display: 'flex', height: '100%', minHeight: 0, p: { xs: 0, sm: 1.5 }, gap: 1.5 }} data-testid="tickets-page">
      <Typography component="h1" sx={visuallyHidden}>
        {t('menu.tickets')}
      </Typography>
      <Paper
        variant="outlined"
        sx={{
          width: { xs: '100%', md: LIST_WIDTH },
          flexShrink: 0,
          display: { xs: selectedId === null ? 'flex' : 'none', md: 'flex' },
          flexDirection: 'column',
          minHeight: 0,
          overflow: 'hidden',
        }}
      >
        <TicketsManager selectedId={selectedId} />
      </Paper>
      <Paper variant="outlined" sx={{ flex: 1, minWidth: 0, display: { xs: selectedId === null ? 'none' : 'flex', md: 'flex' }, flexDirection: 'column', minHeight: 0, overflow: 'hidden' }}>
        {selectedId === null ? (
          <Box sx={{ flex: 1, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 1, p: 3, textAlign: 'center' }} data-testid="ticket-placeholder">
            <ForumOutlined sx={{ fontSize: 64, color: 'primary.light' }} />
            <Typography variant="h6" component="h2">
              {t('tickets.placeholderTitle')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('tickets.placeholderBody')}
            </Typography>
          </Box>
        ) : (
          <Suspense fallback={<LinearProgress />}>
            <Ticket key={selectedId} ticketId={selectedId} />
          </Suspense>
        )}
      </Paper>
    </Box>
  );
}
