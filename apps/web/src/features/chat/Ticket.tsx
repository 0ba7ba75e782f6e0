/**
 * The open ticket: header with its actions (status changes, 'Protocolo', transfer, delete), the
 * contact drawer, the import/export panel, the message list and the input.
 */
import ArrowBack from '@mui/icons-material/ArrowBack';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import ImportExport from '@mui/icons-material/ImportExport';
import ReceiptLong from '@mui/icons-material/ReceiptLong';
import SwapHoriz from '@mui/icons-material/SwapHoriz';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Tooltip from '@mui/material/Tooltip';
import useMediaQuery from '@mui/material/useMediaQuery';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { isAdminProfile, type TicketStatus } from '@zapdesk/shared/domain';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { ServerToClientEvents } from '@zapdesk/shared/realtime';
import { useAuth } from '../../core/auth/AuthProvider';
import { useChatBoxJoin, useSocketSubscription, type AppSocket } from '../../core/realtime/SocketProvider';
import { ConfirmationDialog } from '../../core/ui/ConfirmationDialog';
import { initials } from '../../core/ui/initials';
import { toastError } from '../../core/ui/toastError';
import { deleteTicket, requestProtocol } from './chat.api';
import { ContactDrawer } from '../tickets/ContactDrawer';
import { TicketLabels } from '../labels/TicketLabels';
import { ChatbotBanner } from './ChatbotBanner';
import { ImportExportPanel } from './ImportExportPanel';
import { ChatComposer } from '../notes/ChatComposer';
import { useReadsByMention } from '../notes/readsByMention';
import { MessagesList } from './MessagesList';
import { TicketSkeleton } from './TicketSkeleton';
import { leaveDeletedTicket, useLeaveOnReadError } from './useLeaveGoneTicket';
import { fetchTicket, saveTicketInCache, ticketsKeys, updateTicketStatus } from '../tickets/tickets.api';
import { newestOf } from '../tickets/ticketLists';
import { TransferTicketModal } from '../tickets/TransferTicketModal';
import { TicketRatingBar } from '../csat/TicketRatingBar';

type Action = { status: TicketStatus; labelKey: 'accept' | 'return' | 'resolve' | 'reopen'; variant: 'contained' | 'outlined' };

