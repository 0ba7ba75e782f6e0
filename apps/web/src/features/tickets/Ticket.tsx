/** The open ticket: header with its status actions, the message list and the input. */
import ArrowBack from '@mui/icons-material/ArrowBack';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import type { TicketStatus } from '@zapdesk/shared/domain';
import type { TMessage } from '@zapdesk/shared/messaging';
import type { ServerToClientEvents } from '@zapdesk/shared/realtime';
import { useAuth } from '../../core/auth/AuthProvider';
import { useSocketSubscription, type AppSocket } from '../../core/realtime/SocketProvider';
import { CenteredLoader } from '../../core/ui/CenteredLoader';
import { initials } from '../../core/ui/initials';
import { toastError } from '../../core/ui/toastError';
import { MessageInput } from './MessageInput';
import { MessagesList } from './MessagesList';
import { fetchTicket, saveTicketInCache, ticketsKeys, updateTicketStatus } from './tickets.api';

type Action = { status: TicketStatus; labelKey: 'accept' | 'return' | 'resolve' | 'reopen'; variant: 'contained' | 'outlined' };

const ACTIONS: Record<TicketStatus, Action[]> = {
  pending: [{ status: 'open', labelKey: 'accept', variant: 'contained' }],
  open: [
    { status: 'pending', labelKey: 'return', variant: 'outlined' },
    { status: 'closed', labelKey: 'resolve', variant: 'contained' },
  ],
  closed: [{ status: 'open', labelKey: 'reopen', variant: 'outlined' }],
};

export function Ticket({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const [busy, setBusy] = useState(false);
  const [replyTo, setReplyTo] = useState<TMessage | null>(null);
  const { data: ticket, error } = useQuery({ queryKey: ticketsKeys.detail(ticketId), queryFn: () => fetchTicket(ticketId) });

  useEffect(() => {
    if (!error) return;
    toastError(error);
    void navigate('/tickets');
  }, [error, navigate]);

  const subscribe = useCallback(
    (socket: AppSocket) => {
      const onTicket: ServerToClientEvents['ticket'] = (payload) => {
        if (payload.action !== 'delete' || payload.ticketId !== ticketId) return;
        toast.success(t('tickets.deleted'));
        void navigate('/tickets');
      };
      socket.on('ticket', onTicket);
      return () => {
        socket.off('ticket', onTicket);
      };
    },
    [ticketId, navigate, t],
  );
  useSocketSubscription(subscribe);

  const changeStatus = async (status: TicketStatus) => {
    setBusy(true);
    try {
      const saved = await updateTicketStatus(ticketId, status);
      saveTicketInCache(queryClient, saved, user);
      // Returned to the queue, the ticket can no longer be opened by clicking: leave it.
      if (status === 'pending') await navigate('/tickets');
    } catch (caught) {
      toastError(caught);
    } finally {
      setBusy(false);
    }
  };

  if (!ticket) return <CenteredLoader />;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }} data-testid="ticket-view" data-id={ticket.id} data-status={ticket.status}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, px: 1.5, py: 1, borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper', flexWrap: 'wrap' }}>
        <IconButton onClick={() => void navigate('/tickets')} sx={{ display: { md: 'none' } }} aria-label={t('chat.back')} data-testid="ticket-back">
          <ArrowBack />
        </IconButton>
        <Avatar src={ticket.contact.profilePicUrl || undefined} alt={ticket.contact.name}>
          {initials(ticket.contact.name)}
        </Avatar>
        <Box sx={{ flex: 1, minWidth: 140 }}>
          <Typography fontWeight={600} noWrap data-testid="ticket-title">
            {ticket.contact.name} <Typography component="span" variant="body2" color="text.secondary">#{ticket.id}</Typography>
          </Typography>
          <Typography variant="caption" color="text.secondary" noWrap component="div" data-testid="ticket-assignee">
            {ticket.user ? t('chat.assignedTo', { name: ticket.user.name }) : t('chat.unassigned')}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', gap: 1 }}>
          {ACTIONS[ticket.status].map((action) => (
            <Button
              key={action.labelKey}
              size="small"
              variant={action.variant}
              disabled={busy}
              onClick={() => void changeStatus(action.status)}
              data-testid={`ticket-${action.labelKey}`}
            >
              {t(`chat.${action.labelKey}`)}
            </Button>
          ))}
        </Box>
      </Box>
      <MessagesList ticketId={ticket.id} isGroup={ticket.isGroup} onReply={setReplyTo} />
      <MessageInput ticket={ticket} replyTo={replyTo} onCancelReply={() => setReplyTo(null)} />
    </Box>
  );
}
