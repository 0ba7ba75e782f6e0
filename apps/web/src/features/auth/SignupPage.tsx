import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { LIMITS } from '@zapdesk/shared/domain';
import type { ErrorCode } from '@zapdesk/shared/errors';
import { ZSignupSchema, type TUser } from '@zapdesk/shared/schemas';
import { ApiError } from '../../core/api/ApiError';
import { request } from '../../core/api/client';
import { applyServerFieldErrors, delay, fieldErrorText, passwordErrorText } from '../../core/forms/fieldErrors';
import { muiRegister } from '../../core/ui/muiRegister';
import { PasswordField } from '../../core/ui/PasswordField';
import { errorText } from '../../core/ui/toastError';
import { AuthLayout } from './AuthLayout';

/** Failures whose own text says more than the generic 'check the reported data'. */
const SPECIFIC_FAILURES: ReadonlySet<ErrorCode> = new Set(['ERR_USER_CREATION_DISABLED', 'ERR_EMAIL_ALREADY_EXISTS', 'ERR_TOO_MANY_REQUESTS', 'ERR_PASSWORD_TOO_COMMON']);

export default function SignupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useForm({ resolver: zodResolver(ZSignupSchema), defaultValues: { name: '', email: '', password: '' } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    await delay(LIMITS.submitDelayMs);
    try {
      await request<TUser>('/auth/signup', { method: 'POST', body: values, sessionless: true });
      toast.success(t('signup.success'));
      await navigate('/login');
    } catch (error) {
      applyServerFieldErrors(error, form.setError, ['name', 'email', 'password']);
      const specific = error instanceof ApiError && error.code !== undefined && SPECIFIC_FAILURES.has(error.code);
      toast.error(specific ? errorText(error) : t('signup.error'));
    }
  });

  return (
    <AuthLayout title={t('signup.title')} subtitle={t('signup.subtitle')} testId="signup-page">
      <Stack component="form" noValidate onSubmit={onSubmit} gap={2}>
        <TextField
          {...muiRegister(form.register('name'))}
          label={t('signup.name')}
          autoComplete="name"
          autoFocus
          fullWidth
          error={Boolean(errors.name)}
          helperText={fieldErrorText(errors.name)}
          slotProps={{ htmlInput: { 'data-testid': 'signup-name' } }}
        />
        <TextField
          {...muiRegister(form.register('email'))}
          label={t('signup.email')}
          type="email"
          autoComplete="email"
          fullWidth
          error={Boolean(errors.email)}
          helperText={fieldErrorText(errors.email)}
          slotProps={{ htmlInput: { 'data-testid': 'signup-email' } }}
        />
        <PasswordField
          {...muiRegister(form.register('password'))}
          label={t('signup.password')}
          autoComplete="new-password"
          fullWidth
          error={Boolean(errors.password)}
          helperText={passwordErrorText(errors.password) ?? t('passwordRules.hint')}
          slotProps={{ htmlInput: { 'data-testid': 'signup-password' } }}
        />
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting} data-testid="signup-submit">
          {t('signup.submit')}
        </Button>
        <Link component={RouterLink} to="/login" variant="body2" textAlign="center" data-testid="link-login">
          {t('signup.haveAccount')}
        </Link>
      </Stack>
    </AuthLayout>
  );
}
