import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ZPairingCodeRequestSchema } from '@zapdesk/shared/messaging';
import { applyServerFieldErrors, fieldErrorText } from '../../core/forms/fieldErrors';
import { muiRegister } from '../../core/ui/muiRegister';
import { toastError } from '../../core/ui/toastError';
import { requestPairingCode } from './whatsapps.api';

/** WhatsApp shows pairing codes as two groups of four: ABCD-EFGH. */
function groupCode(code: string): string {
  return /^[A-Z0-9]{8}$/i.test(code) ? `${code.slice(0, 4)}-${code.slice(4)}` : code;
}

/** Pairing by phone number: asks for the number, then shows the code to type on the phone. */
export function PairingCodeForm({ whatsappId }: { whatsappId: number }) {
  const { t } = useTranslation();
  const [code, setCode] = useState<string | null>(null);
  const form = useForm({ resolver: zodResolver(ZPairingCodeRequestSchema), defaultValues: { phoneNumber: '' } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ phoneNumber }) => {
    try {
      setCode((await requestPairingCode(whatsappId, phoneNumber)).code);
    } catch (error) {
      applyServerFieldErrors(error, form.setError, ['phoneNumber']);
      toastError(error);
    }
  });

  return (
    <Stack gap={2} sx={{ width: '100%' }} data-testid="pairing-form">
      <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        <TextField
          {...muiRegister(form.register('phoneNumber'))}
          label={t('qrDialog.phoneNumber')}
          autoFocus
          fullWidth
          error={Boolean(errors.phoneNumber)}
          helperText={fieldErrorText(errors.phoneNumber) ?? t('qrDialog.phoneHelp')}
          slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'tel', 'data-testid': 'pairing-phone' } }}
        />
        <Button type="submit" variant="contained" disabled={isSubmitting} startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : null} data-testid="pairing-submit">
          {t('qrDialog.getCode')}
        </Button>
      </Box>
      {code ? (
        <Box sx={{ textAlign: 'center' }}>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t('qrDialog.codeIntro')}
          </Typography>
          <Typography
            component="output"
            sx={{ display: 'block', fontFamily: 'monospace', fontSize: 30, fontWeight: 700, letterSpacing: '0.12em', py: 1, borderRadius: 1, bgcolor: 'action.hover' }}
            data-testid="pairing-code"
            data-code={code}
          >
            {groupCode(code)}
          </Typography>
        </Box>
      ) : null}
    </Stack>
  );
}
