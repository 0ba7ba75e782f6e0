/**
 * The recipients of a bulk send: one number per line, as people type them ((11) 98765-4321 gets
 * the default country code), counted as you type (numbers, repeats and lines that cannot be a
 * number, by the same rule the server applies), with what the ninth-digit rule changed and what
 * will not be sent listed; contacts picked from the address book or a list imported from a file.
 */
import UploadFile from '@mui/icons-material/UploadFile';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { parseRecipients } from '@zapdesk/shared/campaigns';
import type { NumberRule } from '@zapdesk/shared/phone-numbers';
import type { TContact } from '@zapdesk/shared/schemas';
import { useDebouncedValue } from '../../core/hooks/useDebouncedValue';
import { NumberNotes } from '../../core/numbers/NumberNotes';
import { useNumberReader } from '../../core/numbers/useNumberReader';
import { fetchContactsPage } from '../contacts/contacts.api';

/** The numbers of a CSV or text file: the first cell of each line that holds digits. */
export function numbersFromFile(text: string): string[] {
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((line) => (line.split(/[;,\t]/)[0] ?? '').replace(/^"|"$/g, '').trim())
    .filter((cell) => /\d{6,}/.test(cell.replace(/\D/g, '')));
}

function appendLines(current: string, lines: string[]): string {
  const base = current.replace(/\s+$/, '');
  return [base, ...lines].filter((line) => line !== '').join('\n');
}

/** `rule`: the rule numbers are read by (WhatsApp's unless told; 'phone' for SMS and calls); `help`: the line under the field. */
type Props = { value: string; onChange: (value: string) => void; error: string | undefined; rule?: NumberRule | undefined; help?: string | undefined };

export function NumbersField({ value, onChange, error, rule, help }: Props) {
  const { t } = useTranslation();
  const fileInput = useRef<HTMLInputElement | null>(null);
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search, 500);
  const contacts = useQuery({ queryKey: ['campaigns', 'contactPicker', debounced], queryFn: () => fetchContactsPage(debounced, 1), enabled: debounced.trim().length >= 3 });
  const read = useNumberReader(rule);
  const parsed = useMemo(() => parseRecipients(value, read), [value, read]);
  const invalid = parsed.recipients.filter((r) => r.number === undefined).length;

  const importFile = async (file: File) => {
    onChange(appendLines(value, numbersFromFile(await file.text())));
  };

  return (
    <Stack gap={1}>
      <TextField
        label={t('campaigns.form.numbers')}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        multiline
        minRows={5}
        maxRows={12}
        fullWidth
        error={Boolean(error)}
        helperText={error ?? help ?? t('campaigns.form.numbersHelp')}
        slotProps={{ htmlInput: { 'data-testid': 'campaign-numbers' } }}
      />
      <Typography variant="body2" color={invalid > 0 ? 'warning.main' : 'text.secondary'} data-testid="campaign-numbers-count">
        {t('campaigns.form.count', { count: parsed.recipients.length - invalid, duplicates: parsed.duplicates, invalid })}
      </Typography>
      <NumberNotes recipients={parsed.recipients} />
      <Stack direction={{ xs: 'column', sm: 'row' }} gap={1} alignItems={{ sm: 'center' }}>
        <Autocomplete<TContact>
          sx={{ flex: 1 }}
          size="small"
          options={contacts.data?.items ?? []}
          value={null}
          inputValue={search}
          onInputChange={(_event, next, reason) => {
            if (reason !== 'reset') setSearch(next);
          }}
          onChange={(_event, contact) => {
            if (contact) onChange(appendLines(value, [contact.number]));
            setSearch('');
          }}
          getOptionLabel={(contact) => `${contact.name} · ${contact.number}`}
          filterOptions={(all) => all}
          loading={contacts.isFetching}
          noOptionsText={search.trim().length < 3 ? t('campaigns.form.pickHelp') : t('campaigns.form.noContacts')}
          renderInput={(params) => <TextField {...params} label={t('campaigns.form.pickContact')} slotProps={{ htmlInput: { ...params.inputProps, 'data-testid': 'campaign-contact-picker' } }} />}
        />
        <Button variant="outlined" startIcon={<UploadFile />} onClick={() => fileInput.current?.click()} data-testid="campaign-import-numbers">
          {t('campaigns.form.importList')}
        </Button>
        <input
          ref={fileInput}
          type="file"
          accept=".csv,.txt,text/csv,text/plain"
          hidden
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void importFile(file);
            event.target.value = '';
          }}
        />
      </Stack>
    </Stack>
  );
}
