/**
 * What the send forms share (bulk pages, SMS and calls, Instagram direct): field errors read
 * from the shared schema's issues or the server's `fields`, the optional start time, and the
 * column of sends started from the page with their live progress.
 */
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TCampaign } from '@zapdesk/shared/campaigns';
import { fieldErrorText } from '../../core/forms/fieldErrors';
import { CampaignProgress } from './CampaignProgress';

/** Field errors by field, from the schema's issues or the server's `fields`: the first code of each. */
export function fieldErrorsOf<F extends string>(fields: readonly F[], entries: [unknown, string][]): Partial<Record<F, string>> {
  const errors: Partial<Record<F, string>> = {};
  for (const [path, code] of entries) {
    const field = fields.find((name) => name === path);
    if (field && !(field in errors)) errors[field] = fieldErrorText({ message: code });
  }
  return errors;
}

/** A datetime-local value (the browser's time zone) for a moment. */
function localInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export type Schedule = {
  on: boolean;
  setOn: (on: boolean) => void;
  value: string;
  setValue: (value: string) => void;
  /** The start time as ISO, when one is on and valid. */
  scheduledAt: string | undefined;
  /** On, but not a time. */
  invalid: boolean;
};

/** The optional start time of a send: off, or a date and time (an hour from now to begin with). */
export function useSchedule(): Schedule {
  const [on, setOn] = useState(false);
  const [value, setValue] = useState(() => localInputValue(new Date(Date.now() + 60 * 60_000)));
  const when = on ? new Date(value) : undefined;
  const valid = when !== undefined && !Number.isNaN(when.getTime());
  return { on, setOn, value, setValue, scheduledAt: valid ? when.toISOString() : undefined, invalid: on && !valid };
}

export function ScheduleField({ schedule, error, testIdPrefix }: { schedule: Schedule; error: string | undefined; testIdPrefix: string }) {
  const { t } = useTranslation();
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} gap={2} alignItems={{ sm: 'center' }}>
      <FormControlLabel
        control={<Switch checked={schedule.on} onChange={(event) => schedule.setOn(event.target.checked)} data-testid={`${testIdPrefix}-schedule-toggle`} />}
        label={t('campaigns.form.schedule')}
      />
      {schedule.on ? (
        <TextField
          type="datetime-local"
          label={t('campaigns.form.startAt')}
          value={schedule.value}
          onChange={(event) => schedule.setValue(event.target.value)}
          error={Boolean(error)}
          helperText={error}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `${testIdPrefix}-start-at` } }}
        />
      ) : null}
    </Stack>
  );
}

/** Beside the form: each send started from this page, newest first, with its live progress. */
export function StartedCampaigns({ campaigns }: { campaigns: TCampaign[] }) {
  if (campaigns.length === 0) return null;
  return (
    <Stack gap={2} sx={{ flex: 1, width: '100%', minWidth: 0 }}>
      {campaigns.map((campaign) => (
        <Paper key={campaign.id} variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 } }}>
          <CampaignProgress initial={campaign} />
        </Paper>
      ))}
    </Stack>
  );
}
