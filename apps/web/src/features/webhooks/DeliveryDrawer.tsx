/** A delivery's detail, beside the list: its facts, the body sent (pretty JSON) and the answer received, and 'Reenviar'. */
import Close from '@mui/icons-material/Close';
import ContentCopy from '@mui/icons-material/ContentCopy';
import ReplayOutlined from '@mui/icons-material/ReplayOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { TWebhookDeliveryDetail } from '@zapdesk/shared/webhooks';
import { toastError } from '../../core/ui/toastError';
import { copyText } from '../settings/SettingControls';
import { DeliveryStatusChip } from './DeliveryStatusChip';
import { useResend } from './useResend';
import { useDelivery } from './webhooks.api';
import { answerText, dateTimeText, durationText, eventName, failureText } from './webhookText';

/** JSON laid out to read; anything else as it came. */
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

type Props = { webhookId: number; deliveryId: string | null; onClose: () => void };

export function DeliveryDrawer({ webhookId, deliveryId, onClose }: Props) {
  const { t } = useTranslation();
  const detail = useDelivery(webhookId, deliveryId);
  const { resend, resending } = useResend(webhookId);
  const delivery = detail.data;
  return (
    <Drawer anchor="right" open={deliveryId !== null} onClose={onClose} sx={{ zIndex: (theme) => theme.zIndex.modal }} slotProps={{ paper: { sx: { width: { xs: '100%', sm: 560 } } } }}>
      <Box data-testid="delivery-drawer" sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, height: '100%' }}>
        <Stack direction="row" alignItems="center" gap={1} sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }}>
          <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
            {t('webhooks.detail.title')}
          </Typography>
          <IconButton onClick={onClose} aria-label={t('common.close')} data-testid="delivery-drawer-close">
            <Close />
          </IconButton>
        </Stack>
        {!delivery || delivery.id !== deliveryId ? (
          <Stack gap={1} sx={{ p: 2 }}>
            <Skeleton variant="text" width="60%" />
            <Skeleton variant="rectangular" height={160} />
          </Stack>
        ) : (
          <Stack gap={2.5} sx={{ p: 2, overflowY: 'auto' }}>
            <Stack direction="row" alignItems="center" gap={1} flexWrap="wrap">
              <DeliveryStatusChip status={delivery.status} />
              <Typography variant="subtitle1" fontWeight={600} sx={{ flex: 1 }} data-testid="delivery-drawer-event">
                {eventName(delivery.event)}
              </Typography>
              <Button
                variant="outlined"
                size="small"
                startIcon={resending === delivery.id ? <CircularProgress size={16} /> : <ReplayOutlined />}
                disabled={resending === delivery.id}
                onClick={() => void resend(delivery)}
                data-testid="delivery-drawer-resend"
              >
                {t('webhooks.list.resend')}
              </Button>
            </Stack>
            <Facts delivery={delivery} />
            <Code title={t('webhooks.detail.body')} text={pretty(delivery.body)} testId="delivery-body" copyLabel={t('webhooks.detail.copyBody')} />
            {delivery.responseBody ? (
              <Code title={t('webhooks.detail.response')} text={pretty(delivery.responseBody)} testId="delivery-response" />
            ) : (
              <Box>
                <Typography variant="subtitle2">{t('webhooks.detail.response')}</Typography>
                <Typography variant="body2" color="text.secondary" data-testid="delivery-response">
                  {delivery.attempts > 0 ? t('webhooks.detail.noResponse') : t('webhooks.list.noAnswer')}
                </Typography>
              </Box>
            )}
          </Stack>
        )}
      </Box>
    </Drawer>
  );
}

function Facts({ delivery }: { delivery: TWebhookDeliveryDetail }) {
  const { t } = useTranslation();
  // Without an HTTP answer, the answer line already says why; a redirect's reason is worth a line of its own.
  const error = delivery.error && delivery.responseStatus !== null && !/^HTTP \d+$/.test(delivery.error) ? failureText(delivery) : '';
  const facts: [string, ReactNode][] = [
    [t('webhooks.list.answer'), answerText(delivery)],
    ...(error ? [[t('webhooks.detail.error'), error] as [string, ReactNode]] : []),
    [t('webhooks.list.attempts'), delivery.attempts],
    [t('webhooks.list.duration'), durationText(delivery.durationMs)],
    [t('webhooks.list.createdAt'), dateTimeText(delivery.createdAt)],
    [t('webhooks.detail.lastAttempt'), dateTimeText(delivery.lastAttemptAt)],
    ...(delivery.status === 'pending' ? [[t('webhooks.list.next'), dateTimeText(delivery.nextAttemptAt)] as [string, ReactNode]] : []),
    ...(delivery.deliveredAt ? [[t('webhooks.detail.deliveredAt'), dateTimeText(delivery.deliveredAt)] as [string, ReactNode]] : []),
    [
      t('webhooks.detail.id'),
      <Box component="span" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
        {delivery.id}
      </Box>,
    ],
  ];
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.75, m: 0 }} data-testid="delivery-facts">
      {facts.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, fontVariantNumeric: 'tabular-nums' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function Code({ title, text, testId, copyLabel }: { title: string; text: string; testId: string; copyLabel?: string }) {
  const { t } = useTranslation();
  return (
    <Box>
      <Stack direction="row" alignItems="center" justifyContent="space-between">
        <Typography variant="subtitle2">{title}</Typography>
        {copyLabel ? (
          <Tooltip title={copyLabel}>
            <IconButton size="small" aria-label={copyLabel} onClick={() => void copyText(text).then(() => toast.info(t('common.copied')), toastError)} data-testid={`${testId}-copy`}>
              <ContentCopy fontSize="small" />
            </IconButton>
          </Tooltip>
        ) : null}
      </Stack>
      <Box
        component="pre"
        data-testid={testId}
        sx={{ m: 0, mt: 0.5, p: 1.5, bgcolor: 'action.hover', borderRadius: 1, fontSize: 12.5, lineHeight: 1.5, overflow: 'auto', maxHeight: 360, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
      >
        {text}
      </Box>
    </Box>
  );
}
