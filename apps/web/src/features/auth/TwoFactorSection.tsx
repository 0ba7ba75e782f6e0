/**
 * Two-step verification in the user dialog. One's own (Profile): turn it on with the
 * authenticator app, make new recovery codes, turn it off. An admin editing someone else sees
 * whether it is on and may turn it off for them (a lost phone).
 */
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { TUser } from '@zapdesk/shared/schemas';
import type { TTwoFactorSetup } from '@zapdesk/shared/two-factor';
import { ConfirmationDialog } from '../../core/ui/ConfirmationDialog';
import { PasswordField } from '../../core/ui/PasswordField';
import { toastError } from '../../core/ui/toastError';
import { saveUserInCache } from '../users/users.api';
import { RecoveryCodesPanel } from './RecoveryCodesPanel';
import { TwoFactorSetupPanel } from './TwoFactorSetupPanel';
import { beginTwoFactorSetup, disableTwoFactor, enableTwoFactor, fetchTwoFactorStatus, regenerateRecoveryCodes, resetTwoFactor, twoFactorKeys } from './twoFactor.api';

type Dialogs = 'setup' | 'disable' | 'codes' | 'reset' | null;

export function TwoFactorSection({ user, isSelf }: { user: TUser; isSelf: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: twoFactorKeys.status, queryFn: fetchTwoFactorStatus, enabled: isSelf });
  const [open, setOpen] = useState<Dialogs>(null);
  const enabled = isSelf ? (status.data?.enabled ?? user.twoFactorEnabled) : user.twoFactorEnabled;

  const changed = async (on: boolean) => {
    saveUserInCache(queryClient, { ...user, twoFactorEnabled: on });
    if (isSelf) await queryClient.invalidateQueries({ queryKey: twoFactorKeys.status });
  };

  return (
    <Stack gap={1.5} data-testid="two-factor-section">
      <Divider />
      <Stack direction="row" alignItems="center" gap={1.5} flexWrap="wrap">
        <Typography variant="subtitle1" fontWeight={600} component="h2">
          {t('twoFactor.title')}
        </Typography>
        <Chip size="small" color={enabled ? 'success' : 'default'} variant={enabled ? 'filled' : 'outlined'} label={enabled ? t('twoFactor.on') : t('twoFactor.off')} data-testid="two-factor-state" />
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {isSelf ? (enabled ? t('twoFactor.onHelp', { count: status.data?.recoveryCodesLeft ?? 0 }) : t('twoFactor.offHelp')) : enabled ? t('twoFactor.adminOnHelp') : t('twoFactor.adminOffHelp')}
      </Typography>
      <Stack direction="row" gap={1} flexWrap="wrap">
        {isSelf && !enabled ? (
          <Button variant="contained" onClick={() => setOpen('setup')} data-testid="two-factor-enable">
            {t('twoFactor.turnOn')}
          </Button>
        ) : null}
        {isSelf && enabled ? (
          <>
            <Button variant="outlined" onClick={() => setOpen('codes')} data-testid="two-factor-new-codes">
              {t('twoFactor.newCodes')}
            </Button>
            {status.data?.required ? null : (
              <Button variant="outlined" color="error" onClick={() => setOpen('disable')} data-testid="two-factor-disable">
                {t('twoFactor.turnOff')}
              </Button>
            )}
          </>
        ) : null}
        {!isSelf && enabled ? (
          <Button variant="outlined" color="error" onClick={() => setOpen('reset')} data-testid="two-factor-reset">
            {t('twoFactor.turnOff')}
          </Button>
        ) : null}
      </Stack>
      {status.data?.required && isSelf ? <Typography variant="body2">{t('twoFactor.requiredNote')}</Typography> : null}

      {open === 'setup' ? <SetupDialog onClose={() => setOpen(null)} onEnabled={() => changed(true)} /> : null}
      {open === 'codes' ? <NewCodesDialog onClose={() => setOpen(null)} onDone={() => changed(true)} /> : null}
      {open === 'disable' ? <DisableDialog onClose={() => setOpen(null)} onDisabled={() => changed(false)} /> : null}
      <ConfirmationDialog
        open={open === 'reset'}
        title={t('twoFactor.resetTitle', { name: user.name })}
        confirmLabel={t('twoFactor.turnOff')}
        onClose={() => setOpen(null)}
        onConfirm={async () => {
          try {
            await resetTwoFactor(user.id);
            await changed(false);
            toast.success(t('twoFactor.resetDone', { name: user.name }));
          } catch (error) {
            toastError(error);
          }
        }}
      >
        {t('twoFactor.resetMessage')}
      </ConfirmationDialog>
    </Stack>
  );
}

