/** The label filter above a list: ticked labels narrow it to what carries any of them; none ticked, no filter. */
import LocalOfferOutlined from '@mui/icons-material/LocalOfferOutlined';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { useLabels } from './labels.api';

type Props = { value: number[]; onChange: (ids: number[]) => void; testId: string };

export function LabelFilterSelect({ value, onChange, testId }: Props) {
  const { t } = useTranslation();
  const labels = useLabels().data ?? [];
  if (labels.length === 0) return null;
  const names = labels.filter((label) => value.includes(label.id)).map((label) => label.name);
  const summary = names.length ? names.join(', ') : t('labels.filterNone');

  return (
    <Tooltip title={`${t('labels.filter')}: ${summary}`} placement="top">
      <Select<number[]>
        multiple
        size="small"
        value={value}
        onChange={(event) => {
          const next = event.target.value;
          onChange(typeof next === 'string' ? [] : next);
        }}
        displayEmpty
        renderValue={() => (
          <Box component="span" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
            <LocalOfferOutlined sx={{ fontSize: 18, color: value.length ? 'primary.main' : 'action.active' }} />
            {/* Unset, the icon alone (the tooltip and the field's name say what it is): the toolbar is narrow. */}
            {value.length ? <span data-testid={`${testId}-count`}>{String(value.length)}</span> : null}
          </Box>
        )}
        sx={{ flexShrink: 0, fontSize: 13, '& .MuiSelect-select': { py: 0.6, pl: 1 } }}
        inputProps={{ 'aria-label': t('labels.filter') }}
        MenuProps={{ slotProps: { paper: { sx: { maxHeight: 360 } } } }}
        data-testid={testId}
        data-summary={summary}
      >
        {labels.map((label) => (
          <MenuItem key={label.id} value={label.id} dense data-testid={`${testId}-option`} data-label-id={label.id}>
            <Checkbox size="small" checked={value.includes(label.id)} sx={{ p: 0.5, mr: 1 }} />
            <Box component="span" sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: label.color, mr: 1.25, flexShrink: 0 }} />
            <ListItemText primary={label.name} />
          </MenuItem>
        ))}
      </Select>
    </Tooltip>
  );
}
