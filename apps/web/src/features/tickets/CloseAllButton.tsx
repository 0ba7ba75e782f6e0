/**
 * Close all: the dialog first says what will be closed, with the counts. An admin closes every
 * open and waiting ticket (their own, the waiting ones, and those other agents are working on,
 * named); an agent closes only their own open tickets.
 */
import DoneAllOutlined from '@mui/icons-material/DoneAllOutlined';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { isAdminProfile } from '@zapdesk/shared/domain';
import { useAuth } from '../../core/auth/AuthProvider';
import { toastError } from '../../core/ui/toastError';
import { ticketListsKey } from './ticketLists';
import { closeAllSummary, closeAllTickets, type CloseAllSummary } from './tickets.api';

export function CloseAllButton() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const [summary, setSummary] = useState<CloseAllSummary | null>(null);
  const [busy, setBusy] = useState(false);

  const ask = async () => {
    try {
      setSummary(await closeAllSummary());
    } catch (error) {
      toastError(error);
    }
  };

  const closeAll = async () => {
    setBusy(true);
    try {
      const { closed } = await closeAllTickets();
      toast.success(t('tickets.closeAllDone', { count: closed }));
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(false);
      setSummary(null);
    }
    // The server announces each closed ticket, but a list read before those events must not keep them.
    await queryClient.invalidateQueries({ queryKey: ticketListsKey });
  };

  const total = summary ? summary.own + summary.waiting + summary.others : 0;
  const isAdmin = Boolean(user && isAdminProfile(user.profile));
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        color="inherit"
        startIcon={<DoneAllOutlined />}
        onClick={() => void ask()}
        sx={{ color: 'text.secondary', borderColor: 'divider' }}
        data-testid="tickets-close-all"
      >
        {t('tickets.closeAll')}
      </Button>
      <Dialog open={summary !== null} onClose={() => setSummary(null)} maxWidth="xs" fullWidth data-testid="close-all-dialog">
        <DialogTitle>{t('tickets.closeAllTitle')}</DialogTitle>
        <DialogContent>
          {summary && summary.own + summary.waiting + summary.others === 0 ? (
            <DialogContentText data-testid="close-all-nothing">{t('tickets.closeAllNothing')}</DialogContentText>
          ) : summary ? (
            <>
              <DialogContentText data-testid="close-all-summary">
                {isAdmin ? t('tickets.closeAllBodyAdmin', { count: total, own: summary.own, waiting: summary.waiting, others: summary.others }) : t('tickets.closeAllBody', { count: summary.own })}
              </DialogContentText>
              <DialogContentText sx={{ mt: 1.5, fontSize: 14 }}>{t('tickets.closeAllNoFarewell')}</DialogContentText>
            </>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setSummary(null)} color="inherit" data-testid="close-all-cancel">
            {t('common.cancel')}
          </Button>
          <Button onClick={() => void closeAll()} variant="contained" color="error" disabled={busy || total === 0} data-testid="close-all-confirm">
            {t('tickets.closeAllConfirm', { count: total })}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
