import { zodResolver } from '@hookform/resolvers/zod';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { LIMITS } from '@zapdesk/shared/domain';
import { ZQuickAnswerInputSchema, type TQuickAnswer } from '@zapdesk/shared/schemas';
import { applyServerFieldErrors, delay, fieldErrorText } from '../../core/forms/fieldErrors';
import { muiRegister } from '../../core/ui/muiRegister';
import { toastError } from '../../core/ui/toastError';
import { createQuickAnswer, saveQuickAnswerInCache, updateQuickAnswer } from './quickAnswers.api';
import { FormDialogActions } from '../../core/ui/FormDialogActions';

type Props = { quickAnswer: TQuickAnswer | null; onClose: () => void };

export function QuickAnswerModal({ quickAnswer, onClose }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm({
    resolver: zodResolver(ZQuickAnswerInputSchema),
    defaultValues: { shortcut: quickAnswer?.shortcut ?? '', message: quickAnswer?.message ?? '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    await delay(LIMITS.submitDelayMs);
    try {
      const saved = quickAnswer ? await updateQuickAnswer(quickAnswer.id, values) : await createQuickAnswer(values);
      saveQuickAnswerInCache(queryClient, saved);
      toast.success(t('quickAnswerModal.saved'));
      onClose();
    } catch (error) {
      applyServerFieldErrors(error, form.setError, ['shortcut', 'message']);
      toastError(error);
    }
  });

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth data-testid="quick-answer-modal">
      <DialogTitle>{quickAnswer ? t('quickAnswerModal.editTitle') : t('quickAnswerModal.addTitle')}</DialogTitle>
      <form noValidate onSubmit={onSubmit}>
        <DialogContent dividers>
          <Stack gap={2.5}>
            <TextField
              {...muiRegister(form.register('shortcut'))}
              label={t('quickAnswerModal.shortcut')}
              autoFocus
              fullWidth
              error={Boolean(errors.shortcut)}
              helperText={fieldErrorText(errors.shortcut)}
              slotProps={{ htmlInput: { 'data-testid': 'quick-answer-shortcut' } }}
            />
            <TextField
              {...muiRegister(form.register('message'))}
              label={t('quickAnswerModal.message')}
              multiline
              minRows={5}
              maxRows={14}
              fullWidth
              error={Boolean(errors.message)}
              helperText={fieldErrorText(errors.message)}
              slotProps={{ htmlInput: { 'data-testid': 'quick-answer-message', maxLength: LIMITS.quickAnswerMaxChars } }}
            />
          </Stack>
        </DialogContent>
        <FormDialogActions onCancel={onClose} submitting={isSubmitting} editing={Boolean(quickAnswer)} testIdPrefix="quick-answer" />
      </form>
    </Dialog>
  );
}
