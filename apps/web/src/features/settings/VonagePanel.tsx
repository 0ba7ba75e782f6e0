/**
 * Under the Vonage settings: 'test credentials' (the account balance, asked of Vonage now) and
 * the webhook addresses to give Vonage for delivery receipts and call events.
 */
import VerifiedUser from '@mui/icons-material/VerifiedUser';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { toastError } from '../../core/ui/toastError';
import { testVonage } from '../phone/phone.api';

export function VonagePanel() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const origin = window.location.origin;

  const test = async () => {
    setBusy(true);
    try {
      const balance = await testVonage();
      toast.success(t('settings.vonage.ok', { value: balance.value.toFixed(2) }));
    } catch (caught) {
      toastError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap={1.5} sx={{ px: 3, py: 2, borderTop: 1, borderColor: 'divider' }} data-testid="vonage-panel">
      <Stack direction="row">
        <Button variant="outlined" startIcon={<VerifiedUser />} disabled={busy} onClick={() => void test()} data-testid="vonage-test">
          {t('settings.vonage.test')}
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }} data-testid="vonage-webhooks">
        {t('settings.vonage.webhooks', { sms: `${origin}/api/webhooks/vonage/sms`, call: `${origin}/api/webhooks/vonage/call` })}
      </Typography>
    </Stack>
  );
}
