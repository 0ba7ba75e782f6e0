/**
 * Above a waiting ticket's messages: the chatbot is answering this customer (accepting the ticket
 * stops it), or, for admins, why it stopped with an error.
 */
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import Alert from '@mui/material/Alert';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TTicket } from '@zapdesk/shared/messaging';
import { request } from '../../core/api/client';

type BotState = { status: 'active' | 'off' | 'ended' | null; lastError: string | null; errorAt: string | null };

export function ChatbotBanner({ ticket, isAdmin }: { ticket: TTicket; isAdmin: boolean }) {
  const { t } = useTranslation();
  const waiting = ticket.status === 'pending' && ticket.userId === null;
  const state = useQuery({
    queryKey: ['chatbot', 'ticket', ticket.id, ticket.updatedAt],
    queryFn: () => request<BotState>(`/chatbot/tickets/${ticket.id}`),
    enabled: waiting,
  });
  if (!waiting || !state.data) return null;
  if (state.data.status === 'active') {
    return (
      <Alert severity="info" icon={<SmartToyOutlined fontSize="small" />} sx={{ borderRadius: 0, py: 0 }} data-testid="chatbot-banner">
        {t('chat.botAnswering')}
      </Alert>
    );
  }
  if (isAdmin && state.data.lastError) {
    return (
      <Alert severity="warning" sx={{ borderRadius: 0, py: 0 }} data-testid="chatbot-banner-error">
        {t('chat.botStopped', { error: state.data.lastError })}
      </Alert>
    );
  }
  return null;
}
