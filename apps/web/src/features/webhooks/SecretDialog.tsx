/**
 * A webhook's signing secret, the one time it is shown (just added, or a new one made), with a
 * copy button, a warning, and how the receiver checks a signature with it.
 */
import ContentCopy from '@mui/icons-material/ContentCopy';
import WarningAmber from '@mui/icons-material/WarningAmber';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { TWebhookWithSecret } from '@zapdesk/shared/webhooks';
import { toastError } from '../../core/ui/toastError';
import { copyText } from '../settings/SettingControls';
import { SignatureHelp } from './SignatureHelp';

type Props = { webhook: TWebhookWithSecret; renewed: boolean; onClose: () => void };

export function SecretDialog({ webhook, renewed, onClose }: Props) {
  const { t } = useTranslation();
  const copy = () => void copyText(webhook.secret).then(() => toast.info(t('common.copied')), toastError);
  return (
    // A click beside the dialog does not close it: the secret would be lost before it was copied.
    <Dialog open onClose={(_event, reason) => (reason === 'backdropClick' ? undefined : onClose())} maxWidth="sm" fullWidth data-testid="webhook-secret-dialog">
      <DialogTitle>{renewed ? t('webhooks.secret.renewedTitle') : t('webhooks.secret.createdTitle')}</DialogTitle>
      <DialogContent dividers>
        <Stack gap={2}>
          <Alert severity="warning" icon={<WarningAmber />} data-testid="webhook-secret-warning">
            {t('webhooks.secret.copyNow')}
          </Alert>
          <TextField
            label={t('webhooks.secret.label')}
            value={webhook.secret}
            fullWidth
            helperText={webhook.url}
            slotProps={{
              formHelperText: { sx: { wordBreak: 'break-all' } },
              htmlInput: { readOnly: true, 'data-testid': 'webhook-secret-value', style: { fontFamily: 'monospace' } },
              input: {
                endAdornment: (
                  <InputAdornment position="end">
                    <Tooltip title={t('webhooks.secret.copy')}>
                      <IconButton edge="end" aria-label={t('webhooks.secret.copy')} data-testid="webhook-secret-copy" onClick={copy}>
                        <ContentCopy fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </InputAdornment>
                ),
              },
            }}
          />
          <SignatureHelp />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button variant="contained" onClick={onClose} data-testid="webhook-secret-done">
          {t('webhooks.secret.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
