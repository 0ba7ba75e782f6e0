/**
 * The satisfaction question in the connection's dialog: the switch (off by default), the
 * language and the text. The text starts as the language's default; left as it is, it follows
 * the language (the server keeps '' for it). Saved after the connection, by its own route.
 */
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { CSAT_DEFAULT_QUESTIONS, CSAT_LANGUAGES, ZCsatSettingsInputSchema, type CsatLanguage, type TCsatSettingsInput } from '@zapdesk/shared/csat';
import { ApiError } from '../../core/api/ApiError';
import { fieldErrorText } from '../../core/forms/fieldErrors';
import { csatKeys, fetchCsatSettings, saveCsatSettings } from './csat.api';

type Values = { enabled: boolean; language: CsatLanguage; question: string };

function toInput(values: Values): TCsatSettingsInput {
  const question = values.question.trim();
  return { enabled: values.enabled, language: values.language, question: question === CSAT_DEFAULT_QUESTIONS[values.language] ? '' : question };
}

export type CsatForm = {
  values: Values;
  loading: boolean;
  error: string | undefined;
  set: (patch: Partial<Values>) => void;
  /** Checked as the server will; false shows the error under the text. */
  check: () => boolean;
  /** Saves when something changed; a failure is told (the connection itself is saved). */
  save: (whatsappId: number) => Promise<void>;
};

export function useCsatForm(whatsappId: number | null): CsatForm {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const initialLanguage = CSAT_LANGUAGES.find((l) => i18n.language.startsWith(l)) ?? 'pt';
  const fresh: Values = { enabled: false, language: initialLanguage, question: CSAT_DEFAULT_QUESTIONS[initialLanguage] };
  const [values, setValues] = useState<Values>(fresh);
  const [error, setError] = useState<string | undefined>();
  const saved = useRef<string>(JSON.stringify(toInput(fresh)));
  const { data, isLoading } = useQuery({ queryKey: csatKeys.settings(whatsappId ?? 0), queryFn: () => fetchCsatSettings(whatsappId ?? 0), enabled: whatsappId !== null });

  useEffect(() => {
    if (!data) return;
    const loaded = { enabled: data.enabled, language: data.language, question: data.effectiveQuestion };
    setValues(loaded);
    saved.current = JSON.stringify(toInput(loaded));
  }, [data]);

  const set = (patch: Partial<Values>) =>
    setValues((current) => {
      const next = { ...current, ...patch };
      // A text left as the old language's default follows the new language.
      if (patch.language && current.question.trim() === CSAT_DEFAULT_QUESTIONS[current.language]) next.question = CSAT_DEFAULT_QUESTIONS[patch.language];
      return next;
    });

  const check = () => {
    const parsed = ZCsatSettingsInputSchema.safeParse(toInput(values));
    const issue = parsed.success ? undefined : parsed.error.issues[0];
    setError(issue ? fieldErrorText({ message: issue.message }) : undefined);
    return parsed.success;
  };

  const save = async (id: number) => {
    const input = toInput(values);
    if (JSON.stringify(input) === saved.current) return;
    try {
      const answer = await saveCsatSettings(id, input);
      queryClient.setQueryData(csatKeys.settings(id), answer);
      saved.current = JSON.stringify(input);
    } catch (caught) {
      if (caught instanceof ApiError && caught.fields.question) setError(fieldErrorText({ message: caught.fields.question }));
      toast.error(t('csat.notSaved'));
    }
  };

  return { values, loading: whatsappId !== null && isLoading, error, set, check, save };
}

export function CsatFields({ form }: { form: CsatForm }) {
  const { t } = useTranslation();
  const languageLabel = useId();
  const { values, loading, error, set } = form;
  return (
    <Stack gap={2} data-testid="connection-csat">
      <FormControl>
        <FormControlLabel
          control={
            <Switch checked={values.enabled} disabled={loading} onChange={(event) => set({ enabled: event.target.checked })} slotProps={{ input: { 'aria-describedby': 'connection-csat-help' } }} />
          }
          label={t('csat.switch')}
          data-testid="connection-csat-switch"
        />
        <FormHelperText id="connection-csat-help" sx={{ mt: -0.5, ml: 0 }}>
          {t('csat.switchHelp')}
        </FormHelperText>
      </FormControl>
      {values.enabled ? (
        <Stack direction={{ xs: 'column', sm: 'row' }} gap={2} alignItems="flex-start">
          <FormControl sx={{ minWidth: { sm: 160 }, width: { xs: '100%', sm: 'auto' } }}>
            <InputLabel id={languageLabel}>{t('csat.language')}</InputLabel>
            <Select
              labelId={languageLabel}
              label={t('csat.language')}
              value={values.language}
              onChange={(event) => set({ language: CSAT_LANGUAGES.find((l) => l === event.target.value) ?? 'pt' })}
              data-testid="connection-csat-language"
            >
              {CSAT_LANGUAGES.map((language) => (
                <MenuItem key={language} value={language}>
                  {t(`csat.languages.${language}`)}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <TextField
            label={t('csat.question')}
            value={values.question}
            onChange={(event) => set({ question: event.target.value })}
            multiline
            minRows={2}
            fullWidth
            error={Boolean(error)}
            helperText={error ?? t('csat.questionHelp')}
            slotProps={{ htmlInput: { 'data-testid': 'connection-csat-question' } }}
          />
        </Stack>
      ) : null}
    </Stack>
  );
}
