/**
 * Links a phone to a connection: the live QR code (it follows every new code the session
 * sends and closes itself once a live update comes without one because the phone scanned it),
 * or a pairing code for the phone number when scanning is not possible.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TWhatsapp } from '@zapdesk/shared/schemas';
import { PairingCodeForm } from './PairingCodeForm';
import { SimulatorScan } from './SimulatorScan';
import { useWhatsapps } from './whatsapps.api';

type Props = { whatsappId: number; onClose: () => void };

const QR_SIZE = 264;
const STEPS = ['open', 'menu', 'link', 'scan'] as const;
/**
 * Whether the pairing this dialog shows is over. A code that goes away because the phone scanned
 * it (PAIRING, CONNECTED) or because nobody did (TIMEOUT, or the session dropped) closes it; a
 * session between two rounds of codes (OPENING) keeps it waiting for the next code.
 */
function pairingOver(connection: TWhatsapp, sawCode: boolean): boolean {
  if (connection.qrcode) return false;
  switch (connection.status) {
    case 'OPENING':
    case 'qrcode':
      return false;
    case 'DISCONNECTED':
      // Opened right after a create or a 'New QR', the session may pass here before its first code.
      return sawCode;
    case 'PAIRING':
    case 'CONNECTED':
    case 'TIMEOUT':
      return true;
  }
}

export function QrCodeDialog({ whatsappId, onClose }: Props) {
  const { t } = useTranslation();
  const { data } = useWhatsapps();
  const connection = data?.find((row) => row.id === whatsappId);
  const qrcode = connection?.qrcode ?? '';
  const [sawCode, setSawCode] = useState(false);
  const [byPhone, setByPhone] = useState(false);
  if (qrcode && !sawCode) setSawCode(true);

  const done = data !== undefined && (connection === undefined || pairingOver(connection, sawCode));
  useEffect(() => {
    if (done) onClose();
  }, [done, onClose]);

  return (
    <Dialog open={!done} onClose={onClose} maxWidth="md" data-testid="qr-dialog" data-status={connection?.status}>
      <DialogTitle>{t('qrDialog.title', { name: connection?.name ?? '' })}</DialogTitle>
      <DialogContent dividers>
        <Stack direction={{ xs: 'column', sm: 'row' }} gap={4} alignItems={{ xs: 'center', sm: 'flex-start' }}>
          <Box sx={{ maxWidth: 340 }}>
            <Box component="ol" sx={{ m: 0, pl: 2.5, display: 'flex', flexDirection: 'column', gap: 1.25 }} data-testid="qr-instructions">
              {STEPS.map((step) => (
                <Typography key={step} component="li" variant="body1">
                  {t(`qrDialog.steps.${step}`)}
                </Typography>
              ))}
            </Box>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
              {t('qrDialog.refreshes')}
            </Typography>
            {connection?.channel === 'simulator' ? <SimulatorScan whatsappId={whatsappId} ready={qrcode !== ''} /> : null}
          </Box>
          <Stack alignItems="center" gap={1.5} sx={{ width: QR_SIZE + 24, flexShrink: 0 }}>
            {byPhone ? (
              <PairingCodeForm whatsappId={whatsappId} />
            ) : (
              <Box
                sx={{ width: QR_SIZE + 24, height: QR_SIZE + 24, display: 'grid', placeItems: 'center', bgcolor: '#fff', border: 1, borderColor: 'divider', borderRadius: 2 }}
                data-testid="qr-code"
                data-qr={qrcode}
              >
                {qrcode ? (
                  <QRCodeSVG value={qrcode} size={QR_SIZE} marginSize={0} level="L" title={t('qrDialog.qrAlt')} role="img" aria-label={t('qrDialog.qrAlt')} />
                ) : (
                  <Stack alignItems="center" gap={1.5} sx={{ color: 'text.secondary' }} data-testid="qr-waiting">
                    <CircularProgress size={32} />
                    <Typography variant="body2">{t('qrDialog.waiting')}</Typography>
                  </Stack>
                )}
              </Box>
            )}
            <Link component="button" type="button" variant="body2" onClick={() => setByPhone((value) => !value)} data-testid="qr-toggle-pairing">
              {byPhone ? t('qrDialog.backToQr') : t('qrDialog.pairWithPhone')}
            </Link>
          </Stack>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        <Button onClick={onClose} color="inherit" data-testid="qr-close">
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
