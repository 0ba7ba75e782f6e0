import HourglassEmpty from '@mui/icons-material/HourglassEmpty';
import PhonelinkRing from '@mui/icons-material/PhonelinkRing';
import QrCode2 from '@mui/icons-material/QrCode2';
import SignalWifi4Bar from '@mui/icons-material/SignalWifi4Bar';
import SignalWifiOff from '@mui/icons-material/SignalWifiOff';
import TimerOff from '@mui/icons-material/TimerOff';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ConnectionStatus } from '@zapdesk/shared/domain';

type Look = { Icon: typeof QrCode2; color: 'success.main' | 'error.main' | 'warning.main' | 'info.main' | 'text.secondary' };

const LOOKS: Record<ConnectionStatus, Look> = {
  qrcode: { Icon: QrCode2, color: 'info.main' },
  OPENING: { Icon: HourglassEmpty, color: 'text.secondary' },
  PAIRING: { Icon: PhonelinkRing, color: 'info.main' },
  CONNECTED: { Icon: SignalWifi4Bar, color: 'success.main' },
  DISCONNECTED: { Icon: SignalWifiOff, color: 'error.main' },
  TIMEOUT: { Icon: TimerOff, color: 'warning.main' },
};

/** A connection's status: icon and label, with a tooltip saying what it means; retries under it. */
export function ConnectionStatusBadge({ status, retries }: { status: ConnectionStatus; retries: number }) {
  const { t } = useTranslation();
  const { Icon, color } = LOOKS[status];
  return (
    <Tooltip title={t(`connections.statusHelp.${status}`)} placement="top-start" describeChild>
      <Stack direction="row" alignItems="center" gap={1} sx={{ width: 'fit-content' }} data-testid="connection-status" data-status={status} tabIndex={0}>
        <Icon fontSize="small" sx={{ color }} />
        <Stack>
          <Typography variant="body2" fontWeight={500} sx={{ lineHeight: 1.3 }}>
            {t(`connections.statuses.${status}`)}
          </Typography>
          {retries > 0 ? (
            <Typography variant="caption" color="text.secondary" sx={{ lineHeight: 1.2 }} data-testid="connection-retries">
              {t('connections.retries', { count: retries })}
            </Typography>
          ) : null}
        </Stack>
      </Stack>
    </Tooltip>
  );
}
