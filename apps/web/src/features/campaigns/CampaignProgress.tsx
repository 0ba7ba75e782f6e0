/**
 * A campaign as it goes, live: the bar, the counts per status, why it waits, its controls, and
 * the table of recipients with their state and error.
 */
import Pause from '@mui/icons-material/Pause';
import PlayArrow from '@mui/icons-material/PlayArrow';
import Replay from '@mui/icons-material/Replay';
import Stop from '@mui/icons-material/Stop';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isErrorCode } from '@zapdesk/shared/errors';
import { phoneReport } from '@zapdesk/shared/vonage';
import { isGroupActionKind, isPhoneKind, type RecipientStatus, type TCampaign } from '@zapdesk/shared/campaigns';
import { formatShortDateTime } from '../../core/ui/formatDate';
import { errorText, toastError } from '../../core/ui/toastError';
import { ApiError } from '../../core/api/ApiError';
import { ConfirmationDialog } from '../../core/ui/ConfirmationDialog';
import { toast } from 'react-toastify';
import { CampaignContent } from './CampaignContent';
import { campaignsKeys, controlCampaign, fetchCampaign, fetchRecipients, type CampaignAction } from './campaigns.api';

/** Statuses in the order they are shown; zero counts are left out. */
const SHOWN: RecipientStatus[] = ['sent', 'queued', 'sending', 'failed', 'unknown', 'notOnWhatsapp', 'notAdmin', 'invalid', 'cancelled', 'skipped'];
const COLORS: Partial<Record<RecipientStatus, 'success' | 'error' | 'warning' | 'default' | 'info'>> = {
  sent: 'success',
  failed: 'error',
  unknown: 'warning',
  notOnWhatsapp: 'warning',
  notAdmin: 'warning',
  invalid: 'warning',
  sending: 'info',
};

/** How far it got: everything but what still waits to go. */
export function doneCount(campaign: TCampaign): number {
  return campaign.total - campaign.counts.queued - campaign.counts.sending;
}

/** A stored error code in the reader's language. */
export function codeText(code: string): string {
  return isErrorCode(code) ? errorText(new ApiError({ status: 400, code, message: code })) : code;
}

