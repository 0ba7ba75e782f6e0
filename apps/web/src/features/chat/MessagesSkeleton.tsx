/** What a chat shows while its messages load: the shapes of a few bubbles, both sides, on the chat's background. */
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';

const BUBBLES: { own: boolean; width: string; lines: number }[] = [
  { own: false, width: '55%', lines: 2 },
  { own: true, width: '40%', lines: 1 },
  { own: false, width: '35%', lines: 1 },
  { own: true, width: '60%', lines: 3 },
  { own: false, width: '45%', lines: 2 },
  { own: true, width: '30%', lines: 1 },
];

export function MessagesSkeleton({ testId = 'messages-list' }: { testId?: string }) {
  const { t } = useTranslation();
  return (
    <Box
      sx={{ height: '100%', overflow: 'hidden', display: 'flex', flexDirection: 'column', justifyContent: 'flex-end', gap: 1, px: { xs: 1, sm: 2.5 }, py: 1.5 }}
      role="status"
      aria-busy="true"
      aria-label={t('chat.loadingMessages')}
      data-testid={testId}
    >
      {BUBBLES.map((bubble, index) => (
        <Box key={index} sx={{ alignSelf: bubble.own ? 'flex-end' : 'flex-start', width: { xs: `calc(${bubble.width} + 20%)`, sm: bubble.width }, maxWidth: 520 }} data-testid="message-skeleton">
          <Box sx={{ bgcolor: bubble.own ? '#D9FDD3' : '#FFFFFF', borderRadius: 2, px: 1.5, py: 1, boxShadow: '0 1px 0.5px rgba(11, 20, 26, 0.13)' }}>
            {Array.from({ length: bubble.lines }, (_, line) => (
              <Skeleton key={line} variant="text" width={line === bubble.lines - 1 && bubble.lines > 1 ? '60%' : '100%'} />
            ))}
            <Skeleton variant="text" width={36} sx={{ ml: 'auto', fontSize: '0.7rem' }} />
          </Box>
        </Box>
      ))}
    </Box>
  );
}
