/**
 * Said up front on /InstaDirect: what must be set up for a message to go (an Instagram connection
 * with the account's keys, and Meta's webhook pointing here), where, and the webhook address to
 * paste into Meta, with a copy button.
 */
import ContentCopy from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { Trans, useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { toast } from 'react-toastify';
import { request } from '../../core/api/client';
import { toastError } from '../../core/ui/toastError';
import { copyText } from '../settings/SettingControls';

/** Meta's webhook address with a copy button: on this page and in the Instagram connection's form. */
export function WebhookAddress() {
  const { t } = useTranslation();
  const address = useQuery({ queryKey: ['instagram', 'webhook-address'], queryFn: () => request<{ url: string; fromPublicUrl: boolean }>('/instagram/webhook-address') });
  const url = address.data?.url ?? '';

  const copy = async () => {
    try {
      await copyText(url);
      toast.success(t('toolPages.instagram.copied'));
    } catch (caught) {
      toastError(caught);
    }
  };

  if (address.isError) return null;
  return (
    <Stack gap={0.75} data-testid="insta-webhook">
      <Stack direction={{ xs: 'column', sm: 'row' }} gap={1} alignItems={{ sm: 'center' }}>
        <TextField
          size="small"
          fullWidth
          multiline
          label={t('toolPages.instagram.webhook')}
          value={url}
          slotProps={{
            input: { readOnly: true },
            inputLabel: { shrink: true },
            htmlInput: { 'data-testid': 'insta-webhook-url', onFocus: (event: { target: HTMLTextAreaElement }) => event.target.select() },
          }}
          sx={{ bgcolor: 'background.paper', '& textarea': { wordBreak: 'break-all' } }}
        />
        <Button variant="outlined" startIcon={<ContentCopy />} disabled={!url} onClick={() => void copy()} sx={{ flexShrink: 0 }} data-testid="insta-webhook-copy">
          {t('toolPages.instagram.copy')}
        </Button>
      </Stack>
      <Typography variant="caption" color="text.secondary">
        {t(address.data && !address.data.fromPublicUrl ? 'toolPages.instagram.webhookHelpGuessed' : 'toolPages.instagram.webhookHelp')}
      </Typography>
    </Stack>
  );
}

export function InstagramSetup() {
  return (
    <Alert severity="info" data-testid="insta-setup" sx={{ '& .MuiAlert-message': { width: '100%', minWidth: 0 } }}>
      <Stack gap={1.25}>
        <Typography variant="body2">
          <Trans i18nKey="toolPages.instagram.setup" components={{ where: <Link component={RouterLink} to="/connections" data-testid="insta-setup-link" /> }} />
        </Typography>
        <WebhookAddress />
      </Stack>
    </Alert>
  );
}
