/** Holidays: dates closed all day, added with a date field and shown as chips. */
import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BUSINESS_HOURS_MAX_HOLIDAYS } from '@zapdesk/shared/business-hours';
import { formatDay } from '../../core/ui/formatDate';

export function HolidaysEditor({ holidays, onChange }: { holidays: string[]; onChange: (holidays: string[]) => void }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const add = () => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(typed)) return;
    onChange([...new Set([...holidays, typed])].sort());
    setTyped('');
  };
  return (
    <Stack gap={1} data-testid="hours-holidays">
      <Typography variant="subtitle2">{t('hours.holidays')}</Typography>
      <Typography variant="body2" color="text.secondary">
        {t('hours.holidaysHelp')}
      </Typography>
      <Stack direction="row" gap={1} alignItems="center">
        <TextField
          type="date"
          size="small"
          label={t('hours.holidayDate')}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'hours-holiday-date' } }}
        />
        <Button startIcon={<AddIcon />} onClick={add} disabled={typed === '' || holidays.length >= BUSINESS_HOURS_MAX_HOLIDAYS} data-testid="hours-holiday-add">
          {t('hours.addHoliday')}
        </Button>
      </Stack>
      <Stack direction="row" gap={1} flexWrap="wrap">
        {holidays.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t('hours.noHolidays')}
          </Typography>
        ) : null}
        {holidays.map((day) => (
          <Chip key={day} label={formatDay(`${day}T12:00:00`)} onDelete={() => onChange(holidays.filter((d) => d !== day))} data-testid="hours-holiday" />
        ))}
      </Stack>
    </Stack>
  );
}
