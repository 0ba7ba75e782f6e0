import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import DialogActions from '@mui/material/DialogActions';
import { useTranslation } from 'react-i18next';

/** The Cancel and Add/Save buttons of every form dialog; Save shows a spinner while submitting. */
export function FormDialogActions({ onCancel, submitting, editing, testIdPrefix }: { onCancel: () => void; submitting: boolean; editing: boolean; testIdPrefix: string }) {
  const { t } = useTranslation();
  return (
    <DialogActions sx={{ px: 3, py: 2 }}>
      <Button onClick={onCancel} color="inherit" disabled={submitting} data-testid={`${testIdPrefix}-cancel`}>
        {t('common.cancel')}
      </Button>
      <Button type="submit" variant="contained" disabled={submitting} data-testid={`${testIdPrefix}-submit`} startIcon={submitting ? <CircularProgress size={16} color="inherit" /> : null}>
        {editing ? t('common.save') : t('common.add')}
      </Button>
    </DialogActions>
  );
}
