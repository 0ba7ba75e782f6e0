/** Close: after a confirmation, every open and pending ticket the user may see is closed. */
import DoneAllOutlined from '@mui/icons-material/DoneAllOutlined';
import Button from '@mui/material/Button';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ConfirmationDialog } from '../../core/ui/ConfirmationDialog';
import { toastError } from '../../core/ui/toastError';
import { ticketListsKey } from './ticketLists';
import { closeAllTickets } from './tickets.api';

export function CloseAllButton() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);

  const closeAll = async () => {
    try {
      await closeAllTickets();
      toast.success(t('tickets.closeAllDone'));
    } catch (error) {
      toastError(error);
    }
    // The server announces each closed ticket, but a list read before those events must not keep them.
    await queryClient.invalidateQueries({ queryKey: ticketListsKey });
  };

  return (
    <>
      <Button
        size="small"
        variant="outlined"
        color="inherit"
        startIcon={<DoneAllOutlined />}
        onClick={() => setConfirming(true)}
        sx={{ color: 'text.secondary', borderColor: 'divider' }}
        data-testid="tickets-close-all"
      >
        {t('tickets.closeAll')}
      </Button>
      <ConfirmationDialog open={confirming} title={t('tickets.closeAllTitle')} confirmLabel={t('tickets.closeAllConfirm')} onClose={() => setConfirming(false)} onConfirm={closeAll}>
        {t('tickets.closeAllBody')}
      </ConfirmationDialog>
    </>
  );
}
