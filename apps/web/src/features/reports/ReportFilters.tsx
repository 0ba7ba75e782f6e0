/** The report's range (two days) and filters by queue, agent, connection and label. */
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import type { TReportOptions, TReportQuery } from './reports.api';

type FilterKey = 'queueId' | 'userId' | 'whatsappId' | 'labelId';

export function ReportFilters({ query, options, onChange }: { query: TReportQuery; options: TReportOptions | undefined; onChange: (query: TReportQuery) => void }) {
  const { t } = useTranslation();
  const select = (key: FilterKey, label: string, all: string, items: { id: number; name: string }[]) => (
    <TextField
      select
      size="small"
      label={label}
      value={query[key] ?? ''}
      onChange={(e) => onChange({ ...query, [key]: e.target.value === '' ? undefined : Number(e.target.value) })}
      sx={{ minWidth: { md: 170 } }}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      data-testid={`report-filter-${key}`}
    >
      <MenuItem value="">{all}</MenuItem>
      {items.map((item) => (
        <MenuItem key={item.id} value={item.id}>
          {item.name}
        </MenuItem>
      ))}
    </TextField>
  );
  const day = (key: 'from' | 'to', label: string) => (
    <TextField
      type="date"
      size="small"
      label={label}
      value={query[key]}
      onChange={(e) => e.target.value && onChange({ ...query, [key]: e.target.value })}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `report-${key}` } }}
    />
  );
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} gap={1.5} flexWrap="wrap" sx={{ pt: 1 }}>
      <Stack direction="row" gap={1.5} sx={{ '& > *': { flex: { xs: 1, md: 'none' } } }}>
        {day('from', t('reports.from'))}
        {day('to', t('reports.to'))}
      </Stack>
      {select('queueId', t('reports.queue'), t('reports.all'), options?.queues ?? [])}
      {select('userId', t('reports.agent'), t('reports.allAgents'), options?.users ?? [])}
      {select('whatsappId', t('reports.connection'), t('reports.all'), options?.whatsapps ?? [])}
      {options?.labels.length ? select('labelId', t('reports.label'), t('reports.all'), options.labels) : null}
    </Stack>
  );
}
