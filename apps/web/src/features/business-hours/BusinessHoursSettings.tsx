/** Configurações: the default opening hours, and where the hours apply (figures, queue menu). */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { SettingKey } from '@zapdesk/shared/domain';
import { toastError } from '../../core/ui/toastError';
import { saveSetting, useSettings } from '../settings/settings.api';
import { HoursDialog } from './HoursDialog';
import { useBusinessHours } from './businessHours.api';
import { hoursSummary } from './hoursSummary';

const TOGGLES = ['businessHoursInFigures', 'businessHoursInMenu'] as const satisfies readonly SettingKey[];

export function BusinessHoursSettings() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const settings = useSettings();
  const entries = useBusinessHours();
  const [editing, setEditing] = useState(false);
  const byDefault = entries.data?.find((entry) => entry.queueId === null);

  // The switch moves at once (its own state: the list's update reaches it a moment later); a
  // refused change moves it back.
  const [moving, setMoving] = useState<Partial<Record<(typeof TOGGLES)[number], boolean>>>({});
  const toggle = async (key: (typeof TOGGLES)[number], on: boolean) => {
    setMoving((now) => ({ ...now, [key]: on }));
    try {
      await saveSetting(queryClient, key, on ? 'enabled' : 'disabled');
      toast.success(t('hours.settingSaved'), { toastId: `setting-${key}` });
    } catch (error) {
      toastError(error);
    } finally {
      setMoving(({ [key]: _done, ...rest }) => rest);
    }
  };

  return (
    <Paper id="hours" variant="outlined" sx={{ scrollMarginTop: 16 }} data-testid="settings-group-hours">
      <Typography variant="subtitle1" component="h2" fontWeight={700} sx={{ px: 3, pt: 2, pb: 1 }}>
        {t('settings.groups.hours')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} alignItems={{ sm: 'center' }} justifyContent="space-between" gap={{ xs: 1, sm: 3 }} sx={{ px: 3, py: 1.75 }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography fontWeight={600}>{t('hours.defaultTitle')}</Typography>
          <Typography variant="body2" color="text.secondary" data-testid="hours-default-summary">
            {byDefault?.hours ? hoursSummary(byDefault.hours) : t('hours.noDefault')}
          </Typography>
        </Box>
        <Button variant="outlined" onClick={() => setEditing(true)} disabled={entries.isPending} sx={{ flexShrink: 0 }} data-testid="hours-edit-default">
          {t('hours.editDefault')}
        </Button>
      </Stack>
      {TOGGLES.map((key) => {
        const on = moving[key] ?? settings.data?.find((s) => s.key === key)?.value === 'enabled';
        return (
          <Box key={key}>
            <Divider sx={{ mx: 3 }} />
            <Stack direction="row" alignItems="center" justifyContent="space-between" gap={3} sx={{ px: 3, py: 1.75 }} data-testid={`setting-row-${key}`}>
              <Box sx={{ minWidth: 0 }}>
                <Typography fontWeight={600}>{t(`settings.keys.${key}.label`)}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {t(`settings.keys.${key}.help`)}
                </Typography>
              </Box>
              <Switch
                checked={on}
                onChange={(event) => void toggle(key, event.target.checked)}
                slotProps={{ input: { 'aria-label': t(`settings.keys.${key}.label`) } }}
                data-testid={`setting-${key}`}
              />
            </Stack>
          </Box>
        );
      })}
      {editing ? <HoursDialog queueId={null} entry={byDefault} onClose={() => setEditing(false)} /> : null}
    </Paper>
  );
}
