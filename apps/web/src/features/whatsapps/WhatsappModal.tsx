/** Adds or edits a connection: name, default flag, greeting and farewell, queues; the channel only when adding. */
import { zodResolver } from '@hookform/resolvers/zod';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { CHANNELS, LIMITS, type Channel } from '@zapdesk/shared/domain';
import { ZInstagramConfigInputSchema } from '@zapdesk/shared/instagram';
import { ZWhatsappInputSchema } from '@zapdesk/shared/messaging';
import type { TWhatsapp } from '@zapdesk/shared/schemas';
import { ApiError } from '../../core/api/ApiError';
import { applyServerFieldErrors, delay, fieldErrorText } from '../../core/forms/fieldErrors';
import { schemaRules } from '../../core/forms/schemaRules';
import { MessageTextField } from '../../core/ui/MessageTextField';
import { muiRegister } from '../../core/ui/muiRegister';
import { toastError } from '../../core/ui/toastError';
import { QueueMultiSelect } from '../queues/QueueMultiSelect';
import { createWhatsapp, saveWhatsappInCache, updateWhatsapp } from './whatsapps.api';
import { FormDialogActions } from '../../core/ui/FormDialogActions';
import { EMPTY_INSTAGRAM, InstagramFields, instagramInput, type InstagramValues } from './InstagramFields';
import { CsatFields, useCsatForm } from '../csat/CsatFields';

type Props = {
  whatsapp: TWhatsapp | null;
  /** The first connection always becomes the default: the switch starts on then. */
  isFirst: boolean;
  onClose: () => void;
  onCreated: (whatsapp: TWhatsapp) => void;
};

type WhatsappFormValues = {
  name: string;
  isDefault: boolean;
  greetingMessage: string;
  farewellMessage: string;
  queueIds: number[];
  channel: Channel;
};

const FIELDS = ['name', 'isDefault', 'greetingMessage', 'farewellMessage', 'queueIds', 'channel'] as const;

function toFormValues(whatsapp: TWhatsapp | null, isFirst: boolean): WhatsappFormValues {
  if (!whatsapp) return { name: '', isDefault: isFirst, greetingMessage: '', farewellMessage: '', queueIds: [], channel: 'whatsapp' };
  return {
    name: whatsapp.name,
    isDefault: whatsapp.isDefault,
    greetingMessage: whatsapp.greetingMessage,
    farewellMessage: whatsapp.farewellMessage,
    queueIds: whatsapp.queues.map((queue) => queue.id),
    channel: whatsapp.channel,
  };
}

