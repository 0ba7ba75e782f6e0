/** Tickets resolved and the median first response over the chosen period, per queue and per agent. */
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TableRowsSkeleton } from '../../core/ui/TableStates';
import type { TDashboard } from './dashboard.api';
import { formatWait } from './formatWait';

/** Shown where a figure has no data (no ticket answered). */
const NO_FIGURE = '—';

type Row = { key: string; name: ReactNode; resolved: number; medianFirstResponseMs: number | null };

function FiguresTable({ title, nameColumn, rows, testId }: { title: string; nameColumn: string; rows: Row[] | undefined; testId: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 }, minWidth: 0 }} data-testid={testId}>
      <Typography id={headingId} variant="subtitle1" component="h2" fontWeight={700} sx={{ mb: 1 }}>
        {title}
      </Typography>
      <Table size="small" aria-labelledby={headingId} sx={{ tableLayout: 'fixed', '& th': { whiteSpace: 'normal', lineHeight: 1.3, verticalAlign: 'bottom' } }}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ pl: 0 }}>{nameColumn}</TableCell>
            <TableCell align="right" sx={{ width: { xs: 84, sm: 104 } }}>
              {t('dashboard.columns.resolved')}
            </TableCell>
            <TableCell align="right" sx={{ width: { xs: 112, sm: 190 }, pr: 0 }}>
              {t('dashboard.columns.firstResponse')}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows === undefined ? (
            <TableRowsSkeleton columns={3} rows={2} />
          ) : rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={3} sx={{ px: 0, color: 'text.secondary', borderBottom: 'none' }}>
                {t('dashboard.noFigures')}
              </TableCell>
            </TableRow>
          ) : (
            rows.map((row) => (
              <TableRow key={row.key} data-testid={`${testId}-row`} sx={{ '&:last-child td': { borderBottom: 'none' } }}>
                <TableCell sx={{ pl: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} data-testid="figure-name">
                  {row.name}
                </TableCell>
                <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }} data-testid="figure-resolved">
                  {row.resolved.toLocaleString()}
                </TableCell>
                <TableCell align="right" sx={{ pr: 0, whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }} data-testid="figure-first-response">
                  {row.medianFirstResponseMs === null ? NO_FIGURE : formatWait(row.medianFirstResponseMs, t)}
                </TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </Paper>
  );
}

function QueueName({ name, color }: { name: string; color: string }) {
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, maxWidth: '100%' }}>
      <Box component="span" aria-hidden sx={{ width: 10, height: 10, borderRadius: '50%', flexShrink: 0, bgcolor: color || 'grey.400' }} />
      <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
        {name}
      </Box>
    </Box>
  );
}

export function FiguresTables({ data }: { data: TDashboard | undefined }) {
  const { t } = useTranslation();
  const queues = data?.queues?.map((queue) => ({
    key: String(queue.queueId),
    name: <QueueName name={queue.queueId === null ? t('dashboard.noQueue') : queue.name} color={queue.color} />,
    resolved: queue.resolved,
    medianFirstResponseMs: queue.medianFirstResponseMs,
  }));
  const agents = data?.agents?.map((agent) => ({ key: String(agent.userId), name: agent.name, resolved: agent.resolved, medianFirstResponseMs: agent.medianFirstResponseMs }));
  return (
    // The page grows past the screen here: the bottom padding keeps the note off the edge.
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, pb: { xs: 1.5, sm: 3 } }}>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' }, gap: { xs: 1, sm: 2 } }}>
        <FiguresTable title={t('dashboard.byQueue')} nameColumn={t('dashboard.columns.queue')} rows={queues} testId="dashboard-queues" />
        <FiguresTable title={t('dashboard.byAgent')} nameColumn={t('dashboard.columns.agent')} rows={agents} testId="dashboard-agents" />
      </Box>
      <Typography variant="caption" color="text.secondary">
        {t('dashboard.firstResponseHint')}
      </Typography>
    </Box>
  );
}
