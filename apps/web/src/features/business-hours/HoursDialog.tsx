/**
 * The hours editor of a queue (or the default): time zone, each weekday's ranges, holidays and
 * the out-of-hours message. Saving answers with a toast; 'now open / closed' follows the edits.
 */
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ZBusinessHoursSettingsSchema, isOpenAt, weekdaysWeek, type BusinessHours, type TBusinessHoursEntry } from '@zapdesk/shared/business-hours';
import { MessageTextField } from '../../core/ui/MessageTextField';
import { toastError } from '../../core/ui/toastError';
import { currentLanguage } from '../../i18n/i18n';
import { HolidaysEditor } from './HolidaysEditor';
import { putEntryInCache, removeBusinessHours, saveBusinessHours } from './businessHours.api';
import { WeekEditor, rangeProblem } from './WeekEditor';

type Props = { queueId: number | null; queueName?: string; entry: TBusinessHoursEntry | undefined; onClose: () => void };

/** São Paulo for a Portuguese screen, else the browser's own zone. */
function defaultTimeZone(): string {
  return currentLanguage() === 'pt' ? 'America/Sao_Paulo' : Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

function zoneLabel(zone: string): string {
  try {
    const offset = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' }).formatToParts(new Date()).find((p) => p.type === 'timeZoneName')?.value ?? '';
    return `${zone.replaceAll('_', ' ')} (${offset.replace('GMT', 'UTC')})`;
  } catch {
    return zone;
  }
}

export function HoursDialog({ queueId, queueName, entry, onClose }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const start: BusinessHours = entry?.hours ?? { timezone: defaultTimeZone(), week: weekdaysWeek('08:00', '18:00'), holidays: [] };
  const [hours, setHours] = useState<BusinessHours>(start);
  const [message, setMessage] = useState(entry?.outOfHoursMessage ?? '');
  const [busy, setBusy] = useState(false);
  const zones = useMemo(() => {
    const all = Intl.supportedValuesOf('timeZone');
    return all.includes(hours.timezone) ? all : [hours.timezone, ...all];
  }, [hours.timezone]);
  const hasOwn = Boolean(entry?.hours);
  const wrong = hours.week.some((ranges) => ranges.some((range) => rangeProblem(range) !== null));
  const openNow = !wrong && isOpenAt(hours, Date.now());

  const save = async () => {
    const parsed = ZBusinessHoursSettingsSchema.safeParse({ ...hours, outOfHoursMessage: message });
    if (!parsed.success) {
      toast.error(t('hours.fixRanges'));
      return;
    }
    setBusy(true);
    try {
      putEntryInCache(queryClient, queueId, await saveBusinessHours(queueId, parsed.data));
      toast.success(t('hours.saved'));
      onClose();
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setBusy(true);
    try {
      await removeBusinessHours(queueId);
      putEntryInCache(queryClient, queueId, null);
      toast.success(queueId === null ? t('hours.removedDefault') : t('hours.removedQueue'));
      onClose();
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="md" fullWidth fullScreen={phone} data-testid="hours-dialog">
      <DialogTitle>{queueId === null ? t('hours.defaultTitle') : t('hours.queueTitle', { name: queueName ?? '' })}</DialogTitle>
      <DialogContent dividers>
        <Stack gap={2.5}>
          <Typography variant="body2" color="text.secondary">
            {queueId === null ? t('hours.defaultIntro') : t('hours.queueIntro')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} gap={2} alignItems={{ sm: 'center' }}>
            <Autocomplete
              options={zones}
              value={hours.timezone}
              disableClearable
              onChange={(_event, zone) => setHours({ ...hours, timezone: zone })}
              getOptionLabel={zoneLabel}
              sx={{ flex: 1 }}
              renderInput={(params) => <TextField {...params} label={t('hours.timezone')} slotProps={{ htmlInput: { ...params.inputProps, 'data-testid': 'hours-timezone' } }} />}
            />
            <Alert severity={openNow ? 'success' : 'info'} sx={{ py: 0, flexShrink: 0 }} data-testid="hours-now">
              {openNow ? t('hours.nowOpen') : t('hours.nowClosed')}
            </Alert>
          </Stack>
          <WeekEditor week={hours.week} onChange={(week) => setHours({ ...hours, week })} />
          <HolidaysEditor holidays={hours.holidays} onChange={(holidays) => setHours({ ...hours, holidays })} />
          <Divider />
          <MessageTextField
            label={t('hours.message')}
            value={message}
            onChange={setMessage}
            helperText={queueId === null ? t('hours.messageHelpDefault') : t('hours.messageHelpQueue')}
            testId="hours-message"
          />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2, gap: 1, flexWrap: 'wrap' }}>
        {hasOwn ? (
          <Button color="error" onClick={() => void remove()} disabled={busy} sx={{ mr: 'auto' }} data-testid="hours-remove">
            {queueId === null ? t('hours.removeDefault') : t('hours.removeQueue')}
          </Button>
        ) : null}
        <Button color="inherit" onClick={onClose} disabled={busy} data-testid="hours-cancel">
          {t('common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={busy || wrong} data-testid="hours-save">
          {t('common.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
