/**
 * The sign-in of a user who must use two-step verification and has not set it up: the set-up
 * first, then the recovery codes once, then the app.
 */
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TLoginWithRecoveryCodes } from '@zapdesk/shared/two-factor';
import type { TLoginResponse } from '@zapdesk/shared/schemas';
import { CenteredLoader } from '../../core/ui/CenteredLoader';
import { toastError } from '../../core/ui/toastError';
import { RecoveryCodesPanel } from './RecoveryCodesPanel';
import { TwoFactorSetupPanel } from './TwoFactorSetupPanel';
import { loginEnable, loginSetup } from './twoFactor.api';

type Props = { challenge: string; onSession: (session: TLoginResponse) => void; onBack: () => void };

export function LoginSetupStep({ challenge, onSession, onBack }: Props) {
  const { t } = useTranslation();
  const setup = useQuery({
    queryKey: ['auth', 'login-setup', challenge],
    queryFn: () => loginSetup(challenge),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const [done, setDone] = useState<TLoginWithRecoveryCodes | null>(null);

  if (done) {
    return (
      <Stack gap={2}>
        <Typography variant="body2">{t('twoFactor.enabled')}</Typography>
        <RecoveryCodesPanel codes={done.recoveryCodes} />
        <Button
          variant="contained"
          size="large"
          onClick={() => onSession({ token: done.token, user: done.user, passwordChangeRequired: done.passwordChangeRequired, permissions: done.permissions })}
          data-testid="login-setup-continue"
        >
          {t('twoFactor.continue')}
        </Button>
      </Stack>
    );
  }

  return (
    <Stack gap={2}>
      <Typography variant="body2">{t('twoFactor.requiredIntro')}</Typography>
      {setup.data ? (
        <TwoFactorSetupPanel
          setup={setup.data}
          submitLabel={t('twoFactor.turnOn')}
          onCode={async (code) => {
            try {
              setDone(await loginEnable(challenge, code));
            } catch (error) {
              toastError(error);
            }
          }}
        />
      ) : setup.isError ? (
        <Typography color="error">{t('twoFactor.challengeGone')}</Typography>
      ) : (
        <CenteredLoader />
      )}
      <Link component="button" type="button" variant="body2" onClick={onBack} data-testid="login-back">
        {t('common.back')}
      </Link>
    </Stack>
  );
}
