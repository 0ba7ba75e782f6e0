import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { toast } from 'react-toastify';
import { ZLoginSchema, type TLoginResponse, type TPublicSettings } from '@zapdesk/shared/schemas';
import { request } from '../../core/api/client';
import { useAuth } from '../../core/auth/AuthProvider';
import { fieldErrorText } from '../../core/forms/fieldErrors';
import { muiRegister } from '../../core/ui/muiRegister';
import { PasswordField } from '../../core/ui/PasswordField';
import { toastError } from '../../core/ui/toastError';
import { AuthLayout } from './AuthLayout';
import { LoginSetupStep } from './LoginSetupStep';
import { SecondFactorStep } from './SecondFactorStep';

/** After the password: nothing more, a code owed, or the set-up of two-step verification owed. */
type Step = { kind: 'password' } | { kind: 'code'; challenge: string } | { kind: 'setup'; challenge: string };

export default function LoginPage() {
  const { t } = useTranslation();
  const { login, startSession } = useAuth();
  const [step, setStep] = useState<Step>({ kind: 'password' });
  const form = useForm({ resolver: zodResolver(ZLoginSchema), defaultValues: { email: '', password: '' } });
  const { errors, isSubmitting } = form.formState;
  // The sign-up link only while sign-up is on (an admin's setting), asked before anyone signs in.
  const publicSettings = useQuery({ queryKey: ['publicSettings'], queryFn: () => request<TPublicSettings>('/public-settings', { sessionless: true }) });

  const signedIn = () => {
    // A failed attempt's error is about an attempt that no longer matters.
    toast.dismiss();
    toast.success(t('login.success'));
  };

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await login(values);
      if ('twoFactorRequired' in answer) setStep({ kind: 'code', challenge: answer.challenge });
      else if ('twoFactorSetupRequired' in answer) setStep({ kind: 'setup', challenge: answer.challenge });
      else signedIn();
    } catch (error) {
      toastError(error);
    }
  });

  const onSession = (session: TLoginResponse) => {
    startSession(session);
    signedIn();
  };
  const back = () => {
    form.setValue('password', '');
    setStep({ kind: 'password' });
  };

  if (step.kind === 'code') {
    return (
      <AuthLayout title={t('twoFactor.title')} subtitle={t('twoFactor.loginSubtitle')} testId="login-page">
        <SecondFactorStep challenge={step.challenge} onSession={onSession} onBack={back} />
      </AuthLayout>
    );
  }
  if (step.kind === 'setup') {
    return (
      <AuthLayout title={t('twoFactor.title')} subtitle={t('twoFactor.setupSubtitle')} testId="login-page">
        <LoginSetupStep challenge={step.challenge} onSession={onSession} onBack={back} />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('login.title')} subtitle={t('login.subtitle')} testId="login-page">
      <Stack component="form" noValidate onSubmit={onSubmit} gap={2}>
        <TextField
          {...muiRegister(form.register('email'))}
          label={t('login.email')}
          type="email"
          autoComplete="email"
          autoFocus
          fullWidth
          error={Boolean(errors.email)}
          helperText={fieldErrorText(errors.email)}
          slotProps={{ htmlInput: { 'data-testid': 'login-email' } }}
        />
        <PasswordField
          {...muiRegister(form.register('password'))}
          label={t('login.password')}
          autoComplete="current-password"
          fullWidth
          error={Boolean(errors.password)}
          helperText={fieldErrorText(errors.password)}
          slotProps={{ htmlInput: { 'data-testid': 'login-password' } }}
        />
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting} data-testid="login-submit">
          {t('login.submit')}
        </Button>
        {publicSettings.data?.signupEnabled ? (
          <Link component={RouterLink} to="/signup" variant="body2" textAlign="center" data-testid="link-signup">
            {t('login.noAccount')}
          </Link>
        ) : null}
      </Stack>
    </AuthLayout>
  );
}
