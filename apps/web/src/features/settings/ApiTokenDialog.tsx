/**
 * Making a named API token: a name, what it may do, an optional expiry date. Once made, the same
 * dialog shows the token itself, the only time it is ever shown, with a copy button.
 */
import ContentCopy from '@mui/icons-material/ContentCopy';
import WarningAmber from '@mui/icons-material/WarningAmber';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { API_TOKEN_NAME_MAX, API_TOKEN_PERMISSIONS } from '@zapdesk/shared/api-tokens';
import type { Permission } from '@zapdesk/shared/permissions';
import { ApiError } from '../../core/api/ApiError';
import { fieldErrorText } from '../../core/forms/fieldErrors';
import { toastError } from '../../core/ui/toastError';
import { createApiToken, saveApiTokenInCache } from './apiTokens.api';
import { copyText } from './SettingControls';

type Errors = Partial<Record<'name' | 'permissions' | 'expiresAt', string>>;

/** YYYY-MM-DD of a local day, as a date field reads and writes it. */
function localDay(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The token stops working when the chosen day begins, in the browser's time zone. */
function startOfDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1).toISOString();
}

export function ApiTokenDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<Permission[]>([]);
  const [expiresOn, setExpiresOn] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [submitting, setSubmitting] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const tomorrow = localDay(new Date(Date.now() + 86_400_000));

  // A field's error goes once the field is changed.
  const clearError = (field: keyof Errors) => setErrors(({ [field]: _gone, ...rest }) => rest);
  const toggle = (permission: Permission, on: boolean) => {
    setPermissions((current) => (on ? [...current, permission] : current.filter((p) => p !== permission)));
    clearError('permissions');
  };

  const validate = (): Errors => {
    const found: Errors = {};
    const trimmed = name.trim();
    if (trimmed === '') found.name = fieldErrorText({ message: 'REQUIRED' });
    else if (trimmed.length > API_TOKEN_NAME_MAX) found.name = fieldErrorText({ message: 'TOO_LONG' });
    if (permissions.length === 0) found.permissions = t('settings.apiTokens.permissionsHelp');
    if (expiresOn !== '' && expiresOn < tomorrow) found.expiresAt = t('settings.apiTokens.pastDate');
    return found;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSubmitting(true);
    try {
      const answer = await createApiToken({ name: name.trim(), permissions, expiresAt: expiresOn ? startOfDay(expiresOn) : null });
      saveApiTokenInCache(queryClient, answer.apiToken);
      setCreated(answer.token);
    } catch (error) {
      if (error instanceof ApiError) {
        const server: Errors = {};
        for (const [path, code] of Object.entries(error.fields)) {
          const field = path.split('.')[0];
          if (field === 'name' || field === 'permissions' || field === 'expiresAt') server[field] = fieldErrorText({ message: code });
        }
        setErrors(server);
      }
      toastError(error);
    } finally {
      setSubmitting(false);
    }
  };

  if (created !== null) {
    return (
      // A click beside the dialog does not close it: the token would be lost before it was copied.
      <Dialog open onClose={(_event, reason) => (reason === 'backdropClick' ? undefined : onClose())} maxWidth="sm" fullWidth data-testid="api-token-created">
        <DialogTitle>{t('settings.apiTokens.createdTitle')}</DialogTitle>
        <DialogContent dividers>
          <Stack gap={2}>
            <Alert severity="warning" icon={<WarningAmber />} data-testid="api-token-warning">
              {t('settings.apiTokens.copyNow')}
            </Alert>
            <TextField
              label={t('settings.apiTokens.tokenLabel')}
              value={created}
              fullWidth
              slotProps={{
                htmlInput: { readOnly: true, 'data-testid': 'api-token-value', style: { fontFamily: 'monospace' } },
                input: {
                  endAdornment: (
                    <InputAdornment position="end">
                      <Tooltip title={t('settings.apiTokens.copy')}>
                        <IconButton
                          edge="end"
                          aria-label={t('settings.apiTokens.copy')}
                          data-testid="api-token-copy"
                          onClick={() => void copyText(created).then(() => toast.info(t('common.copied')), toastError)}
                        >
                          <ContentCopy fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    </InputAdornment>
                  ),
                },
              }}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button variant="contained" onClick={onClose} data-testid="api-token-done">
            {t('settings.apiTokens.done')}
          </Button>
        </DialogActions>
      </Dialog>
    );
  }

  return (
    <Dialog open onClose={submitting ? undefined : onClose} maxWidth="sm" fullWidth data-testid="api-token-dialog">
      <DialogTitle>{t('settings.apiTokens.createTitle')}</DialogTitle>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogContent dividers>
          <Stack gap={2.5}>
            <TextField
              label={t('settings.apiTokens.name')}
              value={name}
              onChange={(event) => {
                setName(event.target.value);
                clearError('name');
              }}
              autoFocus
              fullWidth
              error={Boolean(errors.name)}
              helperText={errors.name ?? t('settings.apiTokens.nameHelp')}
              slotProps={{ htmlInput: { 'data-testid': 'api-token-name', maxLength: API_TOKEN_NAME_MAX } }}
            />
            <FormControl component="fieldset" error={Boolean(errors.permissions)}>
              <FormLabel component="legend">{t('settings.apiTokens.permissions')}</FormLabel>
              <FormGroup>
                {API_TOKEN_PERMISSIONS.map((permission) => (
                  <FormControlLabel
                    key={permission}
                    control={<Checkbox checked={permissions.includes(permission)} onChange={(event) => toggle(permission, event.target.checked)} data-testid={`api-token-permission-${permission}`} />}
                    label={t(`settings.apiTokens.permissionNames.${permission}`)}
                  />
                ))}
              </FormGroup>
              {errors.permissions ? <FormHelperText>{errors.permissions}</FormHelperText> : null}
            </FormControl>
            <TextField
              type="date"
              label={t('settings.apiTokens.expires')}
              value={expiresOn}
              onChange={(event) => {
                setExpiresOn(event.target.value);
                clearError('expiresAt');
              }}
              error={Boolean(errors.expiresAt)}
              helperText={errors.expiresAt ?? t('settings.apiTokens.expiresHelp')}
              sx={{ maxWidth: 260 }}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: tomorrow, 'data-testid': 'api-token-expires' } }}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onClose} color="inherit" disabled={submitting} data-testid="api-token-cancel">
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={submitting} data-testid="api-token-submit" startIcon={submitting ? <CircularProgress size={16} color="inherit" /> : null}>
            {t('settings.apiTokens.create')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
