/** A chat that is still loading: the header's shape over the messages' skeleton, instead of an empty area. */
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { MessagesSkeleton } from './MessagesSkeleton';

export function TicketSkeleton() {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }} data-testid="ticket-loading">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, px: 1.5, py: 1, borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
        <Skeleton variant="circular" width={40} height={40} />
        <Box sx={{ flex: 1 }}>
          <Skeleton variant="text" width="40%" />
          <Skeleton variant="text" width="25%" sx={{ fontSize: '0.75rem' }} />
        </Box>
      </Box>
      <Box sx={{ flex: 1, minHeight: 0, bgcolor: '#EFEAE2' }}>
        <MessagesSkeleton testId="ticket-loading-messages" />
      </Box>
    </Box>
  );
}