/** A recipient's name or number on one line: a long group name ends in … and shows whole on hover, never split mid-word. */
const NAME_CELL = { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', maxWidth: { xs: 160, sm: 280 } } as const;

/**
 * `showContent`: with what the send carries (its text and file), as the history's detail shows it.
 * `onFinished`: called once when the campaign is seen ended (completed or cancelled), even if it already was when shown.
 */
export function CampaignProgress({ initial, showContent = false, onFinished }: { initial: TCampaign; showContent?: boolean; onFinished?: (campaign: TCampaign) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: campaign = initial } = useQuery({ queryKey: campaignsKeys.detail(initial.id), queryFn: () => fetchCampaign(initial.id), initialData: initial });
  const recipients = useInfiniteQuery({
    queryKey: campaignsKeys.recipients(initial.id),
    queryFn: ({ pageParam }) => fetchRecipients(initial.id, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const [busy, setBusy] = useState(false);
  const [confirmStop, setConfirmStop] = useState(false);
  const done = doneCount(campaign);
  const percent = campaign.total === 0 ? 100 : Math.round((done / campaign.total) * 100);
  const rows = recipients.data?.pages.flatMap((page) => page.recipients) ?? [];
  const finished = campaign.status === 'completed' || campaign.status === 'cancelled';
  const reported = useRef(false);
  useEffect(() => {
    if (!finished || reported.current) return;
    reported.current = true;
    onFinished?.(campaign);
  }, [finished, campaign, onFinished]);

  const act = async (action: CampaignAction): Promise<boolean> => {
    setBusy(true);
    try {
      queryClient.setQueryData(campaignsKeys.detail(campaign.id), await controlCampaign(campaign.id, action));
      void queryClient.invalidateQueries({ queryKey: campaignsKeys.recipients(campaign.id) });
      void queryClient.invalidateQueries({ queryKey: ['campaigns', 'list'] });
      return true;
    } catch (caught) {
      toastError(caught);
      return false;
    } finally {
      setBusy(false);
    }
  };

  const canResend = campaign.counts.failed + campaign.counts.unknown > 0;
  const phone = isPhoneKind(campaign.kind);
  // On Instagram a recipient is the username typed (its number is an Instagram id).
  const instagram = campaign.channel === 'instagram';
  // A group action's 'sent' is 'done'; its rows are groups.
  const statusText = (status: RecipientStatus) =>
    status === 'invalid' && campaign.channel === 'instagram' ? t('instaDirect.notSent') : t(`campaigns.recipientStatus.${status === 'sent' && isGroupActionKind(campaign.kind) ? 'done' : status}`);
  return (
    <Stack gap={2} data-testid="campaign-progress" data-status={campaign.status} data-done={done} data-total={campaign.total}>
      <Stack direction={{ xs: 'column', sm: 'row' }} justifyContent="space-between" alignItems={{ sm: 'center' }} gap={1}>
        <Box>
          <Typography variant="subtitle1" fontWeight={700}>
            {isPhoneKind(campaign.kind)
              ? t('campaigns.progress.phoneTitle', { id: campaign.id, kind: t(`campaigns.kinds.${campaign.kind}`), sender: campaign.sender ?? '' })
              : t('campaigns.progress.title', { id: campaign.id, connection: campaign.whatsappName })}
            {campaign.audience === 'numbers' ? '' : ` · ${t(`campaigns.kinds.${campaign.kind}`)}${isGroupActionKind(campaign.kind) ? '' : ` · ${t(`campaigns.audiences.${campaign.audience}`)}`}`}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t(`campaigns.status.${campaign.status}`)}
            {campaign.scheduledAt && campaign.status === 'scheduled' ? ` · ${formatShortDateTime(campaign.scheduledAt)}` : ''}
            {campaign.note ? ` · ${t('campaigns.notes.startedLate')}` : ''}
          </Typography>
        </Box>
        <Stack direction="row" gap={1} flexWrap="wrap">
          {campaign.status === 'running' ? (
            <Button size="small" variant="outlined" startIcon={<Pause />} disabled={busy} onClick={() => void act('pause')} data-testid="campaign-pause">
              {t('campaigns.actions.pause')}
            </Button>
          ) : null}
          {campaign.status === 'paused' ? (
            <Button size="small" variant="outlined" startIcon={<PlayArrow />} disabled={busy} onClick={() => void act('resume')} data-testid="campaign-resume">
              {t('campaigns.actions.resume')}
            </Button>
          ) : null}
          {campaign.status === 'running' || campaign.status === 'paused' || campaign.status === 'scheduled' ? (
            <Button size="small" color="error" variant="contained" disableElevation startIcon={<Stop />} disabled={busy} onClick={() => setConfirmStop(true)} data-testid="campaign-cancel">
              {t(campaign.status === 'scheduled' ? 'toolPages.stop.scheduled' : 'toolPages.stop.button')}
            </Button>
          ) : null}
          {canResend ? (
            <Button size="small" variant="outlined" startIcon={<Replay />} disabled={busy} onClick={() => void act('resend')} data-testid="campaign-resend">
              {t('campaigns.actions.resend')}
            </Button>
          ) : null}
        </Stack>
      </Stack>
      {showContent ? <CampaignContent campaign={campaign} /> : null}
      {campaign.status === 'paused' && campaign.pauseReason ? (
        <Alert severity="warning" data-testid="campaign-pause-reason">
          {campaign.pauseReason === 'user'
            ? t('campaigns.progress.pausedByUser')
            : t(isPhoneKind(campaign.kind) ? 'campaigns.progress.pausedNeedsAction' : 'campaigns.progress.pausedBecause', { reason: codeText(campaign.pauseReason) })}
        </Alert>
      ) : null}
      <Box>
        <LinearProgress variant="determinate" value={percent} sx={{ height: 10, borderRadius: 5 }} data-testid="campaign-bar" aria-valuenow={percent} />
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }} data-testid="campaign-percent">
          {t('campaigns.progress.done', { done, total: campaign.total, percent })}
        </Typography>
      </Box>
      <Stack direction="row" gap={1} flexWrap="wrap" data-testid="campaign-counts">
        {SHOWN.filter((status) => campaign.counts[status] > 0).map((status) => (
          <Chip key={status} size="small" color={COLORS[status] ?? 'default'} label={`${statusText(status)}: ${campaign.counts[status]}`} data-testid={`campaign-count-${status}`} />
        ))}
      </Stack>
      <Box sx={{ overflowX: 'auto', maxHeight: 360, overflowY: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <Table size="small" stickyHeader data-testid="campaign-recipients">
          <TableHead>
            <TableRow>
              <TableCell>{campaign.audience === 'groups' ? t('campaigns.progress.group') : campaign.channel === 'instagram' ? t('instaDirect.user') : t('campaigns.progress.number')}</TableCell>
              <TableCell>{t('campaigns.progress.state')}</TableCell>
              {phone ? <TableCell>{t('campaigns.progress.report')}</TableCell> : null}
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('campaigns.progress.error')}</TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('campaigns.progress.sentAt')}</TableCell>
              {phone ? <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('campaigns.progress.providerId')}</TableCell> : null}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.id} data-testid="campaign-recipient" data-status={row.status}>
                <TableCell sx={NAME_CELL} title={instagram ? row.input : (row.number ?? row.input)} data-testid="campaign-recipient-name">
                  {instagram ? row.input : (row.number ?? row.input)}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{statusText(row.status)}</TableCell>
                {phone ? <TableCell data-testid="campaign-recipient-delivery">{row.delivery ? t(`phone.delivery.${phoneReport(row.delivery)}`) : ''}</TableCell> : null}
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{row.error ? codeText(row.error) : ''}</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{row.sentAt ? formatShortDateTime(row.sentAt) : ''}</TableCell>
                {phone ? (
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' }, fontFamily: 'monospace', fontSize: 12 }} data-testid="campaign-recipient-provider-id">
                    {row.providerId ?? ''}
                  </TableCell>
                ) : null}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      {recipients.hasNextPage ? (
        <Button size="small" onClick={() => void recipients.fetchNextPage()} disabled={recipients.isFetchingNextPage} data-testid="campaign-more-recipients">
          {t('campaigns.progress.more')}
        </Button>
      ) : null}
      <ConfirmationDialog
        open={confirmStop}
        title={t(campaign.status === 'scheduled' ? 'toolPages.stop.scheduledTitle' : 'toolPages.stop.title', { id: campaign.id })}
        confirmLabel={t(campaign.status === 'scheduled' ? 'toolPages.stop.scheduled' : 'toolPages.stop.button')}
        cancelLabel={t(campaign.status === 'scheduled' ? 'toolPages.stop.keepScheduled' : 'toolPages.stop.keep')}
        onClose={() => setConfirmStop(false)}
        onConfirm={async () => {
          if (await act('cancel')) toast.success(t(campaign.status === 'scheduled' ? 'toolPages.stop.scheduledDone' : 'toolPages.stop.done', { id: campaign.id }));
        }}
      >
        {campaign.status === 'scheduled' ? t('toolPages.stop.scheduledText', { count: campaign.total }) : t('toolPages.stop.text', { count: campaign.counts.queued + campaign.counts.sending })}
      </ConfirmationDialog>
    </Stack>
  );
}
