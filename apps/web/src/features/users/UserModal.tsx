/**
 * Adds or edits a user. Admins set every field; a user editing themself (Profile in the user
 * menu) sets only name, email and password.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { LIMITS, PROFILES } from '@zapdesk/shared/domain';
import type { TUser, TUserUpdate } from '@zapdesk/shared/schemas';
import { refreshSession, withSessionRotation } from '../../core/api/client';
import { useAuth } from '../../core/auth/AuthProvider';
import { applyServerFieldErrors, delay, fieldErrorText, passwordErrorText } from '../../core/forms/fieldErrors';
import { CenteredLoader } from '../../core/ui/CenteredLoader';
import { muiRegister } from '../../core/ui/muiRegister';
import { PasswordField } from '../../core/ui/PasswordField';
import { toastError } from '../../core/ui/toastError';
import { QueueMultiSelect } from '../queues/QueueMultiSelect';
import { useRoles } from '../roles/roles.api';
import { roleName } from '../roles/roleName';
import { useWhatsapps } from '../whatsapps/whatsapps.api';
import { userFormSchema, type UserFormValues } from './userForm';
import { createUser, fetchUser, saveUserInCache, updateUser, usersKeys } from './users.api';
import { FormDialogActions } from '../../core/ui/FormDialogActions';
import { TwoFactorSection } from '../auth/TwoFactorSection';

type Props = { open: boolean; userId?: number | undefined; onClose: () => void };

const EMPTY: UserFormValues = { name: '', email: '', password: '', currentPassword: '', profile: 'user', queueIds: [], whatsappId: null, roleId: null };

function toFormValues(user: TUser): UserFormValues {
  return {
    name: user.name,
    email: user.email,
    password: '',
    currentPassword: '',
    profile: user.profile,
    queueIds: user.queues.map((queue) => queue.id),
    whatsappId: user.whatsappId,
    roleId: user.roleId,
  };
}

export default function UserModal({ open, userId, onClose }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user: me, isAdmin, setUser } = useAuth();
  const editing = userId !== undefined;
  const isSelf = editing && userId === me?.id;
  const existing = useQuery({ queryKey: usersKeys.detail(userId ?? 0), queryFn: () => fetchUser(userId ?? 0), enabled: editing });
  const whatsapps = useWhatsapps(isAdmin);
  const roles = useRoles(isAdmin);
  const roleLabelId = useId();
  const profileLabelId = useId();
  const connectionLabelId = useId();

  const form = useForm<UserFormValues>({ resolver: zodResolver(userFormSchema(editing)), defaultValues: EMPTY });
  const { errors, isSubmitting } = form.formState;
  const { reset } = form;

  // The fields are drawn again once, when they first hold the user's values: MUI decides at mount
  // whether a label floats above a value, and a value put in afterwards would sit under its label.
  // Only the first fill: a later refresh of the user (two-step sign-in turned on) must not redraw
  // the form and lose what it shows (the recovery codes, shown once).
  const [filledAt, setFilledAt] = useState(0);
  useEffect(() => {
    if (!existing.data) return;
    reset(toFormValues(existing.data));
    setFilledAt((at) => at || existing.dataUpdatedAt);
  }, [existing.data, existing.dataUpdatedAt, reset]);

  const onSubmit = form.handleSubmit(async (values) => {
    if (isSelf && values.password && !values.currentPassword) {
      form.setError('currentPassword', { type: 'required', message: 'REQUIRED' });
      return;
    }
    await delay(LIMITS.submitDelayMs);
    const base: TUserUpdate = {
      name: values.name,
      email: values.email,
      ...(values.password ? { password: values.password } : {}),
      ...(isSelf && values.password ? { currentPassword: values.currentPassword } : {}),
    };
    const body: TUserUpdate = isAdmin ? { ...base, profile: values.profile, queueIds: values.queueIds, whatsappId: values.whatsappId, roleId: values.roleId } : base;
    try {
      const saved =
        userId === undefined
          ? await createUser({ ...body, password: values.password })
          : isSelf && values.password
            ? await withSessionRotation(() => updateUser(userId, body))
            : await updateUser(userId, body);
      saveUserInCache(queryClient, saved);
      if (isSelf) {
        setUser(saved);
        // A new password ends the older sessions: take the fresh refresh cookie for a new token.
        if (values.password) await refreshSession();
      }
      toast.success(t('userModal.saved'));
      onClose();
    } catch (error) {
      applyServerFieldErrors(error, form.setError, ['name', 'email', 'password', 'currentPassword', 'profile', 'queueIds', 'whatsappId', 'roleId']);
      toastError(error);
    }
  });

  const title = isSelf ? t('userModal.profileTitle') : editing ? t('userModal.editTitle') : t('userModal.addTitle');

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth scroll="paper" data-testid="user-modal">
      <DialogTitle>{title}</DialogTitle>
      {editing && existing.isPending ? (
        <DialogContent>
          <CenteredLoader />
        </DialogContent>
      ) : (
        <form key={filledAt} noValidate onSubmit={onSubmit}>
          <DialogContent dividers>
            <Stack gap={2.5}>
              <Stack direction={{ xs: 'column', sm: 'row' }} gap={2}>
                <TextField
                  {...muiRegister(form.register('name'))}
                  label={t('userModal.name')}
                  autoFocus
                  fullWidth
                  error={Boolean(errors.name)}
                  helperText={fieldErrorText(errors.name)}
                  slotProps={{ htmlInput: { 'data-testid': 'user-name' } }}
                />
                <TextField
                  {...muiRegister(form.register('email'))}
                  label={t('userModal.email')}
                  type="email"
                  fullWidth
                  error={Boolean(errors.email)}
                  helperText={fieldErrorText(errors.email)}
                  slotProps={{ htmlInput: { 'data-testid': 'user-email' } }}
                />
              </Stack>
              <Stack direction={{ xs: 'column', sm: 'row' }} gap={2}>
                <PasswordField
                  {...muiRegister(form.register('password'))}
                  label={t('userModal.password')}
                  autoComplete="new-password"
                  fullWidth
                  error={Boolean(errors.password)}
                  helperText={passwordErrorText(errors.password) ?? (editing ? t('userModal.passwordKeep') : t('passwordRules.hint'))}
                  slotProps={{ htmlInput: { 'data-testid': 'user-password' } }}
                />
                {isSelf ? (
                  <PasswordField
                    {...muiRegister(form.register('currentPassword'))}
                    label={t('userModal.currentPassword')}
                    autoComplete="current-password"
                    fullWidth
                    error={Boolean(errors.currentPassword)}
                    helperText={errors.currentPassword?.message === 'INVALID' ? t('userModal.currentPasswordWrong') : (fieldErrorText(errors.currentPassword) ?? t('userModal.currentPasswordHelp'))}
                    slotProps={{ htmlInput: { 'data-testid': 'user-current-password' } }}
                  />
                ) : null}
                {isAdmin ? (
                  <Controller
                    control={form.control}
                    name="profile"
                    render={({ field }) => (
                      <FormControl fullWidth data-testid="user-profile">
                        <InputLabel id={profileLabelId}>{t('userModal.profile')}</InputLabel>
                        <Select labelId={profileLabelId} label={t('userModal.profile')} value={field.value} onChange={(event) => field.onChange(event.target.value)}>
                          {PROFILES.map((profile) => (
                            <MenuItem key={profile} value={profile}>
                              {t(`users.profiles.${profile}`)}
                            </MenuItem>
                          ))}
                        </Select>
                      </FormControl>
                    )}
                  />
                ) : null}
              </Stack>
              {isAdmin && form.watch('profile') === 'user' ? (
                <Controller
                  control={form.control}
                  name="roleId"
                  render={({ field }) => {
                    const agentRole = (roles.data ?? []).find((role) => role.key === 'agent');
                    const value = field.value ?? agentRole?.id;
                    return (
                      <FormControl fullWidth data-testid="user-role">
                        <InputLabel id={roleLabelId}>{t('userModal.role')}</InputLabel>
                        <Select
                          labelId={roleLabelId}
                          label={t('userModal.role')}
                          value={value === undefined || !roles.data ? '' : String(value)}
                          onChange={(event) => field.onChange(event.target.value === '' || Number(event.target.value) === agentRole?.id ? null : Number(event.target.value))}
                        >
                          {(roles.data ?? []).map((role) => (
                            <MenuItem key={role.id} value={String(role.id)}>
                              {roleName(t, role)}
                            </MenuItem>
                          ))}
                        </Select>
                        <FormHelperText>{t('userModal.roleHint')}</FormHelperText>
                      </FormControl>
                    );
                  }}
                />
              ) : null}
              {isAdmin ? (
                <>
                  <Controller
                    control={form.control}
                    name="queueIds"
                    render={({ field }) => <QueueMultiSelect label={t('userModal.queues')} value={field.value} onChange={field.onChange} testId="user-queues" />}
                  />
                  <Controller
                    control={form.control}
                    name="whatsappId"
                    render={({ field }) => (
                      <FormControl fullWidth data-testid="user-connection">
                        <InputLabel id={connectionLabelId}>{t('userModal.connection')}</InputLabel>
                        <Select
                          labelId={connectionLabelId}
                          label={t('userModal.connection')}
                          value={field.value === null ? '' : String(field.value)}
                          onChange={(event) => field.onChange(event.target.value === '' ? null : Number(event.target.value))}
                        >
                          <MenuItem value="">
                            <em>{t('common.none')}</em>
                          </MenuItem>
                          {(whatsapps.data ?? []).map((connection) => (
                            <MenuItem key={connection.id} value={String(connection.id)}>
                              {connection.name}
                            </MenuItem>
                          ))}
                        </Select>
                      </FormControl>
                    )}
                  />
                </>
              ) : null}
              {existing.data && (isSelf || isAdmin) ? <TwoFactorSection user={existing.data} isSelf={isSelf} /> : null}
            </Stack>
          </DialogContent>
          <FormDialogActions onCancel={onClose} submitting={isSubmitting} editing={editing} testIdPrefix="user" />
        </form>
      )}
    </Dialog>
  );
}
