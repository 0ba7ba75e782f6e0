/**
 * Transfer: a queue (starting on the ticket's own), a user and, for admins, a connection. The
 * user field lists the chosen queue's agents at once; typing (from 3 characters, 500ms after
 * typing stops) searches every user. A queue without a user puts the ticket back in that queue,
 * unassigned. The dialog says where the ticket will go before it is confirmed. Agents with the
 * app open are marked online (a dot and the word) and listed first.
 */
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@zapdesk/shared/domain';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TUser } from '@zapdesk/shared/schemas';
import { useDebouncedValue } from '../../core/hooks/useDebouncedValue';
import { toastError } from '../../core/ui/toastError';
import { toast } from 'react-toastify';
import { useQueues } from '../queues/queues.api';
import { fetchAllUsers, fetchOnlineUserIds, fetchUsersPage } from '../users/users.api';
import { useWhatsapps } from '../whatsapps/whatsapps.api';
import { transferTicket, type TransferInput } from '../chat/chat.api';

type Props = { ticket: TTicket; isAdmin: boolean; onClose: () => void; onTransferred: (ticket: TTicket) => void };

/** While the dialog is open, who is online is read again this often. */
const ONLINE_REFRESH_MS = 15_000;

/** 'online' in words and a green dot: never the colour alone. */
function OnlineMark() {
  const { t } = useTranslation();
  return (
    <Box
      component="span"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, ml: 'auto', pl: 1, flexShrink: 0, color: 'success.dark', typography: 'caption' }}
      data-testid="transfer-user-online"
    >
      <Box component="span" aria-hidden sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: 'success.main' }} />
      {t('chat.userOnline')}
    </Box>
  );
}

export function TransferTicketModal({ ticket, isAdmin, onClose, onTransferred }: Props) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [selectedUser, setSelectedUser] = useState<TUser | null>(null);
  const [queueId, setQueueId] = useState<number | ''>(ticket.queueId ?? '');
  const [whatsappId, setWhatsappId] = useState<number | ''>('');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState('');
  const debounced = useDebouncedValue(search.trim(), LIMITS.searchDebounceMs);
  const searching = debounced.length >= LIMITS.searchMinChars;
  const users = useQuery({ queryKey: ['tickets', 'transferUsers', debounced], queryFn: () => fetchUsersPage(debounced, 1), enabled: searching });
  // Everyone, for the chosen queue's agents: a team's users fit in a few pages.
  const team = useQuery({ queryKey: ['tickets', 'transferTeam'], queryFn: fetchAllUsers });
  const queueAgents = (team.data ?? []).filter((user) => queueId !== '' && user.queues.some((queue) => queue.id === queueId));
  const online = useQuery({ queryKey: ['users', 'online'], queryFn: fetchOnlineUserIds, refetchInterval: ONLINE_REFRESH_MS });
  const onlineIds = new Set(online.data ?? []);
  // Online first; otherwise in the server's order (by name). The sort is stable.
  const options = [...(searching ? (users.data?.items ?? []) : queueAgents)].sort((a, b) => Number(onlineIds.has(b.id)) - Number(onlineIds.has(a.id)));
  const queues = useQueues();
  const chosenQueue = (queues.data ?? []).find((queue) => queue.id === queueId);
  const outcome = selectedUser
    ? chosenQueue
      ? t('chat.transferOutcomeUserQueue', { name: selectedUser.name, queue: chosenQueue.name })
      : t('chat.transferOutcomeUser', { name: selectedUser.name })
    : chosenQueue
      ? t('chat.transferOutcomeQueue', { queue: chosenQueue.name })
      : '';
  const whatsapps = useWhatsapps(isAdmin);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!selectedUser && queueId === '') {
      setError(t('chat.transferRequired'));
      return;
    }
    const input: TransferInput = {};
    if (selectedUser) input.userId = selectedUser.id;
    if (queueId !== '') input.queueId = queueId;
    if (isAdmin && whatsappId !== '' && whatsappId !== ticket.whatsappId) input.whatsappId = whatsappId;
    setSubmitting(true);
    try {
      const transferred = await transferTicket(ticket.id, input);
      toast.success(
        selectedUser
          ? chosenQueue
            ? t('feedback.transferredUserQueue', { name: selectedUser.name, queue: chosenQueue.name })
            : t('feedback.transferredUser', { name: selectedUser.name })
          : t('feedback.transferredQueue', { queue: chosenQueue?.name ?? '' }),
        { toastId: `transfer-${ticket.id}` },
      );
      onTransferred(transferred);
    } catch (caught) {
      toastError(caught);
      setSubmitting(false);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" data-testid="transfer-modal">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle>{t('chat.transferTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              select
              label={t('chat.transferQueue')}
              value={queueId}
              onChange={(event) => {
                setQueueId(event.target.value === '' ? '' : Number(event.target.value));
                setError('');
              }}
              slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
              data-testid="transfer-queue"
            >
              <MenuItem value="">
                <em>{t('chat.noQueue')}</em>
              </MenuItem>
              {(queues.data ?? []).map((queue) => (
                <MenuItem key={queue.id} value={queue.id}>
                  {queue.name}
                </MenuItem>
              ))}
            </TextField>
            <Autocomplete
              options={options}
              value={selectedUser}
              onChange={(_event, value) => {
                setSelectedUser(value);
                setError('');
              }}
              inputValue={search}
              onInputChange={(_event, value) => setSearch(value)}
              getOptionLabel={(option) => option.name}
              isOptionEqualToValue={(option, value) => option.id === value.id}
              filterOptions={(options) => options}
              renderOption={({ key, ...props }, option) => (
                <Box component="li" key={key} {...props} data-testid="transfer-user-option" data-online={onlineIds.has(option.id)}>
                  <Box component="span" sx={{ minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                    {option.name}
                  </Box>
                  {onlineIds.has(option.id) ? <OnlineMark /> : null}
                </Box>
              )}
              loading={searching ? users.isFetching : team.isPending}
              noOptionsText={searching || queueId !== '' ? t('chat.noUsers') : t('chat.transferUserHelp')}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label={t('chat.transferUser')}
                  helperText={t('chat.transferUserHelp')}
                  slotProps={{
                    input: {
                      ...params.InputProps,
                      endAdornment: (
                        <>
                          {searching && users.isFetching ? <CircularProgress size={18} /> : null}
                          {params.InputProps.endAdornment}
                        </>
                      ),
                    },
                    htmlInput: { ...params.inputProps, 'data-testid': 'transfer-user' },
                  }}
                />
              )}
            />
            {isAdmin ? (
              <TextField
                select
                label={t('chat.transferConnection')}
                value={whatsappId}
                onChange={(event) => setWhatsappId(event.target.value === '' ? '' : Number(event.target.value))}
                slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
                data-testid="transfer-connection"
              >
                <MenuItem value="">
                  <em>{t('chat.sameConnection')}</em>
                </MenuItem>
                {(whatsapps.data ?? []).map((connection) => (
                  <MenuItem key={connection.id} value={connection.id}>
                    {connection.name}
                  </MenuItem>
                ))}
              </TextField>
            ) : null}
            {outcome ? (
              <Typography variant="body2" color="text.secondary" data-testid="transfer-outcome">
                {outcome}
              </Typography>
            ) : null}
            {error ? (
              <Typography color="error" variant="body2" data-testid="transfer-error">
                {error}
              </Typography>
            ) : null}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onClose} color="inherit" disabled={submitting} data-testid="transfer-cancel">
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={submitting} startIcon={submitting ? <CircularProgress size={16} color="inherit" /> : null} data-testid="transfer-submit">
            {t('chat.transferSubmit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
