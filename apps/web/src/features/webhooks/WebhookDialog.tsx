/**
 * Adding or editing a webhook: the address, the events (by group, with 'All'), an optional own
 * secret (when adding) and whether it is active. A new webhook's secret is shown next, once.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, type FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { isErrorCode } from '@zapdesk/shared/errors';
import { WEBHOOK_EVENTS, WEBHOOK_SECRET_MAX, WEBHOOK_SECRET_MIN, ZWebhookInputSchema, type TWebhook, type TWebhookWithSecret, type WebhookEvent } from '@zapdesk/shared/webhooks';
import { ApiError } from '../../core/api/ApiError';
import { applyServerFieldErrors, fieldErrorText } from '../../core/forms/fieldErrors';
import { FormDialogActions } from '../../core/ui/FormDialogActions';
import { muiRegister } from '../../core/ui/muiRegister';
import { toastError } from '../../core/ui/toastError';
import { i18n } from '../../i18n/i18n';
import { createWebhook, saveWebhookInCache, updateWebhook } from './webhooks.api';
import { EVENT_GROUPS, eventHelp, eventName } from './webhookText';

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

const ZWebhookFormSchema = z.object({
  url: ZWebhookInputSchema.shape.url.refine(isHttpUrl, 'ERR_WEBHOOK_URL_INVALID'),
  events: ZWebhookInputSchema.shape.events,
  secret: z
    .string()
    .trim()
    .max(WEBHOOK_SECRET_MAX, 'TOO_LONG')
    .refine((value) => value === '' || value.length >= WEBHOOK_SECRET_MIN, 'TOO_SHORT'),
  enabled: z.boolean(),
});

/** An address error is an error code of the server's ('not allowed: internal network') or a validation code. */
function urlErrorText(error: FieldError | undefined): string | undefined {
  if (error?.message && isErrorCode(error.message)) return i18n.t('backendErrors', { returnObjects: true })[error.message];
  return fieldErrorText(error);
}

type Props = { webhook: TWebhook | null; onClose: () => void; onCreated: (webhook: TWebhookWithSecret) => void };

export function WebhookDialog({ webhook, onClose, onCreated }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm({
    resolver: zodResolver(ZWebhookFormSchema),
    defaultValues: { url: webhook?.url ?? '', events: webhook?.events ?? [...WEBHOOK_EVENTS], secret: '', enabled: webhook?.enabled ?? true },
  });
  const { errors, isSubmitting } = form.formState;
  // On a phone the dialog takes the screen: the events list is long.
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));

  const onSubmit = form.handleSubmit(async ({ url, events, secret, enabled }) => {
    try {
      if (webhook) {
        saveWebhookInCache(queryClient, await updateWebhook(webhook.id, { url, events, enabled }));
        toast.success(t('webhooks.saved'));
        onClose();
      } else {
        const created = await createWebhook({ url, events, enabled, ...(secret ? { secret } : {}) });
        saveWebhookInCache(queryClient, created);
        onCreated(created);
      }
    } catch (error) {
      if (error instanceof ApiError && (error.code === 'ERR_WEBHOOK_URL_INVALID' || error.code === 'ERR_WEBHOOK_URL_FORBIDDEN')) form.setError('url', { type: 'server', message: error.code });
      else applyServerFieldErrors(error, form.setError, ['url', 'events', 'secret', 'enabled']);
      toastError(error);
    }
  });

  return (
    <Dialog open onClose={isSubmitting ? undefined : onClose} maxWidth="md" fullWidth fullScreen={phone} data-testid="webhook-dialog">
      <DialogTitle>{webhook ? t('webhooks.form.editTitle') : t('webhooks.form.addTitle')}</DialogTitle>
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <DialogContent dividers>
          <Stack gap={2.5}>
            <TextField
              {...muiRegister(form.register('url'))}
              label={t('webhooks.form.url')}
              placeholder="https://"
              autoFocus
              fullWidth
              type="url"
              error={Boolean(errors.url)}
              helperText={urlErrorText(errors.url) ?? t('webhooks.form.urlHelp')}
              slotProps={{ htmlInput: { 'data-testid': 'webhook-url', inputMode: 'url', autoComplete: 'off', spellCheck: false } }}
            />
            <Controller
              control={form.control}
              name="events"
              render={({ field }) => <EventPicker value={field.value} onChange={field.onChange} error={errors.events ? t('webhooks.form.eventsRequired') : undefined} />}
            />
            {webhook ? (
              <Typography variant="body2" color="text.secondary" data-testid="webhook-secret-kept">
                {t('webhooks.form.secretKept', { hint: webhook.secretHint })}
              </Typography>
            ) : (
              <TextField
                {...muiRegister(form.register('secret'))}
                label={t('webhooks.form.secret')}
                fullWidth
                error={Boolean(errors.secret)}
                helperText={errors.secret ? fieldErrorText(errors.secret) : t('webhooks.form.secretHelp', { min: WEBHOOK_SECRET_MIN })}
                slotProps={{ htmlInput: { 'data-testid': 'webhook-secret', autoComplete: 'off', spellCheck: false, maxLength: WEBHOOK_SECRET_MAX, style: { fontFamily: 'monospace' } } }}
              />
            )}
            <Controller
              control={form.control}
              name="enabled"
              render={({ field }) => (
                <FormControlLabel
                  control={<Switch checked={field.value} onChange={(event) => field.onChange(event.target.checked)} data-testid="webhook-enabled" />}
                  label={t('webhooks.form.enabled')}
                />
              )}
            />
          </Stack>
        </DialogContent>
        <FormDialogActions onCancel={onClose} submitting={isSubmitting} editing={Boolean(webhook)} testIdPrefix="webhook" />
      </form>
    </Dialog>
  );
}

