/** The seven days of a week of opening hours: open or closed, and each day's time ranges. */
import AddIcon from '@mui/icons-material/Add';
import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { BUSINESS_HOURS_MAX_RANGES_PER_DAY, type BusinessHours, type BusinessHoursRange } from '@zapdesk/shared/business-hours';
import { currentLanguage } from '../../i18n/i18n';
import { typedTime } from './typedFields';

type Week = BusinessHours['week'];
const LOCALE = { pt: 'pt-BR', en: 'en-US', es: 'es-ES' } as const;
/** Monday first on screen, as people read a week; stored Sunday first. */
const ORDER = [1, 2, 3, 4, 5, 6, 0] as const;

export function weekdayName(day: number): string {
  // 22 Nov 2026 is a Sunday.
  const name = new Intl.DateTimeFormat(LOCALE[currentLanguage()], { weekday: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2026, 10, 22 + day)));
  return name.charAt(0).toLocaleUpperCase() + name.slice(1);
}

const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

/** Why a range cannot be saved: a time not written HH:MM, or an end not after its start; null when fine. */
export function rangeProblem(range: BusinessHoursRange): 'badTime' | 'endBeforeStart' | null {
  if (!TIME.test(range.from) || !(TIME.test(range.to) || range.to === '24:00')) return 'badTime';
  return range.to > range.from ? null : 'endBeforeStart';
}

export function WeekEditor({ week, onChange }: { week: Week; onChange: (week: Week) => void }) {
  const { t } = useTranslation();
  const setDay = (day: number, ranges: BusinessHoursRange[]) => onChange(week.map((r, i) => (i === day ? ranges : r)));
  const copyMonday = () => onChange(week.map((ranges, day) => (day >= 1 && day <= 5 ? (week[1] ?? []).map((r) => ({ ...r })) : ranges)));

  return (
    <Stack gap={0.5} data-testid="hours-week">
      <Stack direction="row" alignItems="center" justifyContent="space-between" gap={1} flexWrap="wrap">
        <Typography variant="subtitle2">{t('hours.week')}</Typography>
        <Button size="small" onClick={copyMonday} data-testid="hours-copy-monday">
          {t('hours.copyMonday')}
        </Button>
      </Stack>
      {ORDER.map((day) => {
        const ranges = week[day] ?? [];
        const open = ranges.length > 0;
        return (
          <Stack
            key={day}
            direction={{ xs: 'column', sm: 'row' }}
            alignItems={{ xs: 'stretch', sm: 'flex-start' }}
            gap={{ xs: 0.5, sm: 2 }}
            sx={{ py: 1, borderBottom: 1, borderColor: 'divider' }}
            data-testid={`hours-day-${day}`}
          >
            <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ width: { sm: 230 }, flexShrink: 0, minHeight: 40 }}>
              <Typography fontWeight={600}>{weekdayName(day)}</Typography>
              <FormControlLabel
                sx={{ mr: 0 }}
                control={
                  <Switch
                    checked={open}
                    onChange={(event) => setDay(day, event.target.checked ? [{ from: '08:00', to: '18:00' }] : [])}
                    slotProps={{ input: { 'aria-label': t('hours.openOn', { day: weekdayName(day) }) } }}
                    data-testid={`hours-open-${day}`}
                  />
                }
                label={<Typography variant="body2">{open ? t('hours.open') : t('hours.closed')}</Typography>}
                labelPlacement="start"
              />
            </Stack>
            <Stack gap={1} sx={{ flex: 1, minWidth: 0 }}>
              {ranges.map((range, index) => {
                const problem = rangeProblem(range);
                const update = (next: Partial<BusinessHoursRange>) =>
                  setDay(
                    day,
                    ranges.map((r, i) => (i === index ? { ...r, ...next } : r)),
                  );
                return (
                  <Stack key={index} direction="row" alignItems="flex-start" gap={1}>
                    <TextField
                      size="small"
                      label={t('hours.from')}
                      placeholder="08:00"
                      value={range.from}
                      onChange={(event) => update({ from: typedTime(event.target.value) })}
                      error={problem === 'badTime' && !TIME.test(range.from)}
                      sx={{ flex: 1, minWidth: 0 }}
                      slotProps={{ inputLabel: { shrink: true }, htmlInput: { inputMode: 'numeric', maxLength: 5, 'data-testid': `hours-from-${day}-${index}` } }}
                    />
                    <TextField
                      size="small"
                      label={t('hours.to')}
                      placeholder="18:00"
                      value={range.to}
                      onChange={(event) => update({ to: typedTime(event.target.value) })}
                      error={problem !== null}
                      helperText={problem ? t(`hours.${problem}`) : undefined}
                      sx={{ flex: 1, minWidth: 0 }}
                      slotProps={{ inputLabel: { shrink: true }, htmlInput: { inputMode: 'numeric', maxLength: 5, 'data-testid': `hours-to-${day}-${index}` } }}
                    />
                    <IconButton
                      aria-label={t('hours.removeRange')}
                      onClick={() =>
                        setDay(
                          day,
                          ranges.filter((_, i) => i !== index),
                        )
                      }
                      sx={{ mt: 0.25 }}
                      data-testid={`hours-remove-${day}-${index}`}
                    >
                      <CloseIcon fontSize="small" />
                    </IconButton>
                  </Stack>
                );
              })}
              {open && ranges.length < BUSINESS_HOURS_MAX_RANGES_PER_DAY ? (
                <Box>
                  <Button size="small" startIcon={<AddIcon />} onClick={() => setDay(day, [...ranges, { from: '13:00', to: '18:00' }])} data-testid={`hours-add-${day}`}>
                    {t('hours.addRange')}
                  </Button>
                </Box>
              ) : null}
            </Stack>
          </Stack>
        );
      })}
    </Stack>
  );
}
