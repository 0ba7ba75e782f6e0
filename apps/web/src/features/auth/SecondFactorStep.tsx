/** The sign-in's second step: the code of the authenticator app, or a recovery code instead. */
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TLoginResponse } from '@zapdesk/shared/schemas';
import { ApiError } from '../../core/api/ApiError';
import { toastError } from '../../core/ui/toastError';
import { loginWithCode } from './twoFactor.api';

type Props = { challenge: string; onSession: (session: TLoginResponse) => void; onBack: () => void };

export function SecondFactorStep({ challenge, onSession, onBack }: Props) {
  const { t } = useTranslation();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      onSession(await loginWithCode(challenge, code.trim()));
    } catch (error) {
      toastError(error);
      setCode('');
      // Too late or too many tries: the password is asked again.
      if (error instanceof ApiError && error.code === 'ERR_TWO_FACTOR_CHALLENGE_EXPIRED') onBack();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack component="form" noValidate onSubmit={submit} gap={2} data-testid="login-second-factor">
      <Typography variant="body2">{recovery ? t('twoFactor.recoveryHelp') : t('twoFactor.codeHelp')}</Typography>
      <TextField
        key={recovery ? 'recovery' : 'code'}
        label={recovery ? t('twoFactor.recoveryLabel') : t('twoFactor.codeLabel')}
        value={code}
        onChange={(event) => setCode(event.target.value)}
        autoComplete="one-time-code"
        autoFocus
        fullWidth
        slotProps={{ htmlInput: { inputMode: recovery ? 'text' : 'numeric', maxLength: recovery ? 20 : 8, 'data-testid': 'login-code' } }}
      />
      <Button type="submit" variant="contained" size="large" disabled={busy || code.trim() === ''} data-testid="login-code-submit">
        {t('login.submit')}
      </Button>
      <Stack direction="row" justifyContent="space-between">
        <Link component="button" type="button" variant="body2" onClick={onBack} data-testid="login-back">
          {t('common.back')}
        </Link>
        <Link
          component="button"
          type="button"
          variant="body2"
          onClick={() => {
            setRecovery((value) => !value);
            setCode('');
          }}
          data-testid="login-use-recovery"
        >
          {recovery ? t('twoFactor.useApp') : t('twoFactor.useRecovery')}
        </Link>
      </Stack>
    </Stack>
  );
}
