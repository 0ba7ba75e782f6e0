/**
 * Close all: the dialog first says what would be closed (the user's own tickets, the waiting
 * ones of their queues, and for admins the tickets other agents are working on), and closes
 * other agents' tickets only when that box is ticked.
 */
import DoneAllOutlined from '@mui/icons-material/DoneAllOutlined';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { toastError } from '../../core/ui/toastError';
import { ticketListsKey } from './ticketLists';
import { closeAllSummary, closeAllTickets, type CloseAllSummary } from './tickets.api';

export function CloseAllButton() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [summary, setSummary] = useState<CloseAllSummary | null>(null);
  const [others, setOthers] = useState(false);
  const [busy, setBusy] = useState(false);

  const ask = async () => {
    try {
      setOthers(false);
      setSummary(await closeAllSummary());
    } catch (error) {
      toastError(error);
    }
  };

  const closeAll = async () => {
    setBusy(true);
    try {
      const { closed } = await closeAllTickets({ others });
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

  const mine = summary ? summary.own + summary.waiting : 0;
  const total = mine + (others && summary ? summary.others : 0);
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
              <DialogContentText data-testid="close-all-summary">{t('tickets.closeAllBody', { own: summary.own, waiting: summary.waiting })}</DialogContentText>
              {summary.others > 0 ? (
                <FormControlLabel
                  sx={{ mt: 1.5, alignItems: 'flex-start' }}
                  control={<Checkbox checked={others} onChange={(event) => setOthers(event.target.checked)} sx={{ pt: 0.25 }} data-testid="close-all-others" />}
                  label={t('tickets.closeAllOthers', { count: summary.others })}
                />
              ) : null}
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
