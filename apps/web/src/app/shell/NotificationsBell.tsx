import NotificationsNoneOutlined from '@mui/icons-material/NotificationsNoneOutlined';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Ticket notifications arrive with the tickets feature; until then the bell shows 0. */
export function NotificationsBell() {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const count = 0;
  return (
    <>
      <IconButton color="inherit" onClick={(event) => setAnchor(event.currentTarget)} aria-label={t('notifications.title')} data-testid="notifications-button">
        <Badge badgeContent={count} showZero color="secondary" max={99}>
          <NotificationsNoneOutlined />
        </Badge>
      </IconButton>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Typography sx={{ px: 3, py: 2, minWidth: 240 }} color="text.secondary">
          {t('notifications.empty')}
        </Typography>
      </Popover>
    </>
  );
}
