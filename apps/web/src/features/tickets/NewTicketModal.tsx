/**
 * New ticket: search a contact (from 3 characters, 500ms after typing stops), pick it and start an
 * open ticket assigned to oneself, in one of one's queues. A number typed in full (as people type
 * it: the default country code is put in) also finds a customer of another queue: shown without
 * her name, she may be picked and the ticket opened for her. A name or number nobody has is
 * offered as 'Add contact', which opens the contact form with it filled in and starts the ticket
 * once the contact is saved; a number that turns out to be stored comes back here, picked.
 */
import PersonAddAlt1Outlined from '@mui/icons-material/PersonAddAlt1Outlined';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { foldText, LIMITS } from '@zapdesk/shared/domain';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TContact } from '@zapdesk/shared/schemas';
import { useAuth } from '../../core/auth/AuthProvider';
import { useDebouncedValue } from '../../core/hooks/useDebouncedValue';
import { toastError } from '../../core/ui/toastError';
import { ContactModal } from '../contacts/ContactModal';
import { fetchContactByNumber, fetchContactsPage } from '../contacts/contacts.api';
import { NewTicketOption } from './NewTicketOption';
import { createTicket, saveTicketInCache } from './tickets.api';

type AddOption = { kind: 'add'; text: string };
/** A customer found by her exact number whom the user may not see yet: her number only. */
export type NumberOption = { kind: 'number'; number: string };
export type Option = TContact | AddOption | NumberOption;
type Picked = TContact | NumberOption;

const isAdd = (option: Option): option is AddOption => 'kind' in option && option.kind === 'add';
const isNumber = (option: Option): option is NumberOption => 'kind' in option && option.kind === 'number';
/** A typed phone number fills the number field of a new contact rather than its name. */
const looksLikeNumber = (text: string) => /^\+?[\d\s().-]{8,}$/.test(text);

type Props = { onClose: () => void; onCreated: (ticket: TTicket) => void };

