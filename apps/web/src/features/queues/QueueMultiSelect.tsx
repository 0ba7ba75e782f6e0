import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import OutlinedInput from '@mui/material/OutlinedInput';
import Select from '@mui/material/Select';
import { useId } from 'react';
import { useQueues } from './queues.api';

type Props = { label: string; value: number[]; onChange: (ids: number[]) => void; testId?: string };

/** Picks queues, each shown with its colour. */
export function QueueMultiSelect({ label, value, onChange, testId = 'queue-select' }: Props) {
  const { data: queues = [] } = useQueues();
  const labelId = useId();
  const byId = new Map(queues.map((queue) => [queue.id, queue]));

  return (
    <FormControl fullWidth data-testid={testId}>
      <InputLabel id={labelId}>{label}</InputLabel>
      <Select<number[]>
        labelId={labelId}
        multiple
        value={value}
        onChange={(event) => {
          const next = event.target.value;
          onChange(typeof next === 'string' ? [] : next);
        }}
        input={<OutlinedInput label={label} />}
        renderValue={(selected) => (
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
            {selected.map((id) => {
              const queue = byId.get(id);
              return queue ? <Chip key={id} size="small" label={queue.name} sx={{ bgcolor: queue.color, color: (theme) => theme.palette.getContrastText(queue.color) }} /> : null;
            })}
          </Box>
        )}
        MenuProps={{ slotProps: { paper: { sx: { maxHeight: 320 } } } }}
      >
        {queues.map((queue) => (
          <MenuItem key={queue.id} value={queue.id}>
            <Checkbox size="small" checked={value.includes(queue.id)} />
            <Box component="span" sx={{ width: 14, height: 14, borderRadius: '50%', bgcolor: queue.color, mr: 1.5, flexShrink: 0, border: '1px solid rgba(0,0,0,0.12)' }} />
            <ListItemText primary={queue.name} />
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
