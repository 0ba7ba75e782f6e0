/**
 * A ticket in a tab list: queue colour, avatar, contact, the last message a person wrote (or a search's
 * match), time, unread and tags, and on pending tickets Accept and 'Spy'. A click opens the chat. Memoized: a virtual list re-renders rows as they scroll in.
 */
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import ListItemButton from '@mui/material/ListItemButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { NO_QUEUE_COLOR, type TicketStatus } from '@zapdesk/shared/domain';
import type { TTicket } from '@zapdesk/shared/messaging';
import { useAuth } from '../../core/auth/AuthProvider';
import { formatRecent } from '../../core/ui/formatDate';
import { listLine } from '../../core/ui/mediaLine';
import { initials } from '../../core/ui/initials';
import { toastError } from '../../core/ui/toastError';
import { PreviewLine } from './PreviewLine';
import { saveTicketInCache, updateTicketStatus } from './tickets.api';
import { LabelChips } from '../labels/LabelChips';

type Props = {
  ticket: TTicket;
  selected: boolean;
  onAccepted: () => void;
  /** A search list: the searched words, marked in the row's line. */
  searchWords?: string[] | undefined;
};

export const TicketRow = memo(function TicketRow({ ticket, selected, onAccepted, searchWords }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const [busy, setBusy] = useState(false);
  const pending = ticket.status === 'pending';
  // The open chat has read its messages; a badge there would only flicker until the server says so.
  const unread = selected ? 0 : ticket.unreadMessages;
  const queueName = ticket.queue?.name ?? t('tickets.noQueue');

  /** Accept (-> open, mine) or 'Spy' (pending again: the ticket opens read-only, still in the queue). */
  const changeAndOpen = async (status: Extract<TicketStatus, 'open' | 'pending'>) => {
    setBusy(true);
    try {
      const saved = await updateTicketStatus(ticket.id, status);
      saveTicketInCache(queryClient, saved, user);
      if (status === 'open') onAccepted();
      await navigate(`/tickets/${ticket.id}`);
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <ListItemButton
      component="div"
      selected={selected}
      // A waiting ticket opens too, read-only until someone accepts it (Accept in the row or the chat).
      onClick={() => void navigate(`/tickets/${ticket.id}`)}
      sx={{
        position: 'relative',
        pl: 2.5,
        pr: 1.5,
        py: 1,
        gap: 1.5,
        alignItems: 'flex-start',
        cursor: 'pointer',
        borderBottom: 1,
        borderColor: 'divider',
      }}
      data-testid="ticket-row"
      data-id={ticket.id}
      data-status={ticket.status}
    >
      <Tooltip title={queueName} placement="right">
        <Box sx={{ position: 'absolute', left: 0, top: 0, bottom: 0, width: 6, bgcolor: ticket.queue?.color ?? NO_QUEUE_COLOR }} data-testid="ticket-queue-bar" aria-label={queueName} />
      </Tooltip>
      <Avatar src={ticket.contact.profilePicUrl || undefined} alt={ticket.contact.name} sx={{ width: 44, height: 44, mt: 0.25 }}>
        {ticket.isGroup ? <GroupsOutlined /> : initials(ticket.contact.name)}
      </Avatar>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Typography fontWeight={600} noWrap sx={{ flex: 1, minWidth: 0 }} data-testid="ticket-contact">
            {ticket.contact.name}
          </Typography>
          {ticket.status === 'closed' ? (
            <Chip label={t('tickets.closedBadge')} size="small" color="success" variant="outlined" sx={{ height: 20, color: 'success.dark' }} data-testid="ticket-closed-badge" />
          ) : null}
          <Typography variant="caption" color={unread > 0 ? 'secondary.main' : 'text.secondary'} sx={{ flexShrink: 0 }} data-testid="ticket-time">
            {formatRecent(ticket.updatedAt)}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Typography variant="body2" color="text.secondary" noWrap sx={{ flex: 1, minWidth: 0 }} data-testid="ticket-last-message">
            {/* A search result shows the words it matched in context; other lists what a person last wrote (no bot menus). */}
            <PreviewLine text={ticket.match ?? listLine(ticket.preview, t)} words={ticket.match === undefined ? [] : searchWords} />
          </Typography>
          {unread > 0 ? <Badge badgeContent={unread} color="secondary" max={99} sx={{ mr: 1.25 }} data-testid="ticket-unread" aria-label={t('tickets.unread', { count: unread })} /> : null}
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, mt: 0.5, minWidth: 0 }}>
          {ticket.user ? <Chip label={ticket.user.name} size="small" sx={{ height: 20, fontSize: 11, minWidth: 0 }} data-testid="ticket-user-tag" /> : null}
          {ticket.chatbot ? (
            <Chip icon={<SmartToyOutlined />} label={t('tickets.botTag')} size="small" color="info" variant="outlined" sx={{ height: 20, fontSize: 11 }} data-testid="ticket-bot-tag" />
          ) : null}
          <Chip label={ticket.whatsapp.name} size="small" variant="outlined" sx={{ height: 20, fontSize: 11, minWidth: 0 }} data-testid="ticket-connection-tag" />
          <LabelChips labels={ticket.labels} testId="ticket-row-label" />
          {pending ? (
            <Box sx={{ ml: 'auto', display: 'flex', gap: 0.5, flexShrink: 0 }}>
              <Tooltip title={t('tickets.spyHint')}>
                <span>
                  <Button
                    size="small"
                    variant="outlined"
                    color="inherit"
                    disabled={busy}
                    startIcon={<VisibilityOutlined sx={{ fontSize: '16px !important' }} />}
                    onClick={(event) => {
                      event.stopPropagation();
                      void changeAndOpen('pending');
                    }}
                    sx={{ py: 0.1, minWidth: 0, color: 'text.secondary', borderColor: 'divider' }}
                    data-testid="ticket-spy"
                  >
                    {t('tickets.spy')}
                  </Button>
                </span>
              </Tooltip>
              <Button
                size="small"
                variant="contained"
                color="primary"
                disabled={busy}
                onClick={(event) => {
                  event.stopPropagation();
                  void changeAndOpen('open');
                }}
                sx={{ py: 0.1, minWidth: 0 }}
                data-testid="ticket-accept"
              >
                {t('tickets.accept')}
              </Button>
            </Box>
          ) : null}
        </Box>
      </Box>
    </ListItemButton>
  );
});
