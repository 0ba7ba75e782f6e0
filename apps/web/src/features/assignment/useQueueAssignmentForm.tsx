/**
 * The queue dialog's auto-assignment part (admins): the switch and the per-agent limit. The
 * dialog shows `fields`, asks `check()` before it saves the queue and `save(queueId)` after.
 */
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ASSIGNMENT_DEFAULT_MAX_PER_AGENT, ZQueueAssignmentInputSchema } from '@zapdesk/shared/assignment';
import { assignmentKey, saveQueueAssignment, useQueueAssignment } from './assignment.api';

export function useQueueAssignmentForm(queueId: number | undefined): { fields: ReactNode; check: () => boolean; save: (queueId: number) => Promise<void> } {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data } = useQueueAssignment(queueId);
  const [enabled, setEnabled] = useState(false);
  const [limit, setLimit] = useState(String(ASSIGNMENT_DEFAULT_MAX_PER_AGENT));
  const [invalid, setInvalid] = useState(false);
  // Filled once from the server; the admin's edits are not overwritten by a refetch.
  const [filled, setFilled] = useState(false);
  useEffect(() => {
    if (!data || filled) return;
    setEnabled(data.enabled);
    setLimit(String(data.maxPerAgent));
    setFilled(true);
  }, [data, filled]);

  const parsed = () => ZQueueAssignmentInputSchema.safeParse({ enabled, maxPerAgent: Number(limit.trim() === '' ? NaN : limit) });

  const check = () => {
    const ok = parsed().success;
    setInvalid(!ok);
    return ok;
  };

  const save = async (id: number) => {
    const result = parsed();
    if (!result.success) return;
    const before = data ?? { enabled: false, maxPerAgent: ASSIGNMENT_DEFAULT_MAX_PER_AGENT };
    if (before.enabled === result.data.enabled && before.maxPerAgent === result.data.maxPerAgent) return;
    const saved = await saveQueueAssignment(id, result.data);
    queryClient.setQueryData(assignmentKey(id), saved);
    if (before.enabled !== saved.enabled) toast.success(saved.enabled ? t('assign.turnedOn') : t('assign.turnedOff'));
  };

  const fields = (
    <Box data-testid="queue-assignment" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2 }}>
      <Typography variant="subtitle2" gutterBottom>
        {t('assign.title')}
      </Typography>
      <FormControlLabel
        control={<Switch checked={enabled} onChange={(event) => setEnabled(event.target.checked)} slotProps={{ input: { 'aria-label': t('assign.switch') } }} data-testid="queue-assignment-switch" />}
        label={t('assign.switch')}
      />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('assign.explain')}
      </Typography>
      <TextField
        label={t('assign.limit')}
        type="number"
        value={limit}
        disabled={!enabled}
        onChange={(event) => {
          setLimit(event.target.value);
          setInvalid(false);
        }}
        error={invalid}
        helperText={invalid ? t('assign.limitInvalid') : t('assign.limitHelp')}
        fullWidth
        slotProps={{ htmlInput: { min: 1, max: 100, inputMode: 'numeric', 'data-testid': 'queue-assignment-limit' } }}
      />
    </Box>
  );
  return { fields, check, save };
}
