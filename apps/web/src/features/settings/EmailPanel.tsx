/**
 * Under the e-mail settings: a test mail sent at once (the answer says whether the settings
 * work), and the latest mails with their state, attempts and last error; a failed one can be sent again.
 */
import MarkEmailRead from '@mui/icons-material/MarkEmailRead';
import Refresh from '@mui/icons-material/Refresh';
import Replay from '@mui/icons-material/Replay';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { EmailStatus } from '@zapdesk/shared/email';
import { formatShortDateTime } from '../../core/ui/formatDate';
import { toastError } from '../../core/ui/toastError';
import { emailsKey, fetchEmails, retryEmail, sendTestEmail } from './settings.api';

const COLORS: Record<EmailStatus, 'default' | 'info' | 'success' | 'error'> = { queued: 'default', sending: 'info', sent: 'success', failed: 'error' };

export function EmailPanel() {
  const { t } = useTranslation();
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  const mails = useQuery({ queryKey: emailsKey, queryFn: fetchEmails, refetchInterval: 10_000 });

  const test = async () => {
    setBusy(true);
    try {
      const result = await sendTestEmail(to.trim() || undefined);
      toast.success(t('settings.email.testSent', { to: result.to }));
    } catch (caught) {
      toastError(caught);
    } finally {
      setBusy(false);
    }
  };

  const retry = async (id: number) => {
    try {
      await retryEmail(id);
      await mails.refetch();
    } catch (caught) {
      toastError(caught);
    }
  };

  const rows = mails.data?.emails.slice(0, 20) ?? [];
  return (
    <Stack gap={2} sx={{ px: 3, py: 2, borderTop: 1, borderColor: 'divider' }} data-testid="email-panel">
      <Stack direction={{ xs: 'column', sm: 'row' }} gap={1.5} alignItems={{ sm: 'center' }}>
        <TextField
          size="small"
          label={t('settings.email.testTo')}
          placeholder={t('settings.email.testToHelp')}
          value={to}
          onChange={(event) => setTo(event.target.value)}
          sx={{ flex: 1 }}
          slotProps={{ htmlInput: { 'data-testid': 'email-test-to' } }}
        />
        <Button variant="outlined" startIcon={<MarkEmailRead />} disabled={busy} onClick={() => void test()} data-testid="email-test">
          {t('settings.email.test')}
        </Button>
      </Stack>
      <Stack direction="row" alignItems="center" justifyContent="space-between">
        <Typography variant="subtitle2" component="h3">
          {t('settings.email.recent')}
        </Typography>
        <Tooltip title={t('settings.email.refresh')}>
          <IconButton size="small" onClick={() => void mails.refetch()} aria-label={t('settings.email.refresh')}>
            <Refresh fontSize="small" />
          </IconButton>
        </Tooltip>
      </Stack>
      {rows.length === 0 ? (
        <Typography variant="body2" color="text.secondary" data-testid="email-list-empty">
          {t('settings.email.none')}
        </Typography>
      ) : (
        <Box sx={{ overflowX: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}>
          <Table size="small" data-testid="email-list">
            <TableHead>
              <TableRow>
                <TableCell>{t('settings.email.when')}</TableCell>
                <TableCell>{t('settings.email.subject')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('settings.email.to')}</TableCell>
                <TableCell>{t('settings.email.state')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((mail) => (
                <TableRow key={mail.id} data-testid="email-row" data-status={mail.status}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatShortDateTime(mail.createdAt)}</TableCell>
                  <TableCell sx={{ wordBreak: 'break-word' }}>
                    {mail.subject}
                    {mail.attachments.length ? ` · ${mail.attachments.map((a) => a.filename).join(', ')}` : ''}
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' }, wordBreak: 'break-all' }}>{mail.to}</TableCell>
                  <TableCell>
                    <Chip size="small" color={COLORS[mail.status]} label={t(`settings.email.statuses.${mail.status}`)} />
                    {mail.lastError ? (
                      <Typography variant="caption" color="error" display="block" sx={{ mt: 0.5, wordBreak: 'break-word' }}>
                        {t('settings.email.attempts', { count: mail.attempts })}: {mail.lastError}
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell align="right">
                    {mail.status === 'failed' ? (
                      <Tooltip title={t('settings.email.retry')}>
                        <IconButton size="small" onClick={() => void retry(mail.id)} aria-label={t('settings.email.retry')} data-testid="email-retry">
                          <Replay fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Stack>
  );
}
