/**
 * A webhook's actions: its deliveries, send a test, edit, a new secret, delete. Icon buttons on a
 * wide screen; on a phone, the deliveries button and the rest in a menu with words.
 */
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import ListAltOutlined from '@mui/icons-material/ListAltOutlined';
import MoreVert from '@mui/icons-material/MoreVert';
import SendOutlined from '@mui/icons-material/SendOutlined';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

type Props = { webhookId: number; testing: boolean; onTest: () => void; onEdit: () => void; onNewSecret: () => void; onDelete: () => void };

export function WebhookActions({ webhookId, testing, onTest, onEdit, onNewSecret, onDelete }: Props) {
  const { t } = useTranslation();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const testIcon = testing ? <CircularProgress size={18} /> : <SendOutlined fontSize="small" />;
  const items: { key: string; label: string; icon: ReactNode; onClick: () => void; danger?: boolean; disabled?: boolean }[] = [
    { key: 'test', label: t('webhooks.sendTest'), icon: testIcon, onClick: onTest, disabled: testing },
    { key: 'edit', label: t('common.edit'), icon: <EditOutlined fontSize="small" />, onClick: onEdit },
    { key: 'renew', label: t('webhooks.newSecret'), icon: <KeyOutlined fontSize="small" />, onClick: onNewSecret },
    { key: 'delete', label: t('common.delete'), icon: <DeleteOutline fontSize="small" />, onClick: onDelete, danger: true },
  ];
  const deliveries = (
    <Tooltip title={t('webhooks.seeDeliveries')}>
      <IconButton size="small" component={Link} to={`/webhooks/${webhookId}`} aria-label={t('webhooks.seeDeliveries')} data-testid="webhook-deliveries">
        <ListAltOutlined fontSize="small" />
      </IconButton>
    </Tooltip>
  );

  if (phone) {
    return (
      <Stack direction="row" justifyContent="flex-end">
        {deliveries}
        <IconButton size="small" onClick={(event) => setMenuAnchor(event.currentTarget)} aria-label={t('webhooks.more')} data-testid="webhook-more">
          <MoreVert fontSize="small" />
        </IconButton>
        <Menu anchorEl={menuAnchor} open={menuAnchor !== null} onClose={() => setMenuAnchor(null)}>
          {items.map((item) => (
            <MenuItem
              key={item.key}
              disabled={item.disabled}
              onClick={() => {
                setMenuAnchor(null);
                item.onClick();
              }}
              sx={item.danger ? { color: 'error.main' } : undefined}
              data-testid={`webhook-${item.key}`}
            >
              <ListItemIcon sx={item.danger ? { color: 'error.main' } : undefined}>{item.icon}</ListItemIcon>
              <ListItemText>{item.label}</ListItemText>
            </MenuItem>
          ))}
        </Menu>
      </Stack>
    );
  }

  return (
    <Stack direction="row" justifyContent="flex-end" gap={0.5}>
      {deliveries}
      {items.map((item) => (
        <Tooltip key={item.key} title={item.label}>
          <span>
            <IconButton
              size="small"
              onClick={item.onClick}
              disabled={item.disabled}
              aria-label={item.label}
              data-testid={`webhook-${item.key}`}
              sx={item.danger ? { '&:hover': { color: 'error.main' } } : undefined}
            >
              {item.icon}
            </IconButton>
          </span>
        </Tooltip>
      ))}
    </Stack>
  );
}
