/**
 * The form of the four bulk pages: connection, numbers, message, the file of its kind, the pace
 * and an optional start time. Checked with the shared schema the server applies, so a field error
 * reads the same before and after sending.
 */
import Send from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CAMPAIGN_LIMITS, ZCampaignCreateSchema, type SendKind, type TCampaign } from '@zapdesk/shared/campaigns';
import { ApiError } from '../../core/api/ApiError';
import { fieldErrorText } from '../../core/forms/fieldErrors';
import { MessageTextField } from '../../core/ui/MessageTextField';
import { toastError } from '../../core/ui/toastError';
import { ConnectionSelect, useChosenConnection } from '../whatsapps/ConnectionSelect';
import { createCampaign } from './campaigns.api';
import { MediaSourceField } from './MediaSourceField';
import { LabelAudience } from '../labels/LabelAudience';
import { NumbersField } from './NumbersField';
import { fieldErrorsOf, ScheduleField, useSchedule } from './SendFormParts';

const FIELDS = ['whatsappId', 'numbers', 'labelId', 'message', 'mediaUrl', 'mediaPath', 'minDelay', 'maxDelay', 'scheduledAt'] as const;
type Field = (typeof FIELDS)[number];
type Errors = Partial<Record<Field, string>>;

const errorsOf = (entries: [unknown, string][]): Errors => fieldErrorsOf(FIELDS, entries);

type Props = { kind: SendKind; onCreated: (campaign: TCampaign, dropped: { blank: number; duplicates: number }) => void };

export function CampaignForm({ kind, onCreated }: Props) {
  const { t } = useTranslation();
  const { whatsappId, choose, connections } = useChosenConnection();
  const [numbers, setNumbers] = useState('');
  const [labelId, setLabelId] = useState<number | null | undefined>(undefined);
  const [message, setMessage] = useState('');
  const [media, setMedia] = useState({ mediaUrl: '', mediaPath: '' });
  const [minDelay, setMinDelay] = useState('5');
  const [maxDelay, setMaxDelay] = useState('15');
  const schedule = useSchedule();
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = {
      kind,
      whatsappId,
      ...(labelId === undefined ? { numbers } : labelId === null ? {} : { labelId }),
      message: kind === 'voice' ? '' : message,
      ...(media.mediaUrl.trim() ? { mediaUrl: media.mediaUrl.trim() } : {}),
      ...(media.mediaPath.trim() ? { mediaPath: media.mediaPath.trim() } : {}),
      minDelay: minDelay === '' ? Number.NaN : Number(minDelay),
      maxDelay: maxDelay === '' ? Number.NaN : Number(maxDelay),
      ...(schedule.scheduledAt ? { scheduledAt: schedule.scheduledAt } : {}),
    };
    const parsed = ZCampaignCreateSchema.safeParse(input);
    const found: Errors = parsed.success ? {} : errorsOf(parsed.error.issues.map((issue) => [issue.path[0], issue.message]));
    if (labelId === undefined && numbers.trim() === '') found.numbers = fieldErrorText({ message: 'REQUIRED' });
    if (labelId === null) found.labelId = fieldErrorText({ message: 'REQUIRED' });
    if (schedule.invalid) found.scheduledAt = fieldErrorText({ message: 'REQUIRED' });
    setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const created = await createCampaign(parsed.data);
      onCreated(created.campaign, created.dropped);
      setNumbers('');
    } catch (caught) {
      if (caught instanceof ApiError && Object.keys(caught.fields).length > 0) {
        setErrors(errorsOf(Object.entries(caught.fields)));
      }
      toastError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack component="form" gap={2} onSubmit={(event) => void submit(event)} noValidate data-testid="campaign-form">
      <Alert severity="info" data-testid="campaign-background-note">
        {t('campaigns.form.backgroundNote', { block: CAMPAIGN_LIMITS.adviceBlockSize })}
      </Alert>
      <ConnectionSelect whatsappId={whatsappId} connections={connections} onChange={choose} error={errors.whatsappId} testId="campaign-connection" />
      <LabelAudience labelId={labelId} onChange={setLabelId} error={errors.labelId} numbersField={<NumbersField value={numbers} onChange={setNumbers} error={errors.numbers} />} />
      {kind === 'text' || kind === 'voice' ? null : (
        <MediaSourceField kind={kind} {...media} onChange={(change) => setMedia((m) => ({ ...m, ...change }))} error={errors.mediaUrl ?? errors.mediaPath} />
      )}
      {kind === 'voice' ? (
        <MediaSourceField kind="voice" {...media} onChange={(change) => setMedia((m) => ({ ...m, ...change }))} error={errors.mediaPath ?? errors.mediaUrl} />
      ) : (
        <MessageTextField
          label={kind === 'text' ? t('campaigns.form.message') : t('campaigns.form.caption')}
          value={message}
          onChange={setMessage}
          error={errors.message}
          helperText={t('campaigns.form.messageHelp', { variable: '{{name}}' })}
          testId="campaign-message"
        />
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} gap={2}>
        <TextField
          type="number"
          label={t('campaigns.form.minDelay')}
          value={minDelay}
          onChange={(event) => setMinDelay(event.target.value)}
          error={Boolean(errors.minDelay)}
          helperText={errors.minDelay ?? t('campaigns.form.seconds')}
          slotProps={{ htmlInput: { min: 0, max: CAMPAIGN_LIMITS.maxDelaySeconds, 'data-testid': 'campaign-min' } }}
          sx={{ flex: 1 }}
        />
        <TextField
          type="number"
          label={t('campaigns.form.maxDelay')}
          value={maxDelay}
          onChange={(event) => setMaxDelay(event.target.value)}
          error={Boolean(errors.maxDelay)}
          helperText={errors.maxDelay ?? t('campaigns.form.seconds')}
          slotProps={{ htmlInput: { min: 0, max: CAMPAIGN_LIMITS.maxDelaySeconds, 'data-testid': 'campaign-max' } }}
          sx={{ flex: 1 }}
        />
      </Stack>
      <ScheduleField schedule={schedule} error={errors.scheduledAt} testIdPrefix="campaign" />
      <Stack direction="row" justifyContent="flex-end">
        <Button type="submit" variant="contained" startIcon={<Send />} disabled={busy} data-testid="campaign-submit">
          {schedule.on ? t('campaigns.form.scheduleSubmit') : t('campaigns.form.submit')}
        </Button>
      </Stack>
    </Stack>
  );
}
