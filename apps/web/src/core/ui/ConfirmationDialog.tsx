import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

type Props = {
  open: boolean;
  title: string;
  children: ReactNode;
  onClose: () => void;
  onConfirm: () => Promise<unknown> | void;
  confirmLabel?: string;
  /** The button that leaves things as they are; 'Cancelar' unless that could read as cancelling the thing itself. */
  cancelLabel?: string;
  danger?: boolean;
};

/** A yes/no dialog; the confirm button waits for the action and closes the dialog afterwards. */
export function ConfirmationDialog({ open, title, children, onClose, onConfirm, confirmLabel, cancelLabel, danger = true }: Props) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  // Keep showing what was asked while the dialog fades out (callers clear their state on close).
  const [content, setContent] = useState({ title, children });
  if (open && (content.title !== title || content.children !== children)) setContent({ title, children });

  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      onClose();
    }
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth data-testid="confirmation-dialog">
      <DialogTitle>{content.title}</DialogTitle>
      <DialogContent>
        <DialogContentText component="div">{content.children}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} color="inherit" data-testid="confirmation-cancel">
          {cancelLabel ?? t('confirmation.cancel')}
        </Button>
        <Button onClick={() => void confirm()} variant="contained" color={danger ? 'error' : 'primary'} disabled={busy} data-testid="confirmation-confirm">
          {confirmLabel ?? t('confirmation.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
