/**
 * /ZDGAgendamento: the spec's screen ('Data de Envio', 'ID de Disparo', 'Mostrar ID de Disparo',
 * DISPARAR), then the scheduled campaigns (change the time, cancel) and those that ran.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
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
import Cancel from '@mui/icons-material/Cancel';
import Save from '@mui/icons-material/Save';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { TCampaign } from '@zapdesk/shared/campaigns';
import { formatShortDateTime } from '../../core/ui/formatDate';
import { PageLayout } from '../../core/ui/PageLayout';
import { toastError } from '../../core/ui/toastError';
import { campaignsKeys, controlCampaign, fetchCampaigns, fetchConnectedIds, sendScheduledOfDay, updateCampaign } from './campaigns.api';

const pad = (n: number) => String(n).padStart(2, '0');
const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};
const localInput = (iso: string) => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

function ScheduledRow({ campaign }: { campaign: TCampaign }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [when, setWhen] = useState(campaign.scheduledAt ? localInput(campaign.scheduledAt) : '');
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
      await refresh();
    } catch (caught) {
      toastError(caught);
    }
  };

  return (
    <TableRow data-testid="scheduled-row" data-id={campaign.id} data-status={campaign.status}>
      <TableCell>{campaign.id}</TableCell>
      <TableCell>{t(`campaigns.kinds.${campaign.kind}`)}</TableCell>
      <TableCell>{campaign.whatsappName || t(`campaigns.kinds.${campaign.kind}`)}</TableCell>
      <TableCell>{campaign.total}</TableCell>
      <TableCell>
        {editable ? (
          <TextField type="datetime-local" size="small" value={when} onChange={(e) => setWhen(e.target.value)} slotProps={{ htmlInput: { 'aria-label': t('campaigns.form.startAt') } }} />
        ) : campaign.scheduledAt ? (
          formatShortDateTime(campaign.scheduledAt)
        ) : (
          ''
        )}
      </TableCell>
      <TableCell>
        <Chip size="small" label={t(`campaigns.status.${campaign.status}`)} />
        {campaign.note ? (
          <Typography variant="caption" display="block" color="warning.main">
            {t('campaigns.notes.startedLate')}
          </Typography>
        ) : null}
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        {editable ? (
          <>
            <Tooltip title={t('campaigns.scheduled.save')}>
              <IconButton size="small" onClick={() => void save()} aria-label={t('campaigns.scheduled.save')}>
                <Save fontSize="small" />
              </IconButton>
            </Tooltip>
            <Tooltip title={t('campaigns.actions.cancel')}>
              <IconButton size="small" color="error" onClick={() => void cancel()} aria-label={t('campaigns.actions.cancel')}>
                <Cancel fontSize="small" />
              </IconButton>
            </Tooltip>
          </>
        ) : null}
      </TableCell>
    </TableRow>
  );
}

export default function ScheduledPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [day, setDay] = useState(today);
  const [connectionId, setConnectionId] = useState('');
  const [shownIds, setShownIds] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const list = useQuery({ queryKey: campaignsKeys.list({ scheduled: 'true' }), queryFn: () => fetchCampaigns({ scheduled: 'true' }, 1) });

  const showIds = async () => {
    try {
      const { connections } = await fetchConnectedIds();
      setShownIds(connections.length ? connections.map((c) => `${c.id} (${c.name})`).join(', ') : t('campaigns.scheduled.noneConnected'));
    } catch (caught) {
      toastError(caught);
    }
  };

  const fire = async (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d+$/.test(connectionId.trim())) {
      setError(t('validation.REQUIRED'));
      return;
    }
    setError(undefined);
    try {
      const { started } = await sendScheduledOfDay(day, Number(connectionId.trim()));
      toast.success(t('campaigns.scheduled.started', { count: started.length }));
      await queryClient.invalidateQueries({ queryKey: campaignsKeys.all });
    } catch (caught) {
      toastError(caught);
    }
  };

  const campaigns = list.data?.campaigns ?? [];
  return (
    <PageLayout title={t('campaigns.scheduled.title')} testId="scheduled-page">
      <Stack sx={{ overflowY: 'auto', minHeight: 0, gap: 2, pb: 2, '& > *': { flexShrink: 0 } }}>
        <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 } }}>
          <Stack component="form" gap={2} onSubmit={(event) => void fire(event)} noValidate>
            <Stack direction={{ xs: 'column', sm: 'row' }} gap={2}>
              <TextField
                type="date"
                label={t('campaigns.scheduled.day')}
                value={day}
                onChange={(e) => setDay(e.target.value)}
                slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'scheduled-day' } }}
              />
              <TextField
                label={t('campaigns.scheduled.connectionId')}
                value={connectionId}
                onChange={(e) => setConnectionId(e.target.value)}
                required
                error={Boolean(error)}
                helperText={error}
                slotProps={{ htmlInput: { 'data-testid': 'scheduled-connection-id' } }}
              />
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} gap={1.5} alignItems={{ sm: 'center' }}>
              <Button variant="outlined" onClick={() => void showIds()} data-testid="scheduled-show-ids">
                {t('campaigns.scheduled.showIds')}
              </Button>
              {shownIds ? (
                <Typography variant="body2" data-testid="scheduled-ids">
                  {shownIds}
                </Typography>
              ) : null}
              <Button type="submit" variant="contained" sx={{ ml: { sm: 'auto' } }} data-testid="scheduled-fire">
                {t('campaigns.scheduled.fire')}
              </Button>
            </Stack>
            <Alert severity="info">{t('campaigns.scheduled.note')}</Alert>
          </Stack>
        </Paper>
        <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
          <Table size="small" data-testid="scheduled-table">
            <TableHead>
              <TableRow>
                <TableCell>#</TableCell>
                <TableCell>{t('campaigns.history.kind')}</TableCell>
                <TableCell>{t('campaigns.form.connection')}</TableCell>
                <TableCell>{t('campaigns.scheduled.numbers')}</TableCell>
                <TableCell>{t('campaigns.form.startAt')}</TableCell>
                <TableCell>{t('campaigns.history.status')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {campaigns.map((campaign) => (
                <ScheduledRow key={`${campaign.id}-${campaign.scheduledAt ?? ''}-${campaign.status}`} campaign={campaign} />
              ))}
              {campaigns.length === 0 && !list.isFetching ? (
                <TableRow>
                  <TableCell colSpan={7} sx={{ textAlign: 'center', color: 'text.secondary', py: 4 }}>
                    {t('campaigns.scheduled.empty')}
                  </TableCell>
                </TableRow>
              ) : null}
            </TableBody>
          </Table>
        </Paper>
      </Stack>
    </PageLayout>
  );
}
