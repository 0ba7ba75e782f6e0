import Check from '@mui/icons-material/Check';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import InputAdornment from '@mui/material/InputAdornment';
import Popover from '@mui/material/Popover';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QUEUE_COLORS } from '@zapdesk/shared/domain';

type Props = { value: string; onChange: (color: string) => void; error?: string | undefined; label: string };

function sameColor(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** The queue colour: a hex text field whose swatch opens the 51 preset colours. */
export function ColorPicker({ value, onChange, error, label }: Props) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);

  return (
    <>
      <TextField
        label={label}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        error={Boolean(error)}
        helperText={error}
        fullWidth
        slotProps={{
          htmlInput: { 'data-testid': 'queue-color', maxLength: 9 },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <Tooltip title={t('queueModal.pickColor')}>
                  <ButtonBase
                    onClick={(event) => setAnchor(event.currentTarget)}
                    aria-label={t('queueModal.pickColor')}
                    data-testid="queue-color-swatch"
                    sx={{ width: 28, height: 28, borderRadius: 1, bgcolor: value || 'transparent', border: '1px solid rgba(0,0,0,0.2)' }}
                  />
                </Tooltip>
              </InputAdornment>
            ),
          },
        }}
      />
      <Popover open={anchor !== null} anchorEl={anchor} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }} slotProps={{ paper: { sx: { p: 1.5 } } }}>
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mb: 1 }}>
          {t('queueModal.presets')}
        </Typography>
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(9, 28px)', gap: 0.75 }} data-testid="color-palette">
          {QUEUE_COLORS.map((color) => (
            <ButtonBase
              key={color}
              onClick={() => {
                onChange(color);
                setAnchor(null);
              }}
              aria-label={color}
              title={color}
              data-testid={`color-${color.slice(1)}`}
              sx={{
                width: 28,
                height: 28,
                borderRadius: 1,
                bgcolor: color,
                border: '1px solid rgba(0,0,0,0.15)',
                color: (theme) => theme.palette.getContrastText(color),
                transition: 'transform 80ms',
                '&:hover': { transform: 'scale(1.12)' },
              }}
            >
              {sameColor(color, value) ? <Check fontSize="small" /> : null}
            </ButtonBase>
          ))}
        </Box>
      </Popover>
    </>
  );
}
