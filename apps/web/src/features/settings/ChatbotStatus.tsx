/** Under the Typebot settings: the bot's latest error (Typebot down, a file it could not fetch), with its ticket. */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../core/api/client';
import { formatShortDateTime } from '../../core/ui/formatDate';

type Status = { enabled: boolean; lastError: { ticketId: number; lastError: string; errorAt: string } | null };

export function ChatbotStatus() {
  const { t } = useTranslation();
  const status = useQuery({ queryKey: ['chatbot', 'status'], queryFn: () => request<Status>('/chatbot/status'), refetchInterval: 15_000 });
  const error = status.data?.lastError;
  if (!error) return null;
  return (
    <Box sx={{ px: 3, pb: 2 }}>
      <Alert severity="warning" data-testid="chatbot-last-error">
        {t('chatbot.lastError', { ticket: error.ticketId, time: formatShortDateTime(error.errorAt), error: error.lastError })}
      </Alert>
    </Box>
  );
}
