/**
 * What the sign-in answered about the account's safety: failed attempts since the last sign-in
 * (a notice until dismissed), and a password below today's policy (a dialog once, then a banner
 * until it is changed). Both lead to the profile dialog, where the password is changed.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../core/auth/AuthProvider';
import { formatShortDateTime } from '../../core/ui/formatDate';

const UserModal = lazy(() => import('../../features/users/UserModal'));

export function SignInNotices() {
  const { t } = useTranslation();
  const { user, passwordChangeRequired, failedAttempts, dismissFailedAttempts } = useAuth();
  const [askedNow, setAskedNow] = useState(true);
  const [profileOpen, setProfileOpen] = useState(false);
  if (!user) return null;

  const changePassword = () => {
    setAskedNow(false);
    setProfileOpen(true);
  };
  const changeButton = (
    <Button color="inherit" size="small" onClick={changePassword} sx={{ whiteSpace: 'nowrap' }} data-testid="sign-in-notice-change">
      {t('signInNotices.changePassword')}
    </Button>
  );

  return (
    <>
      {failedAttempts || (passwordChangeRequired && !askedNow) ? (
        <Stack gap={1} sx={{ px: 2, pt: 2 }}>
          {failedAttempts ? (
            <Alert
              severity="warning"
              role="status"
              data-testid="failed-attempts-notice"
              action={
                <>
                  {changeButton}
                  <Button color="inherit" size="small" onClick={dismissFailedAttempts} sx={{ whiteSpace: 'nowrap' }}>
                    {t('signInNotices.dismiss')}
                  </Button>
                </>
              }
            >
              {t('signInNotices.failed', { count: failedAttempts.count, when: formatShortDateTime(failedAttempts.lastAt), address: failedAttempts.lastAddress })}
            </Alert>
          ) : null}
          {passwordChangeRequired && !askedNow ? (
            <Alert severity="warning" role="status" action={changeButton} data-testid="password-change-banner">
              {t('signInNotices.weakBanner')}
            </Alert>
          ) : null}
        </Stack>
      ) : null}
      <Dialog open={passwordChangeRequired && askedNow && !profileOpen} onClose={() => setAskedNow(false)} aria-labelledby="password-change-title" data-testid="password-change-dialog">
        <DialogTitle id="password-change-title">{t('signInNotices.weakTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('signInNotices.weakText')}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setAskedNow(false)} data-testid="password-change-later">
            {t('signInNotices.later')}
          </Button>
          <Button variant="contained" onClick={changePassword} data-testid="password-change-now">
            {t('signInNotices.changePassword')}
          </Button>
        </DialogActions>
      </Dialog>
      {profileOpen ? (
        <Suspense fallback={null}>
          <UserModal open userId={user.id} onClose={() => setProfileOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