const ACTIONS: Record<TicketStatus, Action[]> = {
  // A waiting ticket can be resolved without taking it first (spam, a message sent by mistake).
  pending: [
    { status: 'closed', labelKey: 'resolve', variant: 'outlined' },
    { status: 'open', labelKey: 'accept', variant: 'contained' },
  ],
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
  const { user, can } = useAuth();
  const [busy, setBusy] = useState(false);
  const [replyTo, setReplyTo] = useState<TMessage | null>(null);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [panelOpen, setPanelOpen] = useState(false);
  const [transferOpen, setTransferOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  /** This tab deletes the ticket: the live 'delete' that follows is its own. */
  const deletingHere = useRef(false);
  const [protocol, setProtocol] = useState<string | null>(null);
  const wide = useMediaQuery((theme) => theme.breakpoints.up('lg'));
  const compact = useMediaQuery((theme) => theme.breakpoints.down('sm'));
  const isAdmin = user ? isAdminProfile(user.profile) : false;
  // A failed read is said by useLeaveOnReadError (a 404 of a ticket on screen: deleted).
  const { data: ticket, error } = useQuery({ queryKey: ticketsKeys.detail(ticketId), queryFn: () => fetchTicket(ticketId), meta: { notFound: 'quiet' } });
  // Opened through a mention: read and notes only, none of the ticket's actions.
  const byMention = useReadsByMention(ticket);

  useLeaveOnReadError({ error, shown: ticket !== undefined, ticketId, t, navigate });

  const subscribe = useCallback(
    (socket: AppSocket) => {
      const onTicket: ServerToClientEvents['ticket'] = (payload) => {
        // A late event (older than what this tab knows) says nothing about where the ticket is now.
        const current = payload.action === 'update' && newestOf(payload.ticket) === payload.ticket;
        if (current && payload.ticket.id === ticketId && !isAdmin && payload.ticket.userId !== null && payload.ticket.userId !== user?.id) {
          // Transferred to someone else: this user may no longer see it.
          void navigate('/tickets');
          return;
        }
        if (payload.action !== 'delete' || payload.ticketId !== ticketId || deletingHere.current) return;
        // Someone else deleted the ticket on screen: say so, and leave it.
        leaveDeletedTicket(t, navigate, ticketId);
      };
      // An edited contact shows at once in the header and the drawer.
      const onContact: ServerToClientEvents['contact'] = (payload) => {
        if (payload.action === 'delete') return;
        queryClient.setQueryData<TTicket>(ticketsKeys.detail(ticketId), (current) =>
          current && current.contactId === payload.contact.id ? { ...current, contact: { ...current.contact, ...payload.contact } } : current,
        );
      };
      socket.on('ticket', onTicket);
      socket.on('contact', onContact);
      return () => {
        socket.off('ticket', onTicket);
        socket.off('contact', onContact);
      };
    },
    [ticketId, navigate, t, queryClient, isAdmin, user?.id],
  );
  useSocketSubscription(subscribe);
  // The chat's own room (spec 4 'Live events'): admitted only while the user may see the ticket.
  useChatBoxJoin(ticketId);

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

  const sendProtocol = async () => {
    setBusy(true);
    try {
      const answer = await requestProtocol(ticketId);
      saveTicketInCache(queryClient, answer.ticket, user);
      setProtocol(answer.protocol);
    } catch (caught) {
      toastError(caught);
    } finally {
      setBusy(false);
    }
  };

  const removeTicket = async () => {
    deletingHere.current = true;
    try {
      await deleteTicket(ticketId);
      toast.success(t('tickets.deleted'));
      await navigate('/tickets');
    } catch (caught) {
      deletingHere.current = false;
      toastError(caught);
    }
  };

  /** After a transfer the chat stays only if the ticket is still this user's open ticket. */
  const onTransferred = (saved: TTicket) => {
    saveTicketInCache(queryClient, saved, user);
    setTransferOpen(false);
    if (saved.status !== 'open' || saved.userId !== user?.id) void navigate('/tickets');
  };

  if (!ticket) return <TicketSkeleton />;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }} data-testid="ticket-view" data-id={ticket.id} data-status={ticket.status}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, px: 1.5, py: 1, borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper', flexWrap: 'wrap' }}>
        <IconButton onClick={() => void navigate('/tickets')} sx={{ display: { md: 'none' } }} aria-label={t('chat.back')} data-testid="ticket-back">
          <ArrowBack />
        </IconButton>
        <Box
          component="button"
          type="button"
          onClick={() => setDrawerOpen((open) => !open)}
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 1.5,
            flex: 1,
            minWidth: 140,
            border: 0,
            bgcolor: 'transparent',
            p: 0,
            textAlign: 'left',
            cursor: 'pointer',
            font: 'inherit',
            color: 'inherit',
          }}
          // Named by what it shows (the contact, the ticket, its agent); the tooltip says what it opens.
          title={t('chat.contactInfo')}
          data-testid="ticket-contact-button"
        >
          <Avatar src={ticket.contact.profilePicUrl || undefined} alt={ticket.contact.name}>
            {initials(ticket.contact.name)}
          </Avatar>
          <Box sx={{ minWidth: 0 }}>
            <Typography component="h2" fontWeight={600} noWrap data-testid="ticket-title">
              {ticket.contact.name}{' '}
              <Typography component="span" variant="body2" color="text.secondary">
                #{ticket.id}
              </Typography>
            </Typography>
            <Typography variant="caption" color="text.secondary" noWrap component="div" data-testid="ticket-assignee">
              {ticket.user ? t('chat.assignedTo', { name: ticket.user.name }) : t('chat.unassigned')}
            </Typography>
          </Box>
        </Box>
        {byMention ? null : <TicketLabels ticket={ticket} />}
        <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center', flexWrap: 'wrap', justifyContent: 'flex-end', ml: 'auto' }}>
          {(byMention ? [] : ACTIONS[ticket.status]).map((action) => (
            <Button key={action.labelKey} size="small" variant={action.variant} disabled={busy} onClick={() => void changeStatus(action.status)} data-testid={`ticket-${action.labelKey}`}>
              {t(`chat.${action.labelKey}`)}
            </Button>
          ))}
          {ticket.status === 'open' && !byMention && compact ? (
            <Tooltip title={t('chat.protocol')}>
              <span>
                <IconButton size="small" color="secondary" disabled={busy} onClick={() => void sendProtocol()} aria-label={t('chat.protocol')} data-testid="ticket-protocol">
                  <ReceiptLong />
                </IconButton>
              </span>
            </Tooltip>
          ) : null}
          {ticket.status === 'open' && !byMention && !compact ? (
            <Button size="small" variant="outlined" color="secondary" disabled={busy} startIcon={<ReceiptLong />} onClick={() => void sendProtocol()} data-testid="ticket-protocol">
              {t('chat.protocol')}
            </Button>
          ) : null}
          {ticket.status === 'open' && !byMention ? (
            <Tooltip title={t('chat.transfer')}>
              <IconButton size="small" onClick={() => setTransferOpen(true)} aria-label={t('chat.transfer')} data-testid="ticket-transfer">
                <SwapHoriz />
              </IconButton>
            </Tooltip>
          ) : null}
          <Tooltip title={t('chat.importExport')}>
            <IconButton
              size="small"
              color={panelOpen ? 'primary' : 'default'}
              onClick={() => setPanelOpen((open) => !open)}
              aria-label={t('chat.importExport')}
              aria-pressed={panelOpen}
              data-testid="ticket-panel-toggle"
            >
              <ImportExport />
            </IconButton>
          </Tooltip>
          {can('ticketsDelete') ? (
            <Tooltip title={t('chat.deleteTicket')}>
              <IconButton size="small" onClick={() => setDeleteOpen(true)} aria-label={t('chat.deleteTicket')} data-testid="ticket-delete">
                <DeleteOutline />
              </IconButton>
            </Tooltip>
          ) : null}
        </Box>
      </Box>
      <Box sx={{ flex: 1, minHeight: 0, display: 'flex' }}>
        <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
          {panelOpen ? <ImportExportPanel ticket={ticket} /> : null}
          <ChatbotBanner ticket={ticket} isAdmin={isAdmin} />
          <TicketRatingBar ticket={ticket} />
          <MessagesList ticketId={ticket.id} contactId={byMention ? undefined : ticket.contact.id} isGroup={ticket.isGroup} onReply={setReplyTo} />
          <ChatComposer ticket={ticket} replyTo={replyTo} onCancelReply={() => setReplyTo(null)} />
        </Box>
        <ContactDrawer contact={ticket.contact} channel={ticket.whatsapp.channel} open={drawerOpen} docked={wide} onClose={() => setDrawerOpen(false)} />
      </Box>
      {transferOpen ? <TransferTicketModal ticket={ticket} isAdmin={isAdmin} onClose={() => setTransferOpen(false)} onTransferred={onTransferred} /> : null}
      <ConfirmationDialog open={deleteOpen} title={t('chat.deleteTicketTitle')} onClose={() => setDeleteOpen(false)} onConfirm={removeTicket}>
        {t('chat.deleteTicketBody')}
      </ConfirmationDialog>
      <Dialog open={protocol !== null} onClose={() => setProtocol(null)} data-testid="protocol-dialog">
        <DialogTitle>{t('chat.protocolTitle')}</DialogTitle>
        <DialogContent>
          <Typography variant="h5" fontWeight={700} sx={{ fontFamily: 'monospace', mb: 1 }} data-testid="protocol-number">
            {protocol}
          </Typography>
          <DialogContentText>{t('chat.protocolBody', { protocol })}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setProtocol(null)} autoFocus data-testid="protocol-ok">
            OK
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
