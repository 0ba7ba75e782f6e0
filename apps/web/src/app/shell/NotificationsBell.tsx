/**
 * The title bar's bell: how many waiting or open tickets have unread messages for this user
 * (unassigned or their own, in their queues), and their list; a click opens the ticket. Opening the bell asks,
 * once, for permission to show desktop notifications.
 */
import NotificationsNoneOutlined from '@mui/icons-material/NotificationsNoneOutlined';
import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Popover from '@mui/material/Popover';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useInfiniteScroll } from '../../core/hooks/useInfiniteScroll';
import { formatRecent } from '../../core/ui/formatDate';
import { listLine } from '../../core/ui/mediaLine';
import { initials } from '../../core/ui/initials';
import { desktopPermission, requestDesktopPermission } from './notificationAlerts';
import { useTicketNotifications } from './useTicketNotifications';
import { MentionsBellSection } from '../../features/notes/MentionsBellSection';
import { useMentions } from '../../features/notes/notes.api';

export function NotificationsBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [permission, setPermission] = useState(desktopPermission);
  const { tickets, count, alerts, hasMore, isFetching, fetchMore } = useTicketNotifications();
  const { data: mentionPage } = useMentions('open', { announce: true });
  const mentions = mentionPage?.unread ?? 0;
  const total = count + mentions;
  const { containerRef, onScroll } = useInfiniteScroll({ hasNextPage: anchor !== null && hasMore, isFetching, fetchNextPage: fetchMore });

  const open = (element: HTMLElement) => {
    setAnchor(element);
    if (permission === 'default') void requestDesktopPermission().then(setPermission);
  };

  return (
    <>
      <IconButton
        color="inherit"
        onClick={(event) => open(event.currentTarget)}
        aria-label={total > 0 ? `${t('notifications.title')}: ${total > 99 ? '99+' : total}` : t('notifications.title')}
        data-testid="notifications-button"
        data-count={count}
        data-mentions={mentions}
        data-alerts={alerts}
      >
        {/* The count is in the button's name. At 0 MUI only shrinks the badge, keeping its last number in the page: it is taken out. */}
        <Badge badgeContent={total} color="secondary" max={99} data-testid="notifications-count" sx={{ '& .MuiBadge-invisible': { display: 'none' } }}>
          <NotificationsNoneOutlined />
        </Badge>
      </IconButton>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 340, maxWidth: 'calc(100vw - 24px)' } } }}
      >
        <Box sx={{ px: 2, py: 1.25, borderBottom: 1, borderColor: 'divider' }}>
          <Typography fontWeight={600}>{t('notifications.title')}</Typography>
          {permission === 'denied' ? (
            <Typography variant="caption" color="text.secondary">
              {t('notifications.desktopBlocked')}
            </Typography>
          ) : null}
        </Box>
        <MentionsBellSection mentions={mentionPage?.mentions ?? []} onNavigate={() => setAnchor(null)} />
        {tickets.length === 0 ? (
          <Typography sx={{ px: 2, py: 2 }} color="text.secondary" data-testid="notifications-empty">
            {t('notifications.empty')}
          </Typography>
        ) : (
          <Box ref={containerRef} onScroll={onScroll} sx={{ maxHeight: 400, overflowY: 'auto' }}>
            <List disablePadding data-testid="notifications-list">
              {tickets.map((ticket) => (
                <ListItemButton
                  key={ticket.id}
                  onClick={() => {
                    setAnchor(null);
                    void navigate(`/tickets/${ticket.id}`);
                  }}
                  sx={{ gap: 0.5, borderBottom: 1, borderColor: 'divider' }}
                  data-testid="notification-item"
                  data-id={ticket.id}
                >
                  <ListItemAvatar sx={{ minWidth: 48 }}>
                    <Avatar src={ticket.contact.profilePicUrl || undefined} sx={{ width: 38, height: 38 }}>
                      {initials(ticket.contact.name)}
                    </Avatar>
                  </ListItemAvatar>
                  <ListItemText
                    primary={ticket.contact.name}
                    secondary={listLine(ticket.lastMessage, t) || '\u00A0'}
                    slotProps={{ primary: { noWrap: true, fontWeight: 600 }, secondary: { noWrap: true } }}
                    sx={{ minWidth: 0 }}
                  />
                  <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-end', gap: 0.5, flexShrink: 0 }}>
                    <Typography variant="caption" color="text.secondary">
                      {formatRecent(ticket.updatedAt)}
                    </Typography>
                    <Badge badgeContent={ticket.unreadMessages} color="secondary" max={99} sx={{ mr: 1.25, mb: 1 }} />
                  </Box>
                </ListItemButton>
              ))}
            </List>
          </Box>
        )}
      </Popover>
    </>
  );
}
