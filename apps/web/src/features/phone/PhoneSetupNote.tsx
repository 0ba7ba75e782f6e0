/**
 * Said up front on /SMS and /VoiceCall: what must be configured for a send to go, and where
 * (Configurações → Vonage, linked for those who may change the settings). Someone who may read
 * the settings also sees whether it is done yet.
 */
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { Trans, useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useAuth } from '../../core/auth/AuthProvider';
import { useSettings } from '../settings/settings.api';

const NEEDED = { sms: ['vonageApiKey', 'vonageApiSecret'], call: ['vonageApiKey', 'vonageApiSecret', 'vonageApiId', 'vonagePrivateKey'] } as const;

export function PhoneSetupNote({ kind }: { kind: 'sms' | 'call' }) {
  const { t } = useTranslation();
  const { can } = useAuth();
  const mayConfigure = can('settings');
  const settings = useSettings(mayConfigure);
  const byKey = new Map((settings.data ?? []).map((s) => [s.key, s]));
  const missing = settings.data ? NEEDED[kind].filter((key) => !byKey.get(key)?.isSet && !byKey.get(key)?.value) : [];
  const where = mayConfigure ? <Link component={RouterLink} to="/settings#vonage" data-testid="phone-setup-link" /> : <strong />;
  return (
    <Alert severity={missing.length > 0 ? 'warning' : 'info'} data-testid="phone-setup" data-configured={settings.data ? String(missing.length === 0) : 'unknown'}>
      {missing.length > 0 ? `${t('toolPages.phone.notConfigured')} ` : ''}
      <Trans i18nKey={kind === 'sms' ? 'toolPages.phone.setupSms' : 'toolPages.phone.setupCall'} components={{ where }} />
      {mayConfigure ? '' : ` ${t('toolPages.phone.askAdmin')}`}
    </Alert>
  );
}
