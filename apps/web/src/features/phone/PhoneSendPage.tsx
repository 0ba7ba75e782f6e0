/**
 * /SMS and /VoiceCall: sender, numbers (one per line, by the phone network's rule), the text
 * (for SMS with its parts counted as you type, said in plain words; for calls, read in the
 * language of this screen), an optional start time; then the live progress of what was started.
 * What must be configured is said first. Sent by the server through Vonage, about one every five seconds.
 */
import Call from '@mui/icons-material/Call';
import Send from '@mui/icons-material/Send';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { TCampaign } from '@zapdesk/shared/campaigns';
import { CALL_LANGUAGES, VONAGE_LIMITS, ZCallCreateSchema, ZSmsCreateSchema, smsSegments } from '@zapdesk/shared/vonage';
import { ApiError } from '../../core/api/ApiError';
import { fieldErrorText } from '../../core/forms/fieldErrors';
import { PageLayout } from '../../core/ui/PageLayout';
import { toastError } from '../../core/ui/toastError';
import { fieldErrorsOf, ScheduleField, StartedCampaigns, useSchedule } from '../campaigns/SendFormParts';
import { NumbersField } from '../campaigns/NumbersField';
import { placeCalls, sendSms } from './phone.api';
import { PhoneSetupNote } from './PhoneSetupNote';

const FIELDS = ['from', 'numbers', 'text', 'scheduledAt'] as const;
type Field = (typeof FIELDS)[number];
type Errors = Partial<Record<Field, string>>;

const errorsOf = (entries: [unknown, string][]): Errors => fieldErrorsOf(FIELDS, entries);

function languageOf(interfaceLanguage: string) {
  const short = interfaceLanguage.slice(0, 2);
  return short === 'en' ? CALL_LANGUAGES.en : short === 'es' ? CALL_LANGUAGES.es : CALL_LANGUAGES.pt;
}

export function PhoneSendPage({ kind }: { kind: 'sms' | 'call' }) {
  const { t, i18n } = useTranslation();
  const [from, setFrom] = useState('');
  const [numbers, setNumbers] = useState('');
  const [text, setText] = useState('');
  const schedule = useSchedule();
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [started, setStarted] = useState<TCampaign[]>([]);
  const language = languageOf(i18n.language);
  const segments = smsSegments(text);
  const max = kind === 'sms' ? VONAGE_LIMITS.smsChars : VONAGE_LIMITS.callChars;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = { from, numbers, text, ...(kind === 'call' ? { language } : {}), ...(schedule.scheduledAt ? { scheduledAt: schedule.scheduledAt } : {}) };
    const parsed = kind === 'sms' ? ZSmsCreateSchema.safeParse(input) : ZCallCreateSchema.safeParse(input);
    const found: Errors = parsed.success ? {} : errorsOf(parsed.error.issues.map((issue) => [issue.path[0], issue.message]));
    if (numbers.trim() === '') found.numbers = fieldErrorText({ message: 'REQUIRED' });
    if (schedule.invalid) found.scheduledAt = fieldErrorText({ message: 'REQUIRED' });
    setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const created = kind === 'sms' ? await sendSms(ZSmsCreateSchema.parse(input)) : await placeCalls(ZCallCreateSchema.parse(input));
      setStarted((list) => [created.campaign, ...list]);
      toast.success(t(created.campaign.status === 'scheduled' ? 'phone.scheduled' : 'phone.started', { count: created.campaign.total }));
      setNumbers('');
    } catch (caught) {
      if (caught instanceof ApiError && Object.keys(caught.fields).length > 0) setErrors(errorsOf(Object.entries(caught.fields)));
      toastError(caught);
    } finally {
      setBusy(false);
    }
  };

  const counter =
    kind === 'sms'
      ? text === ''
        ? t('toolPages.phone.segmentsEmpty')
        : `${t('toolPages.phone.segments', { count: segments.segments, left: segments.left })}${segments.encoding === 'UCS-2' ? ` · ${t('toolPages.phone.accents')}` : ''}`
      : `${t('phone.callChars', { count: text.length, max })} · ${t('phone.language', { language })}`;

  return (
    <PageLayout title={t(kind === 'sms' ? 'menu.sms' : 'menu.voiceCall')} subtitle={t(kind === 'sms' ? 'phone.smsSubtitle' : 'phone.callSubtitle')} testId={`phone-page-${kind}`}>
      <Stack direction={{ xs: 'column', lg: 'row' }} gap={2} alignItems="flex-start" sx={{ overflowY: 'auto', minHeight: 0, pb: 2 }}>
        <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 }, flex: 1, width: '100%', minWidth: 0 }}>
          <Stack component="form" gap={2} onSubmit={(event) => void submit(event)} noValidate data-testid="phone-form">
            <PhoneSetupNote kind={kind} />
            <Typography variant="body2" color="text.secondary" data-testid="phone-note">
              {t('phone.backgroundNote')}
            </Typography>
            <TextField
              label={t('phone.from')}
              value={from}
              onChange={(event) => setFrom(event.target.value)}
              error={Boolean(errors.from)}
              helperText={errors.from ?? t('phone.fromHelp')}
              slotProps={{ htmlInput: { maxLength: VONAGE_LIMITS.senderChars + 1, 'data-testid': 'phone-from' } }}
            />
            <NumbersField value={numbers} onChange={setNumbers} error={errors.numbers} rule="phone" help={t('phone.numbersHelp')} />
            <TextField
              label={t(kind === 'sms' ? 'phone.smsText' : 'phone.callText')}
              value={text}
              onChange={(event) => setText(event.target.value)}
              multiline
              minRows={4}
              error={Boolean(errors.text)}
              helperText={errors.text ?? counter}
              slotProps={{ htmlInput: { maxLength: max, 'data-testid': 'phone-text' }, formHelperText: { 'data-testid': 'phone-counter' } as object }}
            />
            <ScheduleField schedule={schedule} error={errors.scheduledAt} testIdPrefix="phone" />
            <Stack direction="row" justifyContent="flex-end">
              <Button type="submit" variant="contained" startIcon={kind === 'sms' ? <Send /> : <Call />} disabled={busy} data-testid="phone-submit">
                {schedule.on ? t('campaigns.form.scheduleSubmit') : t(kind === 'sms' ? 'phone.sendSms' : 'phone.sendCall')}
              </Button>
            </Stack>
          </Stack>
        </Paper>
        <StartedCampaigns campaigns={started} />
      </Stack>
    </PageLayout>
  );
}
