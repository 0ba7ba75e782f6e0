/**
 * A simulated phone's QR code is scanned from here (the simulator's scan control, present with
 * SIMULATOR=on or DEMO=on): the dialog then closes by itself as for a real phone, and the
 * connection's new state is put in the list from the answer.
 */
import QrCodeScanner from '@mui/icons-material/QrCodeScanner';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { TWhatsapp } from '@zapdesk/shared/schemas';
import { request } from '../../core/api/client';
import { toastError } from '../../core/ui/toastError';
import { saveWhatsappInCache } from './whatsapps.api';

export function SimulatorScan({ whatsappId, ready }: { whatsappId: number; ready: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [scanning, setScanning] = useState(false);

  const scan = async () => {
    setScanning(true);
    try {
      await request<{ status: string }>(`/simulator/${whatsappId}/scan`, { method: 'POST' });
      // The screen follows the answer, not a live update that may come late.
      saveWhatsappInCache(queryClient, await request<TWhatsapp>(`/whatsapp/${whatsappId}`));
      toast.success(t('qrDialog.simulatorScanned'));
    } catch (error) {
      toastError(error);
    } finally {
      setScanning(false);
    }
  };

  return (
    <Alert
      severity="info"
      variant="outlined"
      sx={{ mt: 2, alignItems: 'center', '& .MuiAlert-message': { display: 'flex', flexDirection: 'column', gap: 1, alignItems: 'flex-start' } }}
      data-testid="qr-simulator"
    >
      {t('qrDialog.simulator')}
      <Button variant="contained" size="small" startIcon={<QrCodeScanner />} onClick={() => void scan()} disabled={!ready || scanning} data-testid="qr-simulator-scan">
        {scanning ? t('qrDialog.simulatorScanning') : t('qrDialog.simulatorScan')}
      </Button>
    </Alert>
  );
}
