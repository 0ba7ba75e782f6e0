/**
 * /InstaDirect: direct messages to Instagram users by username, through an Instagram
 * connection, sent by the server one every 5–15 seconds as a campaign (in the send history).
 * Said up front: what to set up and where (with Meta's webhook address), and Instagram's rule:
 * only people who wrote to the account can be messaged.
 */
import Send from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { TCampaign } from '@zapdesk/shared/campaigns';
import { normalizeUsername, ZDirectCreateSchema } from '@zapdesk/shared/instagram';
import { ApiError } from '../../core/api/ApiError';
import { request } from '../../core/api/client';
import { fieldErrorText } from '../../core/forms/fieldErrors';
import { PageLayout } from '../../core/ui/PageLayout';
import { toastError } from '../../core/ui/toastError';
import { fieldErrorsOf, ScheduleField, StartedCampaigns, useSchedule } from '../campaigns/SendFormParts';
import { fetchWhatsapps, whatsappsKey } from '../whatsapps/whatsapps.api';
import { InstagramSetup } from './InstagramSetup';

type Created = { campaign: TCampaign; dropped: { blank: number; duplicates: number } };
const FIELDS = ['whatsappId', 'users', 'message', 'scheduledAt'] as const;
type Errors = Partial<Record<(typeof FIELDS)[number], string>>;

const errorsOf = (entries: [unknown, string][]): Errors => fieldErrorsOf(FIELDS, entries);

export default function InstaDirectPage() {
  const { t } = useTranslation();
  const labelId = useId();
  const whatsapps = useQuery({ queryKey: whatsappsKey, queryFn: fetchWhatsapps });
  const connections = (whatsapps.data ?? []).filter((w) => w.channel === 'instagram');
  const [chosen, setChosen] = useState<number | null>(null);
  const whatsappId = chosen ?? connections[0]?.id ?? null;
  const [users, setUsers] = useState('');
  const [message, setMessage] = useState('');
  const schedule = useSchedule();
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [started, setStarted] = useState<TCampaign[]>([]);
  const counted = useMemo(() => {
    const lines = users
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean);
    const valid = new Set(lines.map(normalizeUsername).filter((name): name is string => name !== undefined));
    return { valid: valid.size, invalid: lines.filter((line) => normalizeUsername(line) === undefined).length };
  }, [users]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = { whatsappId: whatsappId ?? Number.NaN, users, message, ...(schedule.scheduledAt ? { scheduledAt: schedule.scheduledAt } : {}) };
    const parsed = ZDirectCreateSchema.safeParse(input);
    const found: Errors = parsed.success ? {} : errorsOf(parsed.error.issues.map((issue) => [issue.path[0], issue.message]));
    if (users.trim() === '') found.users = fieldErrorText({ message: 'REQUIRED' });
    setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const created = await request<Created>('/instagram/direct', { method: 'POST', body: parsed.data });
      setStarted((list) => [created.campaign, ...list]);
      toast.success(t(created.campaign.status === 'scheduled' ? 'instaDirect.scheduled' : 'instaDirect.started', { count: created.campaign.total }));
      setUsers('');
    } catch (caught) {
      if (caught instanceof ApiError && Object.keys(caught.fields).length > 0) setErrors(errorsOf(Object.entries(caught.fields)));
      toastError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <PageLayout title={t('menu.directIg')} subtitle={t('instaDirect.subtitle')} testId="insta-direct-page">
      <Stack direction={{ xs: 'column', lg: 'row' }} gap={2} alignItems="flex-start" sx={{ overflowY: 'auto', minHeight: 0, pb: 2 }}>
        <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 }, flex: 1, width: '100%', minWidth: 0 }}>
          <Stack component="form" gap={2} onSubmit={(event) => void submit(event)} noValidate data-testid="insta-direct-form">
            <InstagramSetup />
            <Alert severity="info" data-testid="insta-direct-rule">
              {t('instaDirect.rule')}
            </Alert>
            {!whatsapps.isPending && connections.length === 0 ? (
              <Alert severity="warning" data-testid="insta-direct-no-connection">
                {t('instaDirect.noConnection')}
              </Alert>
            ) : null}
            <FormControl fullWidth error={Boolean(errors.whatsappId)}>
              <InputLabel id={labelId}>{t('instaDirect.connection')}</InputLabel>
              <Select labelId={labelId} label={t('instaDirect.connection')} value={whatsappId ?? ''} onChange={(event) => setChosen(Number(event.target.value))} data-testid="insta-direct-connection">
                {connections.map((connection) => (
                  <MenuItem key={connection.id} value={connection.id}>
                    {connection.name}
                    {connection.instagram?.username ? ` · @${connection.instagram.username}` : ''}
                  </MenuItem>
                ))}
              </Select>
              {errors.whatsappId ? <FormHelperText>{errors.whatsappId}</FormHelperText> : null}
            </FormControl>
            <TextField
              label={t('instaDirect.users')}
              value={users}
              onChange={(event) => setUsers(event.target.value)}
              multiline
              minRows={5}
              maxRows={12}
              error={Boolean(errors.users)}
              helperText={errors.users ?? t('instaDirect.usersHelp')}
              slotProps={{ htmlInput: { 'data-testid': 'insta-direct-users' } }}
            />
            <Typography variant="body2" color={counted.invalid > 0 ? 'warning.main' : 'text.secondary'} sx={{ mt: -1 }} data-testid="insta-direct-count">
              {t('instaDirect.count', { count: counted.valid, invalid: counted.invalid })}
            </Typography>
            <TextField
              label={t('instaDirect.message')}
              value={message}
              onChange={(event) => setMessage(event.target.value)}
              multiline
              minRows={4}
              error={Boolean(errors.message)}
              helperText={errors.message ?? t('campaigns.form.messageHelp', { variable: '{{name}}' })}
              slotProps={{ htmlInput: { maxLength: 1000, 'data-testid': 'insta-direct-message' } }}
            />
            <ScheduleField schedule={schedule} error={errors.scheduledAt} testIdPrefix="insta-direct" />
            <Stack direction="row" justifyContent="flex-end">
              <Button type="submit" variant="contained" startIcon={<Send />} disabled={busy || connections.length === 0} data-testid="insta-direct-submit">
                {schedule.on ? t('campaigns.form.scheduleSubmit') : t('instaDirect.submit')}
              </Button>
            </Stack>
          </Stack>
        </Paper>
        <StartedCampaigns campaigns={started} />
      </Stack>
    </PageLayout>
  );
}
