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
import { LIMITS, QUEUE_COLORS } from '@zapdesk/shared/domain';
import { ZQueueInputSchema, type TQueue } from '@zapdesk/shared/schemas';
import { applyServerFieldErrors, delay, fieldErrorText } from '../../core/forms/fieldErrors';
import { muiRegister } from '../../core/ui/muiRegister';
import { toastError } from '../../core/ui/toastError';
import { ColorPicker } from './ColorPicker';
import { createQueue, saveQueueInCache, updateQueue, useQueues } from './queues.api';
import { FormDialogActions } from '../../core/ui/FormDialogActions';
import { useQueueAssignmentForm } from '../assignment/useQueueAssignmentForm';

type Props = { queue: TQueue | null; onClose: () => void };

/** The first preset colour no queue uses yet, so a new queue starts with a valid choice. */
function freeColor(queues: readonly TQueue[]): string {
  const used = new Set(queues.map((queue) => queue.color.toLowerCase()));
  return QUEUE_COLORS.find((color) => !used.has(color.toLowerCase())) ?? QUEUE_COLORS[0];
}

export function QueueModal({ queue, onClose }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: queues = [] } = useQueues();
  const form = useForm({
    resolver: zodResolver(ZQueueInputSchema),
    defaultValues: { name: queue?.name ?? '', color: queue?.color ?? freeColor(queues), greetingMessage: queue?.greetingMessage ?? '' },
  });
  const { errors, isSubmitting } = form.formState;
  const assignment = useQueueAssignmentForm(queue?.id);

  const onSubmit = form.handleSubmit(async (values) => {
    if (!assignment.check()) return;
    await delay(LIMITS.submitDelayMs);
    try {
      const saved = queue ? await updateQueue(queue.id, values) : await createQueue(values);
      saveQueueInCache(queryClient, saved);
      await assignment.save(saved.id);
      toast.success(t('queueModal.saved'));
      onClose();
    } catch (error) {
      applyServerFieldErrors(error, form.setError, ['name', 'color', 'greetingMessage']);
      toastError(error);
    }
  });

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth data-testid="queue-modal">
      <DialogTitle>{queue ? t('queueModal.editTitle') : t('queueModal.addTitle')}</DialogTitle>
      <form noValidate onSubmit={onSubmit}>
        <DialogContent dividers>
          <Stack gap={2.5}>
            <Stack direction={{ xs: 'column', sm: 'row' }} gap={2}>
              <TextField
                {...muiRegister(form.register('name'))}
                label={t('queueModal.name')}
                autoFocus
                fullWidth
                error={Boolean(errors.name)}
                helperText={fieldErrorText(errors.name)}
                slotProps={{ htmlInput: { 'data-testid': 'queue-name' } }}
              />
              <Controller
                control={form.control}
                name="color"
                render={({ field }) => <ColorPicker label={t('queueModal.color')} value={field.value} onChange={field.onChange} error={fieldErrorText(errors.color)} />}
              />
            </Stack>
            <TextField
              {...muiRegister(form.register('greetingMessage'))}
              label={t('queueModal.greeting')}
              multiline
              minRows={4}
              maxRows={10}
              fullWidth
              error={Boolean(errors.greetingMessage)}
              helperText={fieldErrorText(errors.greetingMessage)}
              slotProps={{ htmlInput: { 'data-testid': 'queue-greeting' } }}
            />
            {assignment.fields}
          </Stack>
        </DialogContent>
        <FormDialogActions onCancel={onClose} submitting={isSubmitting} editing={Boolean(queue)} testIdPrefix="queue" />
      </form>
    </Dialog>
  );
}
