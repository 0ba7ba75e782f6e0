/** Adding or editing a label: its name and colour. */
import { zodResolver } from '@hookform/resolvers/zod';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { QUEUE_COLORS } from '@zapdesk/shared/domain';
import { ZLabelInputSchema, type TLabel } from '@zapdesk/shared/labels';
import { applyServerFieldErrors, fieldErrorText } from '../../core/forms/fieldErrors';
import { FormDialogActions } from '../../core/ui/FormDialogActions';
import { muiRegister } from '../../core/ui/muiRegister';
import { toastError } from '../../core/ui/toastError';
import { ColorPicker } from '../queues/ColorPicker';
import { createLabel, saveLabelInCache, updateLabel, useLabels } from './labels.api';

type Props = { label: TLabel | null; onClose: () => void };

/** A preset colour no label uses yet, so a new label starts with a colour of its own. */
function freeColor(labels: readonly TLabel[]): string {
  const used = new Set(labels.map((label) => label.color.toLowerCase()));
  return QUEUE_COLORS.find((color) => !used.has(color.toLowerCase())) ?? QUEUE_COLORS[0];
}

export function LabelModal({ label, onClose }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: labels = [] } = useLabels();
  const form = useForm({ resolver: zodResolver(ZLabelInputSchema), defaultValues: { name: label?.name ?? '', color: label?.color ?? freeColor(labels) } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = label ? await updateLabel(label.id, values) : await createLabel(values);
      saveLabelInCache(queryClient, saved);
      toast.success(t('labels.saved', { name: saved.name }));
      onClose();
    } catch (error) {
      applyServerFieldErrors(error, form.setError, ['name', 'color']);
      toastError(error);
    }
  });

  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth data-testid="label-modal">
      <DialogTitle>{label ? t('labels.editTitle') : t('labels.addTitle')}</DialogTitle>
      <form noValidate onSubmit={onSubmit}>
        <DialogContent dividers>
          <Stack gap={2.5}>
            <TextField
              {...muiRegister(form.register('name'))}
              label={t('labels.name')}
              autoFocus
              fullWidth
              error={Boolean(errors.name)}
              helperText={fieldErrorText(errors.name)}
              slotProps={{ htmlInput: { 'data-testid': 'label-name' } }}
            />
            <Controller
              control={form.control}
              name="color"
              render={({ field }) => <ColorPicker label={t('labels.color')} value={field.value} onChange={field.onChange} error={fieldErrorText(errors.color)} />}
            />
          </Stack>
        </DialogContent>
        <FormDialogActions onCancel={onClose} submitting={isSubmitting} editing={Boolean(label)} testIdPrefix="label" />
      </form>
    </Dialog>
  );
}
