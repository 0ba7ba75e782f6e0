import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { toast } from 'react-toastify';
import { ZLoginSchema } from '@zapdesk/shared/schemas';
import { useAuth } from '../../core/auth/AuthProvider';
import { fieldErrorText } from '../../core/forms/fieldErrors';
import { muiRegister } from '../../core/ui/muiRegister';
import { PasswordField } from '../../core/ui/PasswordField';
import { toastError } from '../../core/ui/toastError';
import { AuthLayout } from './AuthLayout';

export default function LoginPage() {
  const { t } = useTranslation();
  const { login } = useAuth();
  const form = useForm({ resolver: zodResolver(ZLoginSchema), defaultValues: { email: '', password: '' } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await login(values);
      // A failed attempt's error is about an attempt that no longer matters.
      toast.dismiss();
      toast.success(t('login.success'));
    } catch (error) {
      toastError(error);
    }
  });

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
        <Link component={RouterLink} to="/signup" variant="body2" textAlign="center" data-testid="link-signup">
          {t('login.noAccount')}
        </Link>
      </Stack>
    </AuthLayout>
  );
}
