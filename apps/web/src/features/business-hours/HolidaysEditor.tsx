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
import { currentLanguage } from '../../i18n/i18n';
import { datePattern, isoOfTypedDate, typedDate } from './typedFields';

export function HolidaysEditor({ holidays, onChange }: { holidays: string[]; onChange: (holidays: string[]) => void }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const language = currentLanguage();
  const iso = isoOfTypedDate(typed, language);
  const add = () => {
    if (!iso) return;
    onChange([...new Set([...holidays, iso])].sort());
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
          size="small"
          label={t('hours.holidayDate')}
          placeholder={datePattern(language)}
          value={typed}
          onChange={(event) => setTyped(typedDate(event.target.value))}
          error={typed.length === 10 && !iso}
          sx={{ width: 160 }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { inputMode: 'numeric', maxLength: 10, 'data-testid': 'hours-holiday-date' } }}
        />
        <Button startIcon={<AddIcon />} onClick={add} disabled={!iso || holidays.length >= BUSINESS_HOURS_MAX_HOLIDAYS} data-testid="hours-holiday-add">
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