type PickerProps = { value: WebhookEvent[]; onChange: (events: WebhookEvent[]) => void; error: string | undefined };

/** The events by group; 'All' ticks or clears every one, and shows a dash when only some are ticked. */
function EventPicker({ value, onChange, error }: PickerProps) {
  const { t } = useTranslation();
  const all = value.length === WEBHOOK_EVENTS.length;
  const set = (event: WebhookEvent, on: boolean) => onChange(on ? WEBHOOK_EVENTS.filter((e) => e === event || value.includes(e)) : value.filter((e) => e !== event));
  return (
    <FormControl component="fieldset" error={Boolean(error)} data-testid="webhook-events">
      <FormLabel component="legend" sx={{ mb: 0.5 }}>
        {t('webhooks.form.events')}
      </FormLabel>
      <FormControlLabel
        control={<Checkbox checked={all} indeterminate={!all && value.length > 0} onChange={(event) => onChange(event.target.checked ? [...WEBHOOK_EVENTS] : [])} data-testid="webhook-events-all" />}
        label={t('webhooks.form.all')}
      />
      <Divider sx={{ my: 0.5 }} />
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(3, 1fr)' }, columnGap: 2, rowGap: 1 }}>
        {EVENT_GROUPS.map((group) => (
          <Box key={group.key} data-testid="webhook-event-group">
            <Typography variant="overline" color="text.secondary" component="div" sx={{ lineHeight: 1.8 }}>
              {t(`webhooks.groups.${group.key}`)}
            </Typography>
            {group.events.map((event) => (
              <FormControlLabel
                key={event}
                sx={{ alignItems: 'flex-start', display: 'flex', mr: 0, mb: 0.75 }}
                control={<Checkbox size="small" checked={value.includes(event)} onChange={(e) => set(event, e.target.checked)} sx={{ py: 0.25 }} data-testid={`webhook-event-${event}`} />}
                label={
                  <Box sx={{ pt: 0.25 }}>
                    <Typography variant="body2">{eventName(event)}</Typography>
                    <Typography variant="caption" color="text.secondary" component="div" sx={{ lineHeight: 1.35 }}>
                      {eventHelp(event)}
                    </Typography>
                  </Box>
                }
              />
            ))}
          </Box>
        ))}
      </Box>
      {error ? <FormHelperText>{error}</FormHelperText> : null}
    </FormControl>
  );
}
