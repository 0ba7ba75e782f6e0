/**
 * An Instagram connection's account and secrets in the connection form. The secrets are
 * write-only: once saved they are never shown, and a field left empty keeps the stored value.
 * Meta's webhook address is shown beside the verify token, ready to copy.
 */
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TInstagramConfigInput } from '@zapdesk/shared/instagram';
import { PasswordField } from '../../core/ui/PasswordField';
import { WebhookAddress } from '../instagram/InstagramSetup';

export type InstagramValues = { accountId: string; accessToken: string; appSecret: string; verifyToken: string };
export const EMPTY_INSTAGRAM: InstagramValues = { accountId: '', accessToken: '', appSecret: '', verifyToken: '' };

/** What the form sends: the secrets only when typed. */
export function instagramInput(values: InstagramValues): TInstagramConfigInput {
  return {
    accountId: values.accountId.trim(),
    ...(values.accessToken.trim() ? { accessToken: values.accessToken.trim() } : {}),
    ...(values.appSecret.trim() ? { appSecret: values.appSecret.trim() } : {}),
    ...(values.verifyToken.trim() ? { verifyToken: values.verifyToken.trim() } : {}),
  };
}

type Props = { values: InstagramValues; onChange: (values: InstagramValues) => void; errors: Partial<Record<keyof InstagramValues, string>>; saved: boolean };

export function InstagramFields({ values, onChange, errors, saved }: Props) {
  const { t } = useTranslation();
  const secretHelp = (field: keyof InstagramValues, help: string) => errors[field] ?? (saved ? t('connectionModal.instagram.keep') : help);
  const set = (field: keyof InstagramValues) => (event: { target: { value: string } }) => onChange({ ...values, [field]: event.target.value });
  return (
    <Stack gap={2} data-testid="connection-instagram">
      <Typography variant="body2" color="text.secondary">
        {t('connectionModal.instagram.intro')}
      </Typography>
      <TextField
        label={t('connectionModal.instagram.accountId')}
        value={values.accountId}
        onChange={set('accountId')}
        error={Boolean(errors.accountId)}
        helperText={errors.accountId ?? t('connectionModal.instagram.accountIdHelp')}
        slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'connection-ig-account' } }}
      />
      <PasswordField
        label={t('connectionModal.instagram.accessToken')}
        value={values.accessToken}
        onChange={set('accessToken')}
        autoComplete="new-password"
        error={Boolean(errors.accessToken)}
        helperText={secretHelp('accessToken', t('connectionModal.instagram.accessTokenHelp'))}
        slotProps={{ htmlInput: { 'data-testid': 'connection-ig-token' } }}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} gap={2}>
        <PasswordField
          label={t('connectionModal.instagram.appSecret')}
          value={values.appSecret}
          onChange={set('appSecret')}
          autoComplete="new-password"
          error={Boolean(errors.appSecret)}
          helperText={secretHelp('appSecret', t('connectionModal.instagram.appSecretHelp'))}
          fullWidth
          slotProps={{ htmlInput: { 'data-testid': 'connection-ig-app-secret' } }}
        />
        <PasswordField
          label={t('connectionModal.instagram.verifyToken')}
          value={values.verifyToken}
          onChange={set('verifyToken')}
          autoComplete="new-password"
          error={Boolean(errors.verifyToken)}
          helperText={secretHelp('verifyToken', t('connectionModal.instagram.verifyTokenHelp'))}
          fullWidth
          slotProps={{ htmlInput: { 'data-testid': 'connection-ig-verify-token' } }}
        />
      </Stack>
      <WebhookAddress />
    </Stack>
  );
}