export function NewTicketModal({ onClose, onCreated }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const queues = user?.queues ?? [];
  const [queueId, setQueueId] = useState<number | null>(queues[0]?.id ?? null);
  const [input, setInput] = useState('');
  const [selected, setSelected] = useState<Picked | null>(null);
  const [adding, setAdding] = useState<string | null>(null);
  const [existing, setExisting] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const label = (option: Option) => (isAdd(option) ? option.text : isNumber(option) ? option.number : option.name);
  const debounced = useDebouncedValue(input.trim(), LIMITS.searchDebounceMs);
  // Once an option is picked the field shows its label: that is not a new search.
  const searching = debounced.length >= LIMITS.searchMinChars && !(selected && label(selected) === debounced);
  const contacts = useQuery({ queryKey: ['tickets', 'newTicketContacts', debounced], queryFn: () => fetchContactsPage(debounced, 1), enabled: searching });
  const byNumber = useQuery({
    queryKey: ['tickets', 'newTicketByNumber', debounced],
    queryFn: () => fetchContactByNumber(debounced),
    enabled: searching && looksLikeNumber(debounced),
    retry: false,
  });
  const listed = searching ? (contacts.data?.items ?? []) : [];
  const exact = searching && byNumber.data?.found ? (byNumber.data.contact ?? { kind: 'number' as const, number: byNumber.data.number }) : undefined;
  const found: Picked[] = exact && !('id' in exact && listed.some((c) => c.id === exact.id)) ? [exact, ...listed] : listed;
  const loading = searching && (contacts.isFetching || byNumber.isFetching);
  // Offered once the search has answered and nobody is called exactly what was typed or has the number.
  const known = exact !== undefined || listed.some((contact) => foldText(contact.name) === foldText(debounced) || contact.number === debounced);
  const options: Option[] = !searching ? (selected ? [selected] : []) : !loading && contacts.data && !known ? [...found, { kind: 'add', text: debounced }] : found;

  const start = async (picked: Picked) => {
    if (!user) return;
    setSubmitting(true);
    try {
      const ticket = await createTicket(isNumber(picked) ? { number: picked.number } : { contactId: picked.id }, user.id, queueId);
      saveTicketInCache(queryClient, ticket, user);
      onCreated(ticket);
      onClose();
      await navigate(`/tickets/${ticket.id}`);
    } catch (error) {
      toastError(error);
      setSubmitting(false);
    }
  };

  /** The number typed in the contact form is stored already: back here with that customer picked. */
  const pickExisting = async (number: string) => {
    setAdding(null);
    try {
      const answer = await fetchContactByNumber(number);
      const picked: Picked = answer.contact ?? { kind: 'number', number: answer.number };
      setSelected(picked);
      setInput(label(picked));
      setExisting(true);
    } catch (error) {
      toastError(error);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (selected) void start(selected);
  };

  if (adding !== null) {
    return (
      <ContactModal
        contact={null}
        initialValues={looksLikeNumber(adding) ? { number: adding } : { name: adding }}
        onClose={() => setAdding(null)}
        onSaved={(contact) => void start(contact)}
        onDuplicate={(number) => void pickExisting(number)}
      />
    );
  }

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" data-testid="new-ticket-modal">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{t('newTicket.title')}</DialogTitle>
        <DialogContent>
          <Box sx={{ pt: 1, display: 'flex', flexDirection: 'column', gap: 2 }}>
            {existing ? (
              <Alert severity="info" data-testid="new-ticket-existing">
                {t('newTicketByNumber.exists')}
              </Alert>
            ) : null}
            <Autocomplete<Option>
              options={options}
              value={selected}
              onChange={(_event, value) => {
                setExisting(false);
                if (value && isAdd(value)) setAdding(value.text);
                else setSelected(value);
              }}
              inputValue={input}
              onInputChange={(_event, value) => setInput(value)}
              getOptionLabel={label}
              getOptionKey={(option) => (isAdd(option) ? 'add' : isNumber(option) ? `number:${option.number}` : option.id)}
              isOptionEqualToValue={(option, value) => label(option) === label(value) && isNumber(option) === isNumber(value)}
              filterOptions={(all) => all}
              loading={loading}
              loadingText={t('newTicket.searching')}
              noOptionsText={searching ? t('newTicket.noContacts') : t('newTicket.help')}
              renderOption={({ key, ...props }, option) => <NewTicketOption key={key} props={props} option={option} icon={isAdd(option) ? <PersonAddAlt1Outlined color="primary" /> : null} />}
              renderInput={(params) => (
                <TextField
                  {...params}
                  autoFocus
                  label={t('newTicket.contact')}
                  helperText={t('newTicket.help')}
                  slotProps={{
                    input: {
                      ...params.InputProps,
                      endAdornment: (
                        <>
                          {loading ? <CircularProgress size={18} /> : null}
                          {params.InputProps.endAdornment}
                        </>
                      ),
                    },
                    htmlInput: { ...params.inputProps, 'data-testid': 'new-ticket-contact' },
                  }}
                />
              )}
            />
            {queues.length > 0 ? (
              <TextField
                select
                label={t('newTicketByNumber.queue')}
                value={queueId ?? ''}
                onChange={(event) => setQueueId(Number(event.target.value))}
                fullWidth
                slotProps={{ htmlInput: { 'data-testid': 'new-ticket-queue' } }}
              >
                {queues.map((queue) => (
                  <MenuItem key={queue.id} value={queue.id} data-testid="new-ticket-queue-option">
                    {queue.name}
                  </MenuItem>
                ))}
              </TextField>
            ) : null}
          </Box>
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onClose} color="inherit" disabled={submitting} data-testid="new-ticket-cancel">
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={submitting || !selected} startIcon={submitting ? <CircularProgress size={16} color="inherit" /> : null} data-testid="new-ticket-submit">
            {t('newTicket.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
