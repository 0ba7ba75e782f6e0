/** The import of the phone's message history for a whole connection (POST /syncMessage), kept reachable from the send history. */
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { toastError } from '../../core/ui/toastError';
import { ConnectionSelect, useChosenConnection } from '../whatsapps/ConnectionSelect';
import { importConnectionHistory } from './campaigns.api';

export function HistoryImportForm() {
  const { t } = useTranslation();
  const { whatsappId, choose, connections } = useChosenConnection();
  const [limit, setLimit] = useState('50');
  const [busy, setBusy] = useState(false);
  const valid = whatsappId !== undefined && /^\d+$/.test(limit);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid || whatsappId === undefined) return;
    setBusy(true);
    try {
      const { imported } = await importConnectionHistory(whatsappId, Number(limit));
      toast.success(t('campaigns.import.done', { count: imported }));
    } catch (caught) {
      toastError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="history-import">
      <Typography variant="subtitle1" fontWeight={700}>
        {t('campaigns.import.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t('campaigns.import.help')}
      </Typography>
      <Stack component="form" direction={{ xs: 'column', sm: 'row' }} gap={1.5} onSubmit={(event) => void submit(event)}>
        <ConnectionSelect size="small" whatsappId={whatsappId} connections={connections} onChange={choose} testId="history-import-connection" />
        <TextField size="small" type="number" label={t('campaigns.import.limit')} value={limit} onChange={(e) => setLimit(e.target.value)} required />
        <Button type="submit" variant="outlined" disabled={!valid || busy}>
          {t('campaigns.import.submit')}
        </Button>
      </Stack>
    </Paper>
  );
}