function SetupDialog({ onClose, onEnabled }: { onClose: () => void; onEnabled: () => Promise<void> }) {
  const { t } = useTranslation();
  // Asked once per opening: a new request would replace the secret the phone may have just scanned.
  const setup = useQuery<TTwoFactorSetup>({
    queryKey: ['auth-2fa-setup'],
    queryFn: beginTwoFactorSetup,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const [codes, setCodes] = useState<string[] | null>(null);

  return (
    <Dialog open onClose={codes ? undefined : onClose} maxWidth="xs" fullWidth data-testid="two-factor-dialog">
      <DialogTitle>{t('twoFactor.setupTitle')}</DialogTitle>
      <DialogContent dividers>
        {codes ? (
          <Stack gap={2}>
            <Typography variant="body2">{t('twoFactor.enabled')}</Typography>
            <RecoveryCodesPanel codes={codes} />
          </Stack>
        ) : setup.data ? (
          <TwoFactorSetupPanel
            setup={setup.data}
            submitLabel={t('twoFactor.turnOn')}
            onCode={async (code) => {
              try {
                setCodes(await enableTwoFactor(code));
                await onEnabled();
              } catch (error) {
                toastError(error);
              }
            }}
          />
        ) : setup.isError ? (
          <Typography color="error">{t('errors.generic')}</Typography>
        ) : (
          <Typography>{t('common.loading')}</Typography>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose} variant={codes ? 'contained' : 'text'} color={codes ? 'primary' : 'inherit'} data-testid="two-factor-dialog-close">
          {codes ? t('twoFactor.savedCodes') : t('common.cancel')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** A small dialog that asks for a code (and the password when turning off), then acts. */
function CodeDialog(props: {
  title: string;
  intro: string;
  withPassword: boolean;
  submitLabel: string;
  danger?: boolean;
  onClose: () => void;
  onSubmit: (values: { password: string; code: string }) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    setBusy(true);
    try {
      if (await props.onSubmit({ password, code: code.trim() })) return;
      setCode('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={props.onClose} maxWidth="xs" fullWidth data-testid="two-factor-code-dialog">
      <form noValidate onSubmit={submit}>
        <DialogTitle>{props.title}</DialogTitle>
        <DialogContent dividers>
          <Stack gap={2}>
            <Typography variant="body2">{props.intro}</Typography>
            {props.withPassword ? (
              <PasswordField
                label={t('userModal.currentPassword')}
                value={password}
                onChange={(event) => setPassword(event.target.value)}
                autoComplete="current-password"
                fullWidth
                slotProps={{ htmlInput: { 'data-testid': 'two-factor-password' } }}
              />
            ) : null}
            <TextField
              label={t('twoFactor.codeOrRecoveryLabel')}
              value={code}
              onChange={(event) => setCode(event.target.value)}
              autoComplete="one-time-code"
              fullWidth
              slotProps={{ htmlInput: { maxLength: 20, 'data-testid': 'two-factor-code' } }}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={props.onClose} color="inherit" disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            color={props.danger ? 'error' : 'primary'}
            disabled={busy || code.trim() === '' || (props.withPassword && password === '')}
            data-testid="two-factor-code-submit"
          >
            {props.submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

function DisableDialog({ onClose, onDisabled }: { onClose: () => void; onDisabled: () => Promise<void> }) {
  const { t } = useTranslation();
  return (
    <CodeDialog
      title={t('twoFactor.disableTitle')}
      intro={t('twoFactor.disableIntro')}
      withPassword
      danger
      submitLabel={t('twoFactor.turnOff')}
      onClose={onClose}
      onSubmit={async (values) => {
        try {
          await disableTwoFactor(values);
          await onDisabled();
          toast.success(t('twoFactor.disabled'));
          onClose();
          return true;
        } catch (error) {
          toastError(error);
          return false;
        }
      }}
    />
  );
}

function NewCodesDialog({ onClose, onDone }: { onClose: () => void; onDone: () => Promise<void> }) {
  const { t } = useTranslation();
  const [codes, setCodes] = useState<string[] | null>(null);
  if (codes) {
    return (
      <Dialog open maxWidth="xs" fullWidth data-testid="two-factor-dialog">
        <DialogTitle>{t('twoFactor.newCodes')}</DialogTitle>
        <DialogContent dividers>
          <RecoveryCodesPanel codes={codes} />
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button variant="contained" onClick={onClose} data-testid="two-factor-dialog-close">
            {t('twoFactor.savedCodes')}
          </Button>
        </DialogActions>
      </Dialog>
    );
  }
  return (
    <CodeDialog
      title={t('twoFactor.newCodes')}
      intro={t('twoFactor.newCodesIntro')}
      withPassword={false}
      submitLabel={t('twoFactor.newCodes')}
      onClose={onClose}
      onSubmit={async ({ code }) => {
        try {
          setCodes(await regenerateRecoveryCodes(code));
          await onDone();
          return true;
        } catch (error) {
          toastError(error);
          return false;
        }
      }}
    />
  );
}
