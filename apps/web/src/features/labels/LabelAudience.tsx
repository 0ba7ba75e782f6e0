/** A bulk send's recipients: numbers typed (the usual field), or the contacts with a label, read by the server at creation. */
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabels } from './labels.api';

/** `labelId` null: typed numbers. */
type Props = { labelId: number | null | undefined; onChange: (labelId: number | null | undefined) => void; error: string | undefined; numbersField: ReactNode };

export function LabelAudience({ labelId, onChange, error, numbersField }: Props) {
  const { t } = useTranslation();
  const labels = useLabels().data ?? [];
  // undefined: typed numbers; null: 'a label' chosen, none picked yet.
  const byLabel = labelId !== undefined;
  if (labels.length === 0 && !byLabel) return <>{numbersField}</>;
  return (
    <Stack gap={1.5}>
      <ToggleButtonGroup
        value={byLabel ? 'label' : 'numbers'}
        exclusive
        size="small"
        onChange={(_, value: string | null) => value && onChange(value === 'label' ? null : undefined)}
        data-testid="campaign-audience"
      >
        <ToggleButton value="numbers" data-testid="campaign-audience-numbers">
          {t('labels.audienceNumbers')}
        </ToggleButton>
        <ToggleButton value="label" data-testid="campaign-audience-label">
          {t('labels.audienceLabel')}
        </ToggleButton>
      </ToggleButtonGroup>
      {byLabel ? (
        <TextField
          select
          label={t('labels.audienceLabelPick')}
          value={labelId ?? ''}
          onChange={(event) => onChange(Number(event.target.value))}
          error={Boolean(error)}
          helperText={error ?? t('labels.audienceLabelHelp')}
          slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'campaign-label' } as object } }}
        >
          {labels.map((label) => (
            <MenuItem key={label.id} value={label.id} data-testid="campaign-label-option" data-label-id={label.id}>
              {label.name}
            </MenuItem>
          ))}
        </TextField>
      ) : (
        numbersField
      )}
    </Stack>
  );
}
