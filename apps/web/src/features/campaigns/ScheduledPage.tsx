/**
 * /ZDGAgendamento: the spec's screen ('Data de Envio', the connection, DISPARAR, the note on the
 * ChatBOT control) said in plain words, the connection picked from a list; then each scheduled
 * send with its message, recipients, time (changeable) and state, cancelled after a confirmation.
 */
import Cancel from '@mui/icons-material/Cancel';
import Save from '@mui/icons-material/Save';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { toast } from 'react-toastify';
import type { TCampaign } from '@zapdesk/shared/campaigns';
import { ConfirmationDialog } from '../../core/ui/ConfirmationDialog';
import { formatShortDateTime } from '../../core/ui/formatDate';
import { PageLayout } from '../../core/ui/PageLayout';
import { toastError } from '../../core/ui/toastError';
import { ConnectionSelect, useChosenConnection } from '../whatsapps/ConnectionSelect';
import { campaignsKeys, controlCampaign, fetchCampaigns, fetchRecipients, sendScheduledOfDay, updateCampaign } from './campaigns.api';
import { CampaignContentLine } from './CampaignContent';

const SHOWN_NUMBERS = 3;
const pad = (n: number) => String(n).padStart(2, '0');
const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};
const localInput = (iso: string) => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/** Who it goes to: how many, and the first few numbers. */
function Recipients({ campaign }: { campaign: TCampaign }) {
  const { t } = useTranslation();
  const first = useQuery({ queryKey: campaignsKeys.recipients(campaign.id), queryFn: () => fetchRecipients(campaign.id, 1) });
  const shown = (first.data?.recipients ?? []).slice(0, SHOWN_NUMBERS).map((r) => r.number ?? r.input);
  const more = campaign.total - shown.length;
  return (
    <Typography variant="body2" sx={{ wordBreak: 'break-word' }} data-testid="scheduled-recipients">
      <strong>{t('toolPages.scheduled.recipientsCount', { count: campaign.total })}</strong>
      {shown.length > 0 ? `: ${shown.join(', ')}${more > 0 ? ` ${t('toolPages.scheduled.more', { count: more })}` : ''}` : ''}
    </Typography>
  );
}

function ScheduledRow({ campaign }: { campaign: TCampaign }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [when, setWhen] = useState(campaign.scheduledAt ? localInput(campaign.scheduledAt) : '');
  const [confirmCancel, setConfirmCancel] = useState(false);
  const editable = campaign.status === 'scheduled';
  const refresh = () => queryClient.invalidateQueries({ queryKey: campaignsKeys.all });

  const save = async () => {
    try {
      await updateCampaign(campaign.id, { scheduledAt: new Date(when).toISOString() });
      toast.success(t('campaigns.scheduled.saved'));
      await refresh();
    } catch (caught) {
      toastError(caught);
    }
  };
  const cancel = async () => {
    try {
      await controlCampaign(campaign.id, 'cancel');
      toast.success(t('toolPages.stop.scheduledDone', { id: campaign.id }));
      await refresh();
    } catch (caught) {
      toastError(caught);
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }} data-testid="scheduled-row" data-id={campaign.id} data-status={campaign.status}>
      <Stack gap={1.25}>
        <Stack direction="row" gap={1} alignItems="center" flexWrap="wrap">
          <Typography variant="subtitle2" fontWeight={700}>
            {t('toolPages.scheduled.rowTitle', { id: campaign.id, kind: t(`campaigns.kinds.${campaign.kind}`), connection: campaign.whatsappName || t(`campaigns.kinds.${campaign.kind}`) })}
          </Typography>
          <Chip size="small" color={editable ? 'info' : 'default'} label={t(`campaigns.status.${campaign.status}`)} data-testid="scheduled-status" />
          {campaign.note ? (
            <Typography variant="caption" color="warning.main">
              {t('campaigns.notes.startedLate')}
            </Typography>
          ) : null}
        </Stack>
        <Stack direction={{ xs: 'column', md: 'row' }} gap={{ xs: 1, md: 3 }}>
          <Stack gap={0.25} sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="caption" color="text.secondary">
              {t('toolPages.scheduled.message')}
            </Typography>
            <CampaignContentLine campaign={campaign} />
          </Stack>
          <Stack gap={0.25} sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="caption" color="text.secondary">
              {t('toolPages.scheduled.recipients')}
            </Typography>
            <Recipients campaign={campaign} />
          </Stack>
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} gap={1.5} alignItems={{ sm: 'center' }}>
          {editable ? (
            <>
              <TextField
                type="datetime-local"
                size="small"
                label={t('campaigns.form.startAt')}
                value={when}
                onChange={(e) => setWhen(e.target.value)}
                slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'scheduled-when' } }}
              />
              <Button size="small" variant="outlined" startIcon={<Save />} onClick={() => void save()} data-testid="scheduled-save">
                {t('campaigns.scheduled.save')}
              </Button>
              <Button size="small" color="error" variant="outlined" startIcon={<Cancel />} onClick={() => setConfirmCancel(true)} sx={{ ml: { sm: 'auto' } }} data-testid="scheduled-cancel">
                {t('toolPages.stop.scheduled')}
              </Button>
            </>
          ) : (
            <Typography variant="body2" color="text.secondary">
              {campaign.scheduledAt ? `${t('campaigns.form.startAt')}: ${formatShortDateTime(campaign.scheduledAt)}` : ''}
            </Typography>
          )}
        </Stack>
      </Stack>
      <ConfirmationDialog
        open={confirmCancel}
        title={t('toolPages.stop.scheduledTitle', { id: campaign.id })}
        confirmLabel={t('toolPages.stop.scheduled')}
        cancelLabel={t('toolPages.stop.keepScheduled')}
        onClose={() => setConfirmCancel(false)}
        onConfirm={cancel}
      >
        {t('toolPages.stop.scheduledText', { count: campaign.total })}
      </ConfirmationDialog>
    </Paper>
  );
}

