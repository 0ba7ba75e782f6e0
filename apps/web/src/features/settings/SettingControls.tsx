import ContentCopy from '@mui/icons-material/ContentCopy';
import Autorenew from '@mui/icons-material/Autorenew';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { SETTINGS, TIME_CREATE_NEW_TICKET_OPTIONS, type SettingKey } from '@zapdesk/shared/domain';
import { ConfirmationDialog } from '../../core/ui/ConfirmationDialog';
import { PasswordField } from '../../core/ui/PasswordField';
import { toastError } from '../../core/ui/toastError';
import { regenerateApiToken, saveSettingInCache } from './settings.api';

type Save = (key: SettingKey, value: string) => Promise<boolean>;

export function ToggleControl({ settingKey, value, onSave }: { settingKey: SettingKey; value: string; onSave: Save }) {
  const { t } = useTranslation();
  // The switch moves on click; the saved value (or a live update) then confirms or moves it back.
  const [checked, setChecked] = useState(value === 'enabled');
  useEffect(() => setChecked(value === 'enabled'), [value]);

  const toggle = async (next: boolean) => {
    setChecked(next);
    if (!(await onSave(settingKey, next ? 'enabled' : 'disabled'))) setChecked(value === 'enabled');
  };

  return (
    <FormControlLabel
      labelPlacement="start"
      label={checked ? t('settings.enabled') : t('settings.disabled')}
      // The switch is named by its setting; 'Enabled'/'Disabled' beside it is its state, which it also reports.
      control={<Switch checked={checked} onChange={(event) => void toggle(event.target.checked)} slotProps={{ input: { 'aria-label': t(`settings.keys.${settingKey}.label`) } }} />}
      data-testid={`setting-${settingKey}`}
      slotProps={{ typography: { variant: 'body2', color: 'text.secondary', sx: { mr: 1 } } }}
      sx={{ mr: 0 }}
    />
  );
}

/** A setting with a fixed list of values; each value's label is translated. */
export function SelectControl({ settingKey, value, onSave }: { settingKey: SettingKey; value: string; onSave: Save }) {
  const { t } = useTranslation();
  const options: readonly { value: string; label: string }[] =
    settingKey === 'timeCreateNewTicket'
      ? TIME_CREATE_NEW_TICKET_OPTIONS.map((seconds) => ({ value: String(seconds), label: t(`settings.timeOptions.${seconds}`) }))
      : settingKey === 'emailSecurity' || settingKey === 'emailLanguage'
        ? SETTINGS[settingKey].options.map((option) => ({ value: option, label: t(`settings.options.${option}`) }))
        : [];
  return (
    <TextField
      select
      size="small"
      fullWidth
      value={value}
      onChange={(event) => void onSave(settingKey, event.target.value)}
      data-testid={`setting-${settingKey}`}
      // On the select itself (role combobox): a name on the wrapping div is not read.
      slotProps={{ htmlInput: { 'aria-label': t(`settings.keys.${settingKey}.label`) } }}
    >
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

function saveOnEnter(event: KeyboardEvent<HTMLElement>) {
  if (event.key === 'Enter' && event.target instanceof HTMLInputElement) event.target.blur();
}

/** A text value, saved when the field is left (or Enter is pressed) with a changed value. */
export function TextControl({ settingKey, value, onSave }: { settingKey: SettingKey; value: string; onSave: Save }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(value);
  const [focused, setFocused] = useState(false);

  // A live update from another tab shows up unless the user is typing here.
  useEffect(() => {
    if (!focused) setDraft(value);
  }, [value, focused]);

  return (
    <TextField
      size="small"
      fullWidth
      value={draft}
      onChange={(event) => setDraft(event.target.value)}
      onFocus={() => setFocused(true)}
      onBlur={() => {
        setFocused(false);
        if (draft !== value) void onSave(settingKey, draft.trim());
      }}
      onKeyDown={saveOnEnter}
      slotProps={{ htmlInput: { 'data-testid': `setting-${settingKey}`, 'aria-label': t(`settings.keys.${settingKey}.label`) } }}
    />
  );
}

/** A write-only secret: never shown; a typed value replaces the stored one. */
export function SecretControl({ settingKey, isSet, onSave }: { settingKey: SettingKey; isSet: boolean; onSave: Save }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  return (
    <PasswordField
      size="small"
      fullWidth
      value={draft}
      autoComplete="new-password"
      onChange={(event) => setDraft(event.target.value)}
      onBlur={() => {
        if (draft === '') return;
        void onSave(settingKey, draft).then((saved) => {
          if (saved) setDraft('');
        });
      }}
      onKeyDown={saveOnEnter}
      placeholder={isSet ? t('settings.secretSaved') : t('settings.secretEmpty')}
      slotProps={{ htmlInput: { 'data-testid': `setting-${settingKey}`, 'aria-label': t(`settings.keys.${settingKey}.label`) } }}
    />
  );
}

export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // Plain-HTTP deployments have no Clipboard API.
  const area = document.createElement('textarea');
  area.value = text;
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}

export function ApiTokenControl({ value }: { value: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);

  const regenerate = async () => {
    try {
      saveSettingInCache(queryClient, await regenerateApiToken());
      toast.success(t('settings.regenerated'));
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <Stack direction="row" gap={1} sx={{ width: '100%' }}>
      <TextField
        size="small"
        fullWidth
        value={value}
        slotProps={{
          htmlInput: { readOnly: true, 'data-testid': 'setting-userApiToken', 'aria-label': t('settings.keys.userApiToken.label'), style: { fontFamily: 'monospace' } },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <Tooltip title={t('common.copy')}>
                  <IconButton
                    size="small"
                    edge="end"
                    aria-label={t('common.copy')}
                    data-testid="copy-api-token"
                    onClick={() =>
                      void copyText(value).then(
                        () => toast.info(t('common.copied')),
                        (error: unknown) => toastError(error),
                      )
                    }
                  >
                    <ContentCopy fontSize="small" />
                  </IconButton>
                </Tooltip>
              </InputAdornment>
            ),
          },
        }}
      />
      <Button variant="outlined" startIcon={<Autorenew />} onClick={() => setConfirming(true)} data-testid="regenerate-api-token" sx={{ flexShrink: 0 }}>
        {t('settings.regenerate')}
      </Button>
      <ConfirmationDialog open={confirming} title={t('settings.regenerateTitle')} confirmLabel={t('settings.regenerate')} onClose={() => setConfirming(false)} onConfirm={regenerate}>
        {t('settings.regenerateMessage')}
      </ConfirmationDialog>
    </Stack>
  );
}
