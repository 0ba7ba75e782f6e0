/**
 * The chat's import/export panel: the ticket's connection id, a form that imports the contact's
 * past messages from the phone's history, and the messages loaded in the chat as a CSV file or by e-mail.
 */
import Download from '@mui/icons-material/Download';
import Email from '@mui/icons-material/Email';
import Send from '@mui/icons-material/Send';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { HISTORY_IMPORT_MAX, type TMessage, type TTicket } from '@zapdesk/shared/messaging';
import { useAuth } from '../../core/auth/AuthProvider';
import { errorText, toastError } from '../../core/ui/toastError';
import { emailConversation, fetchTicketConnectionId, importHistory } from './chat.api';
import { CSV_FILE_NAME, messagesToCsv, messagesToText } from './chatCsv';
import { ticketsKeys, type MessagePage } from '../tickets/tickets.api';

const DEFAULT_IMPORT_LIMIT = 100;

export function ImportExportPanel({ ticket }: { ticket: TTicket }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const connection = useQuery({ queryKey: ['tickets', 'connectionId', ticket.id], queryFn: () => fetchTicketConnectionId(ticket.id) });
  const [connectionId, setConnectionId] = useState('');
  const [limit, setLimit] = useState(String(DEFAULT_IMPORT_LIMIT));
  const [importing, setImporting] = useState(false);

  useEffect(() => {
    if (connection.data !== undefined) setConnectionId((current) => current || String(connection.data));
  }, [connection.data]);
  useEffect(() => {
    if (connection.error) toast.error(t('chat.lookupError', { message: errorText(connection.error) }));
  }, [connection.error, t]);

  const limitNumber = Number(limit);
  const limitValid = Number.isInteger(limitNumber) && limitNumber >= 1 && limitNumber <= HISTORY_IMPORT_MAX;
  const connectionValid = /^\d+$/.test(connectionId) && Number(connectionId) > 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!limitValid || !connectionValid) return;
    setImporting(true);
    try {
      const imported = await importHistory({ number: ticket.contact.number, limit: limitNumber, whatsappId: Number(connectionId) });
      toast.success(t('chat.imported', { count: imported }));
      await queryClient.invalidateQueries({ queryKey: ticketsKeys.messages(ticket.id) });
    } catch (caught) {
      toastError(caught);
    } finally {
      setImporting(false);
    }
  };

  /** The messages loaded in the chat, oldest first. */
  const loadedMessages = (): TMessage[] => {
    const data = queryClient.getQueryData<InfiniteData<MessagePage>>(ticketsKeys.messages(ticket.id));
    const byId = new Map<number, TMessage>();
    for (const page of data?.pages ?? []) for (const message of page.messages) byId.set(message.id, message);
    return [...byId.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
  };
  const labels = () => ({
    header: [t('chat.csvDate'), t('chat.csvTime'), t('chat.csvFrom'), t('chat.csvBody')] as [string, string, string, string],
    me: user?.name ?? t('chat.you'),
    contact: ticket.contact.name,
    // A labelled ticket's export says its labels in a last column.
    ticketLabels: ticket.labels.length ? { title: t('labels.csvColumn'), value: ticket.labels.map((label) => label.name).join(', ') } : undefined,
  });

  const [mailOpen, setMailOpen] = useState(false);
  const [mailTo, setMailTo] = useState('');
  const [mailing, setMailing] = useState(false);
  const sendByEmail = async (event: FormEvent) => {
    event.preventDefault();
    setMailing(true);
    try {
      const messages = loadedMessages();
      await emailConversation({
        subject: t('chat.emailSubject', { id: ticket.id, name: ticket.contact.name }),
        text: messagesToText(messages, labels()),
        csv: messagesToCsv(messages, labels()),
        to: mailTo.trim() || undefined,
      });
      toast.success(t('chat.emailQueued'));
      setMailOpen(false);
    } catch (caught) {
      toastError(caught);
    } finally {
      setMailing(false);
    }
  };

  const exportCsv = () => {
    const csv = messagesToCsv(loadedMessages(), labels());
    const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = CSV_FILE_NAME;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <Box
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, px: 1.5, py: 1, borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}
      data-testid="import-export-panel"
    >
      <Typography variant="body2" data-testid="panel-connection-id">
        {t('chat.connectionId')}: <strong>{connection.isPending ? '…' : (connection.data ?? '—')}</strong>
      </Typography>
      <Box component="form" onSubmit={(event) => void submit(event)} noValidate sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, flexWrap: 'wrap' }}>
        <TextField
          size="small"
          label={t('chat.connectionId')}
          value={connectionId}
          onChange={(event) => setConnectionId(event.target.value.replace(/\D/g, ''))}
          error={connectionId !== '' && !connectionValid}
          sx={{ width: 130 }}
          slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'panel-import-connection' } }}
        />
        <TextField
          size="small"
          type="number"
          label={t('chat.limit')}
          value={limit}
          onChange={(event) => setLimit(event.target.value)}
          error={!limitValid}
          sx={{ width: 110 }}
          slotProps={{ htmlInput: { min: 1, max: HISTORY_IMPORT_MAX, 'data-testid': 'panel-import-limit' } }}
        />
        <Button
          type="submit"
          variant="outlined"
          disabled={importing || !limitValid || !connectionValid}
          startIcon={importing ? <CircularProgress size={16} /> : null}
          sx={{ height: 40 }}
          data-testid="panel-import-submit"
        >
          {t('chat.importHistory')}
        </Button>
      </Box>
      <Box sx={{ display: 'flex', gap: 1, ml: 'auto', flexWrap: 'wrap' }}>
        <Button variant="outlined" startIcon={<Email />} onClick={() => setMailOpen((open) => !open)} data-testid="panel-export-email">
          {t('chat.exportEmail')}
        </Button>
        <Button variant="contained" startIcon={<Download />} onClick={exportCsv} data-testid="panel-export-csv">
          {t('chat.exportCsv')}
        </Button>
      </Box>
      {mailOpen ? (
        <Box
          component="form"
          onSubmit={(event) => void sendByEmail(event)}
          noValidate
          sx={{ display: 'flex', gap: 1, width: '100%', flexWrap: 'wrap', alignItems: 'flex-start' }}
          data-testid="panel-email-form"
        >
          <TextField
            size="small"
            type="email"
            label={t('chat.emailTo')}
            placeholder={t('chat.emailToHelp')}
            value={mailTo}
            onChange={(event) => setMailTo(event.target.value)}
            sx={{ flex: 1, minWidth: 220 }}
            slotProps={{ htmlInput: { 'data-testid': 'panel-email-to' } }}
          />
          <Button type="submit" variant="contained" disabled={mailing} startIcon={mailing ? <CircularProgress size={16} /> : <Send />} sx={{ height: 40 }} data-testid="panel-email-send">
            {t('chat.emailSend')}
          </Button>
        </Box>
      ) : null}
    </Box>
  );
}