export default function ScheduledPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [day, setDay] = useState(today);
  const { whatsappId, choose, connections } = useChosenConnection();
  const [error, setError] = useState<string | undefined>(undefined);
  const list = useQuery({ queryKey: campaignsKeys.list({ scheduled: 'true' }), queryFn: () => fetchCampaigns({ scheduled: 'true' }, 1) });

  const fire = async (event: FormEvent) => {
    event.preventDefault();
    if (whatsappId === undefined) {
      setError(t('validation.REQUIRED'));
      return;
    }
    setError(undefined);
    try {
      const { started } = await sendScheduledOfDay(day, whatsappId);
      toast.success(t(started.length === 0 ? 'toolPages.scheduled.noneToStart' : 'campaigns.scheduled.started', { count: started.length }));
      await queryClient.invalidateQueries({ queryKey: campaignsKeys.all });
    } catch (caught) {
      toastError(caught);
    }
  };

  const campaigns = list.data?.campaigns ?? [];
  return (
    <PageLayout title={t('campaigns.scheduled.title')} subtitle={t('toolPages.scheduled.subtitle')} testId="scheduled-page">
      <Stack sx={{ overflowY: 'auto', minHeight: 0, gap: 2, pb: 2, '& > *': { flexShrink: 0 } }}>
        <Alert severity="info" data-testid="scheduled-how">
          <Trans i18nKey="toolPages.scheduled.howTo" components={{ bulk: <Link component={RouterLink} to="/ZDG" /> }} />
        </Alert>
        <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 } }}>
          <Stack component="form" gap={2} onSubmit={(event) => void fire(event)} noValidate>
            <Typography variant="subtitle1" fontWeight={700}>
              {t('toolPages.scheduled.fireTitle')}
            </Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} gap={2} alignItems={{ sm: 'flex-start' }}>
              <TextField
                type="date"
                label={t('campaigns.scheduled.day')}
                value={day}
                onChange={(e) => setDay(e.target.value)}
                slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'scheduled-day' } }}
              />
              <ConnectionSelect whatsappId={whatsappId} connections={connections} onChange={choose} error={error} testId="scheduled-connection" />
              <Button type="submit" variant="contained" sx={{ ml: { sm: 'auto' }, alignSelf: { xs: 'stretch', sm: 'center' } }} data-testid="scheduled-fire">
                {t('campaigns.scheduled.fire')}
              </Button>
            </Stack>
            <Typography variant="body2" color="text.secondary" data-testid="scheduled-fire-help">
              {t('toolPages.scheduled.fireHelp')}
            </Typography>
            <Alert severity="info" icon={false} data-testid="scheduled-chatbot-help">
              <Trans i18nKey="toolPages.scheduled.chatbotHelp" components={{ bot: <Link component={RouterLink} to="/ZDGChatbot" />, strong: <strong /> }} />
            </Alert>
          </Stack>
        </Paper>
        <Typography variant="subtitle1" fontWeight={700}>
          {t('toolPages.scheduled.listTitle')}
        </Typography>
        <Stack gap={1.5} data-testid="scheduled-table">
          {campaigns.map((campaign) => (
            <ScheduledRow key={`${campaign.id}-${campaign.scheduledAt ?? ''}-${campaign.status}`} campaign={campaign} />
          ))}
          {campaigns.length === 0 && !list.isFetching ? (
            <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', py: 4 }}>
              {t('campaigns.scheduled.empty')}
            </Typography>
          ) : null}
        </Stack>
      </Stack>
    </PageLayout>
  );
}
