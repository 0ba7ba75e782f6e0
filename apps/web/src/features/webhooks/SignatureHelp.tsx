/** How a receiver checks that a delivery came from here, and how it handles a delivery tried twice: the header names integrators need. */
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

const HEADERS = { signature: 'X-ZapDesk-Signature', timestamp: 'X-ZapDesk-Timestamp', delivery: 'X-ZapDesk-Delivery' };

export function SignatureHelp() {
  const { t } = useTranslation();
  return (
    <Typography variant="body2" color="text.secondary" component="div" data-testid="webhook-signature-help" sx={{ '& p': { m: 0 }, display: 'grid', gap: 0.75 }}>
      <p>{t('webhooks.verify', HEADERS)}</p>
      <p>{t('webhooks.dedupe', HEADERS)}</p>
    </Typography>
  );
}
