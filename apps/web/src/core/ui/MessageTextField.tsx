/**
 * A multiline message field (greetings, farewells, answers) with a picker that inserts the
 * message variables ({{name}}, {{ms}}, ...) where the cursor is.
 */
import DataObject from '@mui/icons-material/DataObject';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useRef, useState, type RefCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGE_VARIABLES, type MessageVariable } from '@zapdesk/shared/variables';

type Props = {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** The form library's ref (react-hook-form focuses the field on an error). */
  inputRef?: RefCallback<HTMLTextAreaElement | null>;
  error?: string | undefined;
  helperText?: string | undefined;
  testId: string;
  minRows?: number;
};

type Selection = { start: number; end: number };

/** The text with the token put over the selection, and where the cursor goes after it. */
export function insertAt(text: string, token: string, { start, end }: Selection): { text: string; cursor: number } {
  return { text: text.slice(0, start) + token + text.slice(end), cursor: start + token.length };
}

export function MessageTextField({ label, value, onChange, onBlur, inputRef, error, helperText, testId, minRows = 3 }: Props) {
  const { t } = useTranslation();
  const input = useRef<HTMLTextAreaElement | null>(null);
  const selection = useRef<Selection>({ start: value.length, end: value.length });
  const touched = useRef(false);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);

  const setRefs: RefCallback<HTMLTextAreaElement | null> = (element) => {
    input.current = element;
    inputRef?.(element);
  };

  const open = (target: HTMLElement) => {
    const element = input.current;
    // Until the field was used, the variable goes at the end of the text.
    selection.current = element && touched.current ? { start: element.selectionStart, end: element.selectionEnd } : { start: value.length, end: value.length };
    setAnchor(target);
  };

  const insert = (variable: MessageVariable) => {
    const next = insertAt(value, `{{${variable}}}`, selection.current);
    onChange(next.text);
    setAnchor(null);
    // Back in the field, right after the inserted variable, once the new value is rendered.
    requestAnimationFrame(() => {
      const element = input.current;
      if (!element) return;
      element.focus();
      element.setSelectionRange(next.cursor, next.cursor);
    });
  };

  return (
    <>
      <TextField
        label={label}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onFocus={() => {
          touched.current = true;
        }}
        onBlur={onBlur}
        inputRef={setRefs}
        multiline
        minRows={minRows}
        maxRows={10}
        fullWidth
        error={Boolean(error)}
        helperText={error ?? helperText}
        slotProps={{
          htmlInput: { 'data-testid': testId },
          input: {
            sx: { alignItems: 'flex-start' },
            endAdornment: (
              <InputAdornment position="end" sx={{ mt: 1.25, mr: -0.5 }}>
                <Tooltip title={t('messageVariables.insert')}>
                  <IconButton size="small" edge="end" onClick={(event) => open(event.currentTarget)} aria-label={t('messageVariables.insert')} data-testid={`${testId}-variables`}>
                    <DataObject fontSize="small" />
                  </IconButton>
                </Tooltip>
              </InputAdornment>
            ),
          },
        }}
      />
      <Menu
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        disableRestoreFocus
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { maxHeight: 440, width: 420, maxWidth: 'calc(100vw - 32px)' } }, list: { dense: true, 'aria-label': t('messageVariables.insert') } }}
        data-testid="variable-menu"
      >
        <ListSubheader sx={{ lineHeight: '32px', fontSize: 12, fontWeight: 700, textTransform: 'uppercase', letterSpacing: '0.05em' }}>{t('messageVariables.title')}</ListSubheader>
        {MESSAGE_VARIABLES.map((variable) => (
          <MenuItem key={variable} onClick={() => insert(variable)} data-testid={`variable-${variable}`} sx={{ alignItems: 'baseline', gap: 1.5, py: 0.75 }}>
            <Box component="code" sx={{ flex: '0 0 120px', fontFamily: 'monospace', fontSize: 13, fontWeight: 600, color: 'primary.main' }}>
              {`{{${variable}}}`}
            </Box>
            <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'normal', lineHeight: 1.35 }}>
              {t(`messageVariables.variables.${variable}`)}
            </Typography>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
