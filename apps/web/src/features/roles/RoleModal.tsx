/** Creates or edits a role: its name and, for each permission, a tick with what it lets the role's users do. */
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { PERMISSIONS, type Permission } from '@zapdesk/shared/permissions';
import type { TRole } from '@zapdesk/shared/roles';
import { ApiError } from '../../core/api/ApiError';
import { FormDialogActions } from '../../core/ui/FormDialogActions';
import { toastError } from '../../core/ui/toastError';
import { createRole, rolesKey, updateRole } from './roles.api';
import { roleName } from './roleName';

type Props = { role: TRole | null; onClose: () => void };

export function RoleModal({ role, onClose }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const builtIn = role?.key != null;
  const [name, setName] = useState(role?.name ?? '');
  const [granted, setGranted] = useState<Set<Permission>>(new Set(role?.permissions ?? []));
  const [twoFactorRequired, setTwoFactorRequired] = useState(role?.twoFactorRequired ?? false);
  const [nameError, setNameError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const toggle = (permission: Permission) => {
    const next = new Set(granted);
    if (next.has(permission)) next.delete(permission);
    else next.add(permission);
    setGranted(next);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed.length < 2) return setNameError(t(trimmed ? 'validation.TOO_SHORT' : 'validation.REQUIRED'));
    setSaving(true);
    try {
      const input = { name: trimmed, permissions: PERMISSIONS.filter((p) => granted.has(p)), twoFactorRequired };
      if (role) await updateRole(role.id, input);
      else await createRole(input);
      await queryClient.invalidateQueries({ queryKey: rolesKey });
      toast.success(t('roles.saved'));
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ERR_ROLE_NAME_TAKEN') setNameError(t('backendErrors.ERR_ROLE_NAME_TAKEN'));
      toastError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth data-testid="role-modal">
      <DialogTitle>{role ? t('roles.editTitle') : t('roles.addTitle')}</DialogTitle>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogContent dividers>
          <Stack gap={2}>
            <TextField
              label={t('roles.name')}
              value={builtIn && role ? roleName(t, role) : name}
              onChange={(event) => {
                setName(event.target.value);
                setNameError(null);
              }}
              disabled={builtIn}
              autoFocus={!builtIn}
              fullWidth
              error={nameError !== null}
              helperText={nameError ?? (builtIn ? t('roles.builtInName') : undefined)}
              slotProps={{ htmlInput: { 'data-testid': 'role-name', maxLength: 50 } }}
            />
            <Typography variant="subtitle2">{t('roles.whatTheyMayDo')}</Typography>
            <FormGroup>
              {PERMISSIONS.map((permission) => (
                <FormControlLabel
                  key={permission}
                  sx={{ alignItems: 'flex-start', mb: 1 }}
                  control={
                    <Checkbox
                      checked={granted.has(permission)}
                      onChange={() => toggle(permission)}
                      sx={{ pt: 0.25 }}
                      slotProps={{ input: { 'aria-describedby': `perm-${permission}-hint` } }}
                      data-testid={`perm-${permission}`}
                    />
                  }
                  label={
                    <span>
                      <Typography variant="body2" fontWeight={600} component="span" display="block">
                        {t(`permissions.${permission}.label`)}
                      </Typography>
                      <Typography variant="caption" color="text.secondary" component="span" display="block" id={`perm-${permission}-hint`}>
                        {t(`permissions.${permission}.hint`)}
                      </Typography>
                    </span>
                  }
                />
              ))}
            </FormGroup>
            <FormControlLabel
              sx={{ alignItems: 'flex-start' }}
              control={
                <Checkbox
                  checked={twoFactorRequired}
                  onChange={(event) => setTwoFactorRequired(event.target.checked)}
                  sx={{ pt: 0.25 }}
                  slotProps={{ input: { 'aria-describedby': 'role-2fa-hint' } }}
                  data-testid="role-two-factor"
                />
              }
              label={
                <span>
                  <Typography variant="body2" fontWeight={600} component="span" display="block">
                    {t('roles.twoFactorRequired')}
                  </Typography>
                  <Typography variant="caption" color="text.secondary" component="span" display="block" id="role-2fa-hint">
                    {t('roles.twoFactorRequiredHint')}
                  </Typography>
                </span>
              }
            />
            <Typography variant="caption" color="text.secondary">
              {t('roles.adminsHoldAll')}
            </Typography>
          </Stack>
        </DialogContent>
        <FormDialogActions onCancel={onClose} submitting={saving} editing={Boolean(role)} testIdPrefix="role" />
      </form>
    </Dialog>
  );
}
