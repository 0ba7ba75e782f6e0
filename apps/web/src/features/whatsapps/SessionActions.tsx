import LinkOff from '@mui/icons-material/LinkOff';
import QrCode2 from '@mui/icons-material/QrCode2';
import Refresh from '@mui/icons-material/Refresh';
import Replay from '@mui/icons-material/Replay';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TWhatsapp } from '@zapdesk/shared/schemas';
import { toastError } from '../../core/ui/toastError';
import { runSessionAction, saveWhatsappInCache, type SessionAction } from './whatsapps.api';

type Props = {
  whatsapp: TWhatsapp;
  onShowQr: () => void;
  /** Disconnecting logs the phone out: the page asks first. */
  onDisconnect: () => void;
  /** After 'New QR' the code is on its way: the page opens the QR dialog to wait for it. */
  onNewQr: (whatsapp: TWhatsapp) => void;
};

/** The buttons of a connection's session, by status (spec: connection statuses). */
export function SessionActions({ whatsapp, onShowQr, onDisconnect, onNewQr }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [running, setRunning] = useState<SessionAction | null>(null);

  const run = async (action: SessionAction) => {
    setRunning(action);
    try {
      const saved = await runSessionAction(whatsapp.id, action);
      saveWhatsappInCache(queryClient, saved);
      if (action === 'newQr') onNewQr(saved);
    } catch (error) {
      toastError(error);
    } finally {
      setRunning(null);
    }
  };

  const button = (options: { action: SessionAction; label: string; icon: ReactNode; variant?: 'contained' | 'outlined' }) => (
    <Button
      size="small"
      variant={options.variant ?? 'outlined'}
      disabled={running !== null}
      onClick={() => void run(options.action)}
      startIcon={running === options.action ? <CircularProgress size={14} color="inherit" /> : options.icon}
      data-testid={`session-${options.action}`}
    >
      {options.label}
    </Button>
  );

  let content: ReactNode;
  switch (whatsapp.status) {
    case 'qrcode':
      content = (
        <Button size="small" variant="contained" onClick={onShowQr} startIcon={<QrCode2 />} data-testid="session-qrcode">
          {t('connections.qrcode')}
        </Button>
      );
      break;
    case 'DISCONNECTED':
      content = (
        <>
          {button({ action: 'retry', label: t('connections.retry'), icon: <Replay />, variant: 'contained' })}
          {whatsapp.channel === 'instagram' ? null : button({ action: 'newQr', label: t('connections.newQr'), icon: <Refresh /> })}
        </>
      );
      break;
    case 'OPENING':
      content = (
        <Button size="small" variant="outlined" disabled startIcon={<CircularProgress size={14} color="inherit" />} data-testid="session-connecting">
          {t('connections.connecting')}
        </Button>
      );
      break;
    case 'CONNECTED':
    case 'PAIRING':
    case 'TIMEOUT':
      content = (
        <Button size="small" variant="outlined" color="error" onClick={onDisconnect} startIcon={<LinkOff />} data-testid="session-disconnect">
          {t('connections.disconnect')}
        </Button>
      );
      break;
  }

  return (
    <Stack direction="row" gap={1} flexWrap="wrap" alignItems="center">
      {content}
    </Stack>
  );
}