export function WhatsappModal({ whatsapp, isFirst, onClose, onCreated }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const channelLabelId = useId();
  const form = useForm<WhatsappFormValues>({ resolver: zodResolver(schemaRules<WhatsappFormValues>(ZWhatsappInputSchema)), defaultValues: toFormValues(whatsapp, isFirst) });
  const { errors, isSubmitting } = form.formState;
  const channel = form.watch('channel');
  const [instagram, setInstagram] = useState<InstagramValues>(() => ({ ...EMPTY_INSTAGRAM, accountId: whatsapp?.instagram?.accountId ?? '' }));
  const [instagramErrors, setInstagramErrors] = useState<Partial<Record<keyof InstagramValues, string>>>({});
  const isInstagram = (whatsapp?.channel ?? channel) === 'instagram';
  const csat = useCsatForm(whatsapp?.id ?? null);

  /** The Instagram fields checked as the server will; a new connection needs every secret. */
  const checkInstagram = (): boolean => {
    if (!isInstagram) return true;
    const found: Partial<Record<keyof InstagramValues, string>> = {};
    const parsed = ZInstagramConfigInputSchema.safeParse(instagramInput(instagram));
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = issue.path[0];
        if ((key === 'accountId' || key === 'accessToken' || key === 'appSecret' || key === 'verifyToken') && !found[key]) found[key] = fieldErrorText({ message: issue.message });
      }
    }
    if (!whatsapp) for (const key of ['accessToken', 'appSecret', 'verifyToken'] as const) if (!instagram[key].trim() && !found[key]) found[key] = fieldErrorText({ message: 'REQUIRED' });
    setInstagramErrors(found);
    return Object.keys(found).length === 0;
  };

  const onSubmit = form.handleSubmit(async (values) => {
    if (!checkInstagram() || !csat.check()) return;
    await delay(LIMITS.submitDelayMs);
    try {
      const { channel: chosen, ...fields } = values;
      const common = isInstagram ? { ...fields, instagram: instagramInput(instagram) } : fields;
      const saved = whatsapp ? await updateWhatsapp(whatsapp.id, common) : await createWhatsapp({ ...common, channel: chosen });
      saveWhatsappInCache(queryClient, saved);
      await csat.save(saved.id);
      toast.success(t('connectionModal.saved'));
      onClose();
      if (!whatsapp) onCreated(saved);
    } catch (error) {
      applyServerFieldErrors(error, form.setError, FIELDS);
      if (error instanceof ApiError) {
        const fromServer = Object.fromEntries(
          Object.entries(error.fields)
            .filter(([key]) => key.startsWith('instagram.'))
            .map(([key, code]) => [key.slice('instagram.'.length), fieldErrorText({ message: code })]),
        );
        setInstagramErrors(fromServer);
      }
      if (error instanceof ApiError && error.code === 'ERR_WAPP_GREETING_REQUIRED') form.setError('greetingMessage', { type: 'server', message: 'REQUIRED' });
      toastError(error);
    }
  });

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth scroll="paper" data-testid="connection-modal">
      <DialogTitle>{whatsapp ? t('connectionModal.editTitle') : t('connectionModal.addTitle')}</DialogTitle>
      <form noValidate onSubmit={onSubmit} style={{ display: 'contents' }}>
        <DialogContent dividers>
          <Stack gap={2.5}>
            <Stack direction={{ xs: 'column', sm: 'row' }} gap={2} alignItems="flex-start">
              <TextField
                {...muiRegister(form.register('name'))}
                label={t('connectionModal.name')}
                autoFocus
                fullWidth
                error={Boolean(errors.name)}
                helperText={fieldErrorText(errors.name)}
                slotProps={{ htmlInput: { 'data-testid': 'connection-name' } }}
              />
              {whatsapp ? null : (
                <Controller
                  control={form.control}
                  name="channel"
                  render={({ field }) => (
                    <FormControl sx={{ minWidth: { sm: 200 }, width: { xs: '100%', sm: 'auto' } }} data-testid="connection-channel">
                      <InputLabel id={channelLabelId}>{t('connectionModal.channel')}</InputLabel>
                      <Select
                        labelId={channelLabelId}
                        label={t('connectionModal.channel')}
                        value={field.value}
                        onChange={(event) => field.onChange(CHANNELS.find((option) => option === event.target.value) ?? 'whatsapp')}
                      >
                        {CHANNELS.map((option) => (
                          <MenuItem key={option} value={option}>
                            {t(`connectionModal.channels.${option}`)}
                          </MenuItem>
                        ))}
                      </Select>
                    </FormControl>
                  )}
                />
              )}
            </Stack>
            {whatsapp ? null : (
              <FormHelperText sx={{ mt: -1.5, mx: 1.75 }} data-testid="connection-channel-help">
                {t(`connectionModal.channelHelp.${channel}`)}
              </FormHelperText>
            )}
            {isInstagram ? <InstagramFields values={instagram} onChange={setInstagram} errors={instagramErrors} saved={Boolean(whatsapp)} /> : null}
            <Controller
              control={form.control}
              name="isDefault"
              render={({ field }) => (
                <FormControl>
                  <FormControlLabel
                    control={<Switch checked={field.value} onChange={(event) => field.onChange(event.target.checked)} slotProps={{ input: { 'aria-describedby': 'connection-default-help' } }} />}
                    label={t('connectionModal.isDefault')}
                    data-testid="connection-default"
                  />
                  <FormHelperText id="connection-default-help" sx={{ mt: -0.5, ml: 0 }}>
                    {t('connectionModal.isDefaultHelp')}
                  </FormHelperText>
                </FormControl>
              )}
            />
            <Controller
              control={form.control}
              name="greetingMessage"
              render={({ field }) => (
                <MessageTextField
                  label={t('connectionModal.greeting')}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  inputRef={field.ref}
                  error={fieldErrorText(errors.greetingMessage)}
                  helperText={t('connectionModal.greetingHelp')}
                  testId="connection-greeting"
                />
              )}
            />
            <Controller
              control={form.control}
              name="farewellMessage"
              render={({ field }) => (
                <MessageTextField
                  label={t('connectionModal.farewell')}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  inputRef={field.ref}
                  error={fieldErrorText(errors.farewellMessage)}
                  helperText={t('connectionModal.farewellHelp')}
                  testId="connection-farewell"
                  minRows={2}
                />
              )}
            />
            <Controller
              control={form.control}
              name="queueIds"
              render={({ field }) => <QueueMultiSelect label={t('connectionModal.queues')} value={field.value} onChange={field.onChange} testId="connection-queues" />}
            />
            <CsatFields form={csat} />
          </Stack>
        </DialogContent>
        <FormDialogActions onCancel={onClose} submitting={isSubmitting} editing={Boolean(whatsapp)} testIdPrefix="connection" />
      </form>
    </Dialog>
  );
}
