/**
 * New ticket: search a contact (from 3 characters, 500ms after typing stops), pick it and start an
 * open ticket assigned to oneself. A name nobody has is offered as 'Add contact', which opens the
 * contact form with it filled in and starts the ticket once the contact is saved.
 */
import PersonAddAlt1Outlined from '@mui/icons-material/PersonAddAlt1Outlined';
import Autocomplete from '@mui/material/Autocomplete';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { foldText, LIMITS } from '@zapdesk/shared/domain';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TContact } from '@zapdesk/shared/schemas';
import { useAuth } from '../../core/auth/AuthProvider';
import { useDebouncedValue } from '../../core/hooks/useDebouncedValue';
import { initials } from '../../core/ui/initials';
import { toastError } from '../../core/ui/toastError';
import { ContactModal } from '../contacts/ContactModal';
import { fetchContactsPage } from '../contacts/contacts.api';
import { createTicket, saveTicketInCache } from './tickets.api';

type AddOption = { kind: 'add'; text: string };
type Option = TContact | AddOption;

const isAdd = (option: Option): option is AddOption => 'kind' in option;
/** A typed phone number fills the number field of a new contact rather than its name. */
const looksLikeNumber = (text: string) => /^\+?[\d\s().-]{8,}$/.test(text);

type Props = { onClose: () => void; onCreated: (ticket: TTicket) => void };

export function NewTicketModal({ onClose, onCreated }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const [input, setInput] = useState('');
  const [selected, setSelected] = useState<TContact | null>(null);
  const [adding, setAdding] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const debounced = useDebouncedValue(input.trim(), LIMITS.searchDebounceMs);
  const searching = debounced.length >= LIMITS.searchMinChars;
  const contacts = useQuery({ queryKey: ['tickets', 'newTicketContacts', debounced], queryFn: () => fetchContactsPage(debounced, 1), enabled: searching });
  const found = searching ? (contacts.data?.items ?? []) : [];
  const loading = searching && contacts.isFetching;
  // Offered once the search has answered and no contact is called exactly what was typed.
  const known = found.some((contact) => foldText(contact.name) === foldText(debounced) || contact.number === debounced);
  const options: Option[] = searching && !loading && contacts.data && !known ? [...found, { kind: 'add', text: debounced }] : found;

  const start = async (contact: TContact) => {
    if (!user) return;
    setSubmitting(true);
    try {
      const ticket = await createTicket(contact.id, user.id);
      saveTicketInCache(queryClient, ticket, user);
      onCreated(ticket);
      onClose();
      await navigate(`/tickets/${ticket.id}`);
    } catch (error) {
      toastError(error);
      setSubmitting(false);
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
        initialValues={looksLikeNumber(adding) ? { number: adding.replace(/\D/g, '') } : { name: adding }}
        onClose={() => setAdding(null)}
        onSaved={(contact) => void start(contact)}
      />
    );
  }

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" data-testid="new-ticket-modal">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{t('newTicket.title')}</DialogTitle>
        <DialogContent>
          <Box sx={{ pt: 1 }}>
            <Autocomplete<Option>
              options={options}
              value={selected}
              onChange={(_event, value) => {
                if (value && isAdd(value)) setAdding(value.text);
                else setSelected(value);
              }}
              inputValue={input}
              onInputChange={(_event, value) => setInput(value)}
              getOptionLabel={(option) => (isAdd(option) ? option.text : option.name)}
              getOptionKey={(option) => (isAdd(option) ? 'add' : option.id)}
              isOptionEqualToValue={(option, value) => !isAdd(option) && !isAdd(value) && option.id === value.id}
              filterOptions={(all) => all}
              loading={loading}
              loadingText={t('newTicket.searching')}
              noOptionsText={searching ? t('newTicket.noContacts') : t('newTicket.help')}
              renderOption={({ key, ...props }, option) =>
                isAdd(option) ? (
                  <Box component="li" key={key} {...props} sx={{ gap: 1.5 }} data-testid="new-ticket-add-option">
                    <PersonAddAlt1Outlined color="primary" />
                    <Typography variant="body2">{t('newTicket.addContact', { name: option.text })}</Typography>
                  </Box>
                ) : (
                  <Box component="li" key={key} {...props} sx={{ gap: 1.5 }} data-testid="new-ticket-option">
                    <Avatar src={option.profilePicUrl || undefined} sx={{ width: 32, height: 32, fontSize: 14 }}>
                      {initials(option.name)}
                    </Avatar>
                    <Box sx={{ minWidth: 0 }}>
                      <Typography variant="body2" noWrap>
                        {option.name}
                      </Typography>
                      <Typography variant="caption" color="text.secondary">
                        {option.number}
                      </Typography>
                    </Box>
                  </Box>
                )
              }
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
