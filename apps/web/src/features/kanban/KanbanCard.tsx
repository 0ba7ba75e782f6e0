/** A ticket on the Kanban board: queue colour, avatar, contact, time, last message, unread count and owner. */
import { useDraggable } from '@dnd-kit/core';
import PersonOutline from '@mui/icons-material/PersonOutline';
import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { NO_QUEUE_COLOR } from '@zapdesk/shared/domain';
import type { TTicket } from '@zapdesk/shared/messaging';
import { formatRecent } from '../../core/ui/formatDate';
import { listLine } from '../../core/ui/mediaLine';
import { initials } from '../../core/ui/initials';
import { LabelChips } from '../labels/LabelChips';

type ViewProps = {
  ticket: TTicket;
  /** The queue view shows the status on the card; the status view the queue. */
  showStatus: boolean;
  /** The copy under the pointer while dragging. */
  overlay?: boolean;
};

export function KanbanCardView({ ticket, showStatus, overlay = false }: ViewProps) {
  const { t } = useTranslation();
  const queueName = ticket.queue?.name ?? t('kanban.noQueue');
  return (
    <Paper
      variant="outlined"
      sx={{
        position: 'relative',
        overflow: 'hidden',
        pl: 2,
        pr: 1.5,
        py: 1.25,
        display: 'flex',
        gap: 1.25,
        alignItems: 'flex-start',
        bgcolor: 'background.paper',
        boxShadow: overlay ? 8 : 0,
        transform: overlay ? 'rotate(2deg)' : undefined,
        cursor: overlay ? 'grabbing' : 'grab',
        transition: 'box-shadow 120ms',
        '&:hover': { boxShadow: overlay ? 8 : 2 },
      }}
    >
      <Box
        sx={{ position: 'absolute', left: 0, top: 0, bottom: 0, width: 5, bgcolor: ticket.queue?.color ?? NO_QUEUE_COLOR }}
        data-testid="kanban-card-queue"
        aria-label={queueName}
        title={queueName}
      />
      <Avatar src={ticket.contact.profilePicUrl || undefined} alt={ticket.contact.name} sx={{ width: 40, height: 40 }}>
        {initials(ticket.contact.name)}
      </Avatar>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Typography variant="body2" fontWeight={700} noWrap sx={{ flex: 1, minWidth: 0 }} data-testid="kanban-card-contact">
            {ticket.contact.name}
          </Typography>
          <Typography variant="caption" color={ticket.unreadMessages > 0 ? 'secondary.main' : 'text.secondary'} sx={{ flexShrink: 0 }} data-testid="kanban-card-time">
            {formatRecent(ticket.updatedAt)}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minHeight: 20 }}>
          <Typography variant="body2" color="text.secondary" noWrap sx={{ flex: 1, minWidth: 0 }} data-testid="kanban-card-last-message">
            {listLine(ticket.lastMessage, t) || '\u00A0'}
          </Typography>
          {ticket.unreadMessages > 0 ? (
            <Badge
              badgeContent={ticket.unreadMessages}
              color="secondary"
              max={99}
              sx={{ mr: 1.25 }}
              data-testid="kanban-card-unread"
              aria-label={t('kanban.unread', { count: ticket.unreadMessages })}
            />
          ) : null}
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, mt: 0.75, flexWrap: 'wrap' }}>
          {showStatus ? (
            <Chip
              label={t(`kanban.statuses.${ticket.status}`)}
              size="small"
              color={ticket.status === 'open' ? 'primary' : 'warning'}
              variant="outlined"
              sx={{ height: 20, fontSize: 11 }}
              data-testid="kanban-card-status"
            />
          ) : (
            <Chip
              label={queueName}
              size="small"
              variant="outlined"
              sx={{ height: 20, fontSize: 11, maxWidth: 140, borderColor: ticket.queue?.color ?? NO_QUEUE_COLOR }}
              data-testid="kanban-card-queue-name"
            />
          )}
          <LabelChips labels={ticket.labels} testId="kanban-card-label" />
          {ticket.user ? (
            <Chip
              icon={<PersonOutline />}
              label={ticket.user.name}
              size="small"
              sx={{ height: 20, fontSize: 11, maxWidth: 160, '& .MuiChip-icon': { fontSize: 14 } }}
              data-testid="kanban-card-owner"
            />
          ) : null}
          <Typography variant="caption" color="text.secondary" sx={{ ml: 'auto' }}>
            #{ticket.id}
          </Typography>
        </Box>
      </Box>
    </Paper>
  );
}

type Props = {
  ticket: TTicket;
  showStatus: boolean;
  /** Clicks that end a drag must not open the chat. */
  wasDragging: () => boolean;
  /** Where a ticket shows in several columns (by label), each card's own drag id. */
  dragId?: string | undefined;
};

export function KanbanCard({ ticket, showStatus, wasDragging, dragId }: Props) {
  const navigate = useNavigate();
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: dragId ?? ticket.id, data: { ticket } });
  // A pending ticket opens only through Accept, as in the tickets list: here, a drag to 'In service'.
  const opens = ticket.status !== 'pending';
  return (
    <Box
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      onClick={opens ? () => !wasDragging() && void navigate(`/tickets/${ticket.id}`) : undefined}
      sx={{ opacity: isDragging ? 0.35 : 1, touchAction: 'manipulation', borderRadius: 1.25, '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: 2 } }}
      data-testid="kanban-card"
      data-id={ticket.id}
      data-status={ticket.status}
      data-queue={ticket.queueId ?? 'none'}
    >
      <KanbanCardView ticket={ticket} showStatus={showStatus} />
    </Box>
  );
}
