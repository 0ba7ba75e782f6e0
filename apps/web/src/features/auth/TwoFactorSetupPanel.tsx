/**
 * Setting up the authenticator app: the QR code to scan, the key to type when scanning is not
 * possible, and the field for the first code. Used by the profile and by the sign-in when the
 * set-up is required.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { QRCodeSVG } from 'qrcode.react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TTwoFactorSetup } from '@zapdesk/shared/two-factor';

/** The key in groups of four, as apps show it and people type it. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

type Props = { setup: TTwoFactorSetup; onCode: (code: string) => Promise<void>; submitLabel: string };

export function TwoFactorSetupPanel({ setup, onCode, submitLabel }: Props) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The panel may sit inside another form (the profile dialog): its submit is not that form's.
    event.stopPropagation();
    setBusy(true);
    try {
      await onCode(code.trim());
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack component="form" noValidate onSubmit={submit} gap={2} data-testid="two-factor-setup">
      <Typography variant="body2">{t('twoFactor.setupStep1')}</Typography>
      <Box sx={{ alignSelf: 'center', p: 1.5, bgcolor: '#fff', borderRadius: 1, border: 1, borderColor: 'divider' }}>
        <QRCodeSVG value={setup.otpauthUrl} size={176} marginSize={0} level="M" role="img" aria-label={t('twoFactor.qrAlt')} title={t('twoFactor.qrAlt')} />
      </Box>
      <Box>
        <Typography variant="body2" color="text.secondary">
          {t('twoFactor.secretLabel')}
        </Typography>
        <Typography variant="body1" sx={{ fontFamily: 'monospace', fontWeight: 600, letterSpacing: 1, wordBreak: 'break-all' }} data-testid="two-factor-secret">
          {grouped(setup.secret)}
        </Typography>
      </Box>
      <Typography variant="body2">{t('twoFactor.setupStep2')}</Typography>
      <TextField
        label={t('twoFactor.codeLabel')}
        value={code}
        onChange={(event) => setCode(event.target.value)}
        autoComplete="one-time-code"
        fullWidth
        slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 8, 'data-testid': 'two-factor-setup-code' } }}
      />
      <Button type="submit" variant="contained" disabled={busy || code.trim() === ''} data-testid="two-factor-setup-submit">
        {submitLabel}
      </Button>
    </Stack>
  );
}
