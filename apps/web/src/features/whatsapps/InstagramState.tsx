/** Under an Instagram connection's name: whether the Graph API took its token, and whether Meta verified the webhook (with its address when not). */
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TInstagramState } from '@zapdesk/shared/instagram';
import { formatShortDateTime } from '../../core/ui/formatDate';

export function InstagramState({ state }: { state: TInstagramState }) {
  const { t } = useTranslation();
  const token =
    state.tokenValid === true
      ? t('connections.instagram.tokenValid', { username: state.username ?? '' })
      : state.tokenValid === false
        ? t('connections.instagram.tokenRefused')
        : t('connections.instagram.tokenUnknown');
  const webhook = state.webhookVerifiedAt
    ? `${t('connections.instagram.webhookVerified')} · ${formatShortDateTime(state.webhookVerifiedAt)}`
    : t('connections.instagram.webhookPending', { url: `${window.location.origin}/api/webhooks/instagram` });
  return (
    <Typography variant="caption" component="div" color={state.tokenValid === false ? 'error' : 'text.secondary'} sx={{ wordBreak: 'break-all' }} data-testid="connection-instagram-state">
      {token} · {webhook}
    </Typography>
  );
}
