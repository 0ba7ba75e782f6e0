/** The compact multi-select of queues above the ticket lists: a filter icon and 'ticked/all'; the names in its tooltip. */
import FilterListIcon from '@mui/icons-material/FilterList';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Tooltip from '@mui/material/Tooltip';
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
        : options
            .filter((queue) => selectedIds.includes(queue.id))
            .map((queue) => queue.name)
            .join(', ');

  return (
    <Tooltip title={`${t('tickets.queueFilter.label')}: ${summary}`} placement="top">
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
          <Box component="span" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
            <FilterListIcon sx={{ fontSize: 18, color: selectedIds.length === options.length ? 'action.active' : 'primary.main' }} />
            <span data-testid="tickets-queue-filter-count">{`${selectedIds.length}/${options.length}`}</span>
          </Box>
        )}
        sx={{ flexShrink: 0, fontSize: 13, '& .MuiSelect-select': { py: 0.6, pl: 1 } }}
        inputProps={{ 'aria-label': t('tickets.queueFilter.label') }}
        MenuProps={{ slotProps: { paper: { sx: { maxHeight: 360 } } } }}
        data-testid="tickets-queue-filter"
        data-summary={summary}
      >
        {options.map((queue) => (
          <MenuItem key={queue.id} value={queue.id} dense data-testid="tickets-queue-option" data-id={queue.id}>
            <Checkbox size="small" checked={selectedIds.includes(queue.id)} sx={{ p: 0.5, mr: 1 }} />
            <Box component="span" sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: queue.color, mr: 1.25, flexShrink: 0, border: '1px solid rgba(0,0,0,0.12)' }} />
            <ListItemText primary={queue.name} />
          </MenuItem>
        ))}
      </Select>
    </Tooltip>
  );
}
