import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isErrorCode } from '@zapdesk/shared/errors';
import type { TContactImportResult } from '@zapdesk/shared/schemas';
import { isValidationCode } from '../../core/forms/fieldErrors';
import { toastError } from '../../core/ui/toastError';
import { contactsKeys, importContacts } from './contacts.api';

const FIELD_LABELS = { name: 'contactModal.name', number: 'contactModal.number', email: 'contactModal.email' } as const;

function isField(value: string): value is keyof typeof FIELD_LABELS {
  return Object.hasOwn(FIELD_LABELS, value);
}

/** The server reports why a line was skipped as codes ('number: DIGITS_ONLY', 'ERR_DUPLICATED_CONTACT'): show them translated. */
function useSkipReason() {
  const { t } = useTranslation();
  return (reason: string): string => {
    if (isErrorCode(reason)) return t(`backendErrors.${reason}`);
    if (reason === 'DUPLICATED_IN_FILE') return t('contactImport.duplicatedInFile');
    const match = /^(\w+): (\w+)$/.exec(reason);
    const field = match?.[1] ?? '';
    const code = match?.[2] ?? '';
    if (isField(field) && isValidationCode(code)) return `${t(FIELD_LABELS[field])}: ${t(`validation.${code}`)}`;
    return reason;
  };
}

export function ContactImportDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<TContactImportResult | null>(null);
  const skipReason = useSkipReason();

  const submit = async () => {
    if (!file) return;
    setBusy(true);
    try {
      setResult(await importContacts(file));
      await queryClient.invalidateQueries({ queryKey: contactsKeys.list });
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth data-testid="contact-import-dialog">
      <DialogTitle>{t('contactImport.title')}</DialogTitle>
      <DialogContent dividers>
        <Stack gap={2}>
          <DialogContentText>{t('contactImport.help')}</DialogContentText>
          <Button component="label" variant="outlined" startIcon={<UploadFileOutlined />} sx={{ alignSelf: 'flex-start' }}>
            {file ? file.name : t('contactImport.choose')}
            <input
              hidden
              type="file"
              accept=".csv,text/csv"
              data-testid="contact-import-file"
              onChange={(event) => {
                setFile(event.target.files?.[0] ?? null);
                setResult(null);
              }}
            />
          </Button>
          {result ? (
            <Stack gap={1} data-testid="contact-import-result">
              <Alert severity="success">{t('contactImport.created', { count: result.created })}</Alert>
              {result.skipped.length > 0 ? (
                <Alert severity="warning" sx={{ '& .MuiAlert-message': { width: '100%' } }}>
                  {t('contactImport.skipped', { count: result.skipped.length })}
                  <List dense disablePadding sx={{ maxHeight: 200, overflowY: 'auto' }}>
                    {result.skipped.map((skip) => (
                      <ListItem key={`${skip.line}-${skip.reason}`} disableGutters>
                        <ListItemText primary={t('contactImport.line', { line: skip.line })} secondary={skipReason(skip.reason)} />
                      </ListItem>
                    ))}
                  </List>
                </Alert>
              ) : null}
            </Stack>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose} color="inherit">
          {t('common.close')}
        </Button>
        <Button onClick={() => void submit()} variant="contained" disabled={!file || busy} data-testid="contact-import-submit" startIcon={busy ? <CircularProgress size={16} color="inherit" /> : null}>
          {t('contactImport.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
