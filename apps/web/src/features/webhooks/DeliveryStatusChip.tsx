import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { WebhookDeliveryStatus } from '@zapdesk/shared/webhooks';

const COLORS: Record<WebhookDeliveryStatus, 'warning' | 'success' | 'error'> = { pending: 'warning', delivered: 'success', failed: 'error' };

/** Pendente, Entregue or Falhou. */
export function DeliveryStatusChip({ status }: { status: WebhookDeliveryStatus }) {
  const { t } = useTranslation();
  return <Chip size="small" color={COLORS[status]} variant={status === 'pending' ? 'outlined' : 'filled'} label={t(`webhooks.list.status.${status}`)} data-testid="delivery-status" />;
}
