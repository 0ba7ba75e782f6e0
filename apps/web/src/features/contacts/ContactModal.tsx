import { zodResolver } from '@hookform/resolvers/zod';
import AddIcon from '@mui/icons-material/Add';
import RemoveCircleOutline from '@mui/icons-material/RemoveCircleOutline';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { LIMITS } from '@zapdesk/shared/domain';
import { ZContactInputSchema, type TContact } from '@zapdesk/shared/schemas';
import { applyServerFieldErrors, delay, fieldErrorText } from '../../core/forms/fieldErrors';
import { schemaRules } from '../../core/forms/schemaRules';
import { ApiError } from '../../core/api/ApiError';
import { numberNote } from '../../core/numbers/NumberNotes';
import { useNumberReader } from '../../core/numbers/useNumberReader';
import { muiRegister } from '../../core/ui/muiRegister';
import { toastError } from '../../core/ui/toastError';
import { createContact, saveContactInCache, updateContact } from './contacts.api';
import { FormDialogActions } from '../../core/ui/FormDialogActions';

type ContactFormValues = { name: string; number: string; email: string; extraInfo: { name: string; value: string }[] };

const rules = schemaRules<ContactFormValues>(ZContactInputSchema);

type Props = {
  contact: TContact | null;
  /** A new contact's fields filled in beforehand (the new-ticket search offers the typed name). */
  initialValues?: { name?: string; number?: string };
  onClose: () => void;
  onSaved?: (contact: TContact) => void;
  /** A new contact whose number is already stored (perhaps someone else's customer): offered instead of an error. */
  onDuplicate?: (number: string) => void;
};

export function ContactModal({ contact, initialValues, onClose, onSaved, onDuplicate }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<ContactFormValues>({
    resolver: zodResolver(rules),
    defaultValues: {
      name: contact?.name ?? initialValues?.name ?? '',
      number: contact?.number ?? initialValues?.number ?? '',
      email: contact?.email ?? '',
      extraInfo: contact?.extraInfo.map(({ name, value }) => ({ name, value })) ?? [],
    },
  });
  const extraInfo = useFieldArray({ control: form.control, name: 'extraInfo' });
  const { errors, isSubmitting } = form.formState;
  const read = useNumberReader();
  const typedNumber = form.watch('number');
  const note = numberNote(t, typedNumber, read(typedNumber));

  const onSubmit = form.handleSubmit(async (values) => {
    await delay(LIMITS.submitDelayMs);
    try {
      const saved = contact ? await updateContact(contact.id, values) : await createContact(values);
      saveContactInCache(queryClient, saved);
      toast.success(t('contactModal.saved'));
      onSaved?.(saved);
      onClose();
    } catch (error) {
      if (!contact && onDuplicate && error instanceof ApiError && error.code === 'ERR_DUPLICATED_CONTACT') {
        onDuplicate(values.number);
        return;
      }
      applyServerFieldErrors(error, form.setError, ['name', 'number', 'email']);
      toastError(error);
    }
  });

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth scroll="paper" data-testid="contact-modal">
      <DialogTitle>{contact ? t('contactModal.editTitle') : t('contactModal.addTitle')}</DialogTitle>
      <form noValidate onSubmit={onSubmit} style={{ display: 'contents' }}>
        <DialogContent dividers>
          <Stack gap={2.5}>
            <Typography variant="subtitle2" color="primary">
              {t('contactModal.details')}
            </Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} gap={2}>
              <TextField
                {...muiRegister(form.register('name'))}
                label={t('contactModal.name')}
                autoFocus
                fullWidth
                error={Boolean(errors.name)}
                helperText={fieldErrorText(errors.name)}
                slotProps={{ htmlInput: { 'data-testid': 'contact-name' } }}
              />
              <TextField
                {...muiRegister(form.register('number'))}
                label={t('contactModal.number')}
                placeholder="(11) 98765-4321"
                fullWidth
                error={Boolean(errors.number)}
                helperText={fieldErrorText(errors.number) ?? note ?? t('contactModal.numberHelp')}
                slotProps={{ htmlInput: { 'data-testid': 'contact-number', inputMode: 'tel' }, formHelperText: { 'data-testid': 'contact-number-note' } as object }}
              />
            </Stack>
            <TextField
              {...muiRegister(form.register('email'))}
              label={t('contactModal.email')}
              type="email"
              fullWidth
              error={Boolean(errors.email)}
              helperText={fieldErrorText(errors.email)}
              slotProps={{ htmlInput: { 'data-testid': 'contact-email' } }}
            />
            <Typography variant="subtitle2" color="primary" sx={{ mt: 1 }}>
              {t('contactModal.extraInfo')}
            </Typography>
            {extraInfo.fields.map((field, index) => (
              <Stack key={field.id} direction="row" gap={1.5} alignItems="flex-start" data-testid="contact-extra-row">
                <TextField
                  {...muiRegister(form.register(`extraInfo.${index}.name`))}
                  label={t('contactModal.extraName')}
                  size="small"
                  fullWidth
                  error={Boolean(errors.extraInfo?.[index]?.name)}
                  helperText={fieldErrorText(errors.extraInfo?.[index]?.name)}
                  slotProps={{ htmlInput: { 'data-testid': `contact-extra-name-${index}` } }}
                />
                <TextField
                  {...muiRegister(form.register(`extraInfo.${index}.value`))}
                  label={t('contactModal.extraValue')}
                  size="small"
                  fullWidth
                  error={Boolean(errors.extraInfo?.[index]?.value)}
                  helperText={fieldErrorText(errors.extraInfo?.[index]?.value)}
                  slotProps={{ htmlInput: { 'data-testid': `contact-extra-value-${index}` } }}
                />
                <Tooltip title={t('contactModal.removeExtra')}>
                  <IconButton onClick={() => extraInfo.remove(index)} aria-label={t('contactModal.removeExtra')} sx={{ mt: 0.25 }}>
                    <RemoveCircleOutline fontSize="small" />
                  </IconButton>
                </Tooltip>
              </Stack>
            ))}
            <Button startIcon={<AddIcon />} onClick={() => extraInfo.append({ name: '', value: '' })} sx={{ alignSelf: 'flex-start' }} variant="outlined" size="small" data-testid="contact-add-extra">
              {t('contactModal.addExtra')}
            </Button>
          </Stack>
        </DialogContent>
        <FormDialogActions onCancel={onClose} submitting={isSubmitting} editing={Boolean(contact)} testIdPrefix="contact" />
      </form>
    </Dialog>
  );
}
