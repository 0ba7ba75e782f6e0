/** The compact multi-select of queues above the ticket lists. */
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import { useTranslation } from 'react-i18next';
import type { TicketQueueFilter } from './useTicketQueueFilter';

export function TicketsQueueSelect({ filter }: { filter: TicketQueueFilter }) {
  const { t } = useTranslation();
  const { options, selectedIds, setSelectedIds } = filter;
  if (options.length === 0) return null;

  const summary =
    selectedIds.length === options.length
      ? t('tickets.queueFilter.all')
      : selectedIds.length === 0
        ? t('tickets.queueFilter.none')
        : selectedIds.length === 1
          ? (options.find((queue) => queue.id === selectedIds[0])?.name ?? '')
          : t('tickets.queueFilter.some', { count: selectedIds.length });

  return (
    <Select<number[]>
      multiple
      size="small"
      value={selectedIds}
      onChange={(event) => {
        const next = event.target.value;
        setSelectedIds(typeof next === 'string' ? [] : next);
      }}
      displayEmpty
      renderValue={() => (
        <Box component="span" sx={{ display: 'flex', alignItems: 'center', gap: 0.75, minWidth: 0 }}>
          <Box component="span" sx={{ display: 'flex', flexShrink: 0 }}>
            {options
              .filter((queue) => selectedIds.includes(queue.id))
              .slice(0, 3)
              .map((queue) => (
                <Box key={queue.id} component="span" sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: queue.color, ml: -0.25, border: '1px solid #fff' }} />
              ))}
          </Box>
          <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
            {summary}
          </Box>
        </Box>
      )}
      sx={{ minWidth: 0, maxWidth: 170, fontSize: 13, '& .MuiSelect-select': { py: 0.6 } }}
      inputProps={{ 'aria-label': t('tickets.queueFilter.label') }}
      MenuProps={{ slotProps: { paper: { sx: { maxHeight: 360 } } } }}
      data-testid="tickets-queue-filter"
    >
      {options.map((queue) => (
        <MenuItem key={queue.id} value={queue.id} dense data-testid="tickets-queue-option" data-id={queue.id}>
          <Checkbox size="small" checked={selectedIds.includes(queue.id)} sx={{ p: 0.5, mr: 1 }} />
          <Box component="span" sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: queue.color, mr: 1.25, flexShrink: 0, border: '1px solid rgba(0,0,0,0.12)' }} />
          <ListItemText primary={queue.name} />
        </MenuItem>
      ))}
    </Select>
  );
}
