/** Conversations opened per weekday and hour as a table of shaded cells: the busiest times at a glance. */
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TReport } from './reports.api';

const WEEKDAYS = ['1', '2', '3', '4', '5', '6', '0'] as const;
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

export function BusiestGrid({ report }: { report: TReport }) {
  const { t } = useTranslation();
  const counts = new Map(report.busiest.map((cell) => [`${cell.weekday}-${cell.hour}`, cell.count]));
  const max = Math.max(1, ...report.busiest.map((cell) => cell.count));
  const cell = { px: 0.25, py: 0.5, textAlign: 'center', fontSize: 11, minWidth: 26, borderBottom: 0 } as const;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 }, display: 'flex', flexDirection: 'column', gap: 1 }} data-testid="report-busiest">
      <Typography variant="h6" component="h2" fontWeight={700} sx={{ fontSize: { xs: '1rem', sm: '1.15rem' } }}>
        {t('reports.busiest')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('reports.busiestHint')}
      </Typography>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" sx={{ borderCollapse: 'separate', borderSpacing: 2 }}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ ...cell, textAlign: 'left' }}>{t('reports.weekdayColumn')}</TableCell>
              {HOURS.map((hour) => (
                <TableCell key={hour} sx={cell}>
                  {String(hour).padStart(2, '0')}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {WEEKDAYS.map((weekday) => (
              <TableRow key={weekday}>
                <TableCell component="th" scope="row" sx={{ ...cell, textAlign: 'left', fontWeight: 600, whiteSpace: 'nowrap' }}>
                  {t(`reports.weekdaysShort.${weekday}`)}
                </TableCell>
                {HOURS.map((hour) => {
                  const count = counts.get(`${weekday}-${hour}`) ?? 0;
                  const strength = count / max;
                  return (
                    <TableCell
                      key={hour}
                      title={`${t(`reports.weekdays.${weekday}`)} ${String(hour).padStart(2, '0')}:00 · ${t('reports.conversations', { count })}`}
                      data-testid={count ? `busiest-${weekday}-${hour}` : undefined}
                      sx={{ ...cell, borderRadius: 1, bgcolor: count ? `rgba(0, 121, 107, ${0.12 + 0.88 * strength})` : 'action.hover', color: strength > 0.5 ? '#fff' : 'text.primary' }}
                    >
                      {count || ''}
                    </TableCell>
                  );
                })}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </Paper>
  );
}
