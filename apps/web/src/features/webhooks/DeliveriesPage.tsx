/**
 * /webhooks/:webhookId (admins): one webhook's deliveries, newest first — status, event, attempts,
 * the answer, how long it took, when, and the next attempt of a pending one — filtered by status,
 * read again every few seconds, with 'Reenviar' showing its result at once and a detail drawer.
 */
import ArrowBack from '@mui/icons-material/ArrowBack';
import Refresh from '@mui/icons-material/Refresh';
import ReplayOutlined from '@mui/icons-material/ReplayOutlined';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { WEBHOOK_DELIVERY_STATUSES, type WebhookDeliveryStatus } from '@zapdesk/shared/webhooks';
import { PageLayout } from '../../core/ui/PageLayout';
import { TableRowsSkeleton } from '../../core/ui/TableStates';
import { DeliveryDrawer } from './DeliveryDrawer';
import { DeliveryStatusChip } from './DeliveryStatusChip';
import { useResend } from './useResend';
import { useDeliveries, useWebhooks } from './webhooks.api';
import { answerText, dateTimeText, durationText, eventName } from './webhookText';

const COLUMNS = 8;
const HIDE_ON_PHONE = { display: { xs: 'none', sm: 'table-cell' } } as const;
const WIDE_ONLY = { display: { xs: 'none', md: 'table-cell' } } as const;

export default function DeliveriesPage() {
  const { t } = useTranslation();
  const webhookId = Number(useParams().webhookId);
  const webhooks = useWebhooks();
  const webhook = webhooks.data?.find((row) => row.id === webhookId);
  const [status, setStatus] = useState<WebhookDeliveryStatus | ''>('');
  const [open, setOpen] = useState<string | null>(null);
  const list = useDeliveries(webhookId, status);
  const { resend, resending } = useResend(webhookId);
  const rows = list.data?.pages.flatMap((page) => page.deliveries) ?? [];
  const gone = webhooks.isSuccess && !webhook;

  const back = (
    <Button component={RouterLink} to="/webhooks" startIcon={<ArrowBack />} color="inherit" data-testid="deliveries-back">
      {t('webhooks.list.back')}
    </Button>
  );
  return (
    <PageLayout
      title={t('webhooks.list.title')}
      subtitle={
        <Typography component="span" variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }} data-testid="deliveries-address">
          {webhook?.url ?? ''}
        </Typography>
      }
      testId="deliveries-page"
      actions={back}
    >
      {gone ? (
        <Typography color="text.secondary" data-testid="deliveries-gone">
          {t('webhooks.list.notFound')}
        </Typography>
      ) : (
        <Stack sx={{ overflowY: 'auto', minHeight: 0, gap: 2, pb: 2, '& > *': { flexShrink: 0 } }}>
          <Stack direction="row" gap={1} alignItems="center" sx={{ pt: 1 }}>
            <TextField
              select
              size="small"
              label={t('webhooks.list.filter')}
              value={status}
              onChange={(event) => setStatus(WEBHOOK_DELIVERY_STATUSES.find((s) => s === event.target.value) ?? '')}
              sx={{ minWidth: 180 }}
              data-testid="deliveries-filter"
              slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
            >
              <MenuItem value="">{t('webhooks.list.all')}</MenuItem>
              {WEBHOOK_DELIVERY_STATUSES.map((s) => (
                <MenuItem key={s} value={s}>
                  {t(`webhooks.list.status.${s}`)}
                </MenuItem>
              ))}
            </TextField>
            <Tooltip title={t('webhooks.list.refresh')}>
              <span>
                <IconButton onClick={() => void list.refetch()} disabled={list.isFetching} aria-label={t('webhooks.list.refresh')} data-testid="deliveries-refresh">
                  {list.isFetching && !list.isFetchingNextPage ? <CircularProgress size={20} /> : <Refresh />}
                </IconButton>
              </span>
            </Tooltip>
          </Stack>
          <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
            <Table size="small" data-testid="deliveries-table">
              <TableHead>
                <TableRow>
                  <TableCell>{t('webhooks.list.filter')}</TableCell>
                  <TableCell>{t('webhooks.list.event')}</TableCell>
                  <TableCell sx={WIDE_ONLY}>{t('webhooks.list.attempts')}</TableCell>
                  <TableCell sx={HIDE_ON_PHONE}>{t('webhooks.list.answer')}</TableCell>
                  <TableCell sx={WIDE_ONLY}>{t('webhooks.list.duration')}</TableCell>
                  <TableCell sx={HIDE_ON_PHONE}>{t('webhooks.list.createdAt')}</TableCell>
                  <TableCell sx={WIDE_ONLY}>{t('webhooks.list.next')}</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((delivery) => (
                  <TableRow
                    key={delivery.id}
                    hover
                    onClick={() => setOpen(delivery.id)}
                    sx={{ cursor: 'pointer' }}
                    data-testid="delivery-row"
                    data-status={delivery.status}
                    data-event={delivery.event}
                  >
                    <TableCell>
                      <DeliveryStatusChip status={delivery.status} />
                    </TableCell>
                    <TableCell>
                      <Typography variant="body2">{eventName(delivery.event)}</Typography>
                      {/* On a phone the answer and the time go under the event. */}
                      <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
                        {answerText(delivery)} · {dateTimeText(delivery.createdAt)}
                      </Typography>
                    </TableCell>
                    <TableCell sx={{ ...WIDE_ONLY, fontVariantNumeric: 'tabular-nums' }} data-testid="delivery-attempts">
                      {delivery.attempts}
                    </TableCell>
                    <TableCell sx={HIDE_ON_PHONE} data-testid="delivery-answer">
                      {answerText(delivery)}
                    </TableCell>
                    <TableCell sx={{ ...WIDE_ONLY, whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>{durationText(delivery.durationMs)}</TableCell>
                    <TableCell sx={{ ...HIDE_ON_PHONE, whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>{dateTimeText(delivery.createdAt)}</TableCell>
                    <TableCell sx={{ ...WIDE_ONLY, whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>{delivery.status === 'pending' ? dateTimeText(delivery.nextAttemptAt) : '—'}</TableCell>
                    <TableCell align="right" onClick={(event) => event.stopPropagation()}>
                      <Tooltip title={t('webhooks.list.resend')}>
                        <span>
                          <IconButton size="small" onClick={() => void resend(delivery)} disabled={resending === delivery.id} aria-label={t('webhooks.list.resend')} data-testid="delivery-resend">
                            {resending === delivery.id ? <CircularProgress size={18} /> : <ReplayOutlined fontSize="small" />}
                          </IconButton>
                        </span>
                      </Tooltip>
                    </TableCell>
                  </TableRow>
                ))}
                {list.isPending ? <TableRowsSkeleton columns={COLUMNS} /> : null}
                {!list.isPending && rows.length === 0 ? (
                  <TableRow data-testid="deliveries-empty">
                    <TableCell colSpan={COLUMNS} sx={{ textAlign: 'center', color: 'text.secondary', py: 4 }}>
                      {status ? t('webhooks.list.emptyFiltered') : t('webhooks.list.empty')}
                    </TableCell>
                  </TableRow>
                ) : null}
              </TableBody>
            </Table>
          </Paper>
          {list.hasNextPage ? (
            <Button onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage} data-testid="deliveries-more">
              {t('webhooks.list.loadMore')}
            </Button>
          ) : null}
        </Stack>
      )}
      <DeliveryDrawer webhookId={webhookId} deliveryId={open} onClose={() => setOpen(null)} />
    </PageLayout>
  );
}
