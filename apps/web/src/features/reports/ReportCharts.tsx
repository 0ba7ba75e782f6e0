/** The report's charts: conversations opened and resolved per day, and opened per hour of the day. */
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDay, formatDayMonth } from '../../core/ui/formatDate';
import { dayInstant, type TReport } from './reports.api';

const RESOLVED_COLOR = '#455A64';

function ChartPaper({ title, children, testId, total }: { title: string; children: ReactNode; testId: string; total: number }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 }, display: 'flex', flexDirection: 'column', gap: 1.5, minWidth: 0 }} data-testid={testId} data-total={total}>
      <Typography variant="h6" component="h2" fontWeight={700} sx={{ fontSize: { xs: '1rem', sm: '1.15rem' } }}>
        {title}
      </Typography>
      <Box sx={{ height: 260 }}>{children}</Box>
    </Paper>
  );
}

export function ReportCharts({ report }: { report: TReport }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const axis = { tickLine: false, axisLine: false, tick: { fontSize: 12, fill: theme.palette.text.secondary } } as const;
  const tooltip = { contentStyle: { borderRadius: 8, borderColor: theme.palette.divider } };
  const days = report.days.map((d) => ({ label: formatDayMonth(dayInstant(d.day)), date: formatDay(dayInstant(d.day)), opened: d.opened, resolved: d.resolved }));
  const hours = Array.from({ length: 24 }, (_, hour) => ({
    label: `${String(hour).padStart(2, '0')}h`,
    opened: report.busiest.filter((cell) => cell.hour === hour).reduce((sum, cell) => sum + cell.count, 0),
  }));
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' }, gap: 2 }}>
      <ChartPaper title={t('reports.perDay')} testId="report-chart-days" total={report.opened}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={days} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke={theme.palette.divider} />
            <XAxis dataKey="label" {...axis} interval="preserveStartEnd" />
            <YAxis allowDecimals={false} {...axis} width={48} />
            <Tooltip {...tooltip} cursor={{ fill: 'rgba(0, 121, 107, 0.06)' }} labelFormatter={(label) => days.find((d) => d.label === label)?.date ?? ''} />
            <Legend wrapperStyle={{ fontSize: 13 }} />
            <Bar dataKey="opened" name={t('reports.openedSeries')} fill={theme.palette.primary.main} radius={[4, 4, 0, 0]} maxBarSize={28} isAnimationActive={false} />
            <Bar dataKey="resolved" name={t('reports.resolvedSeries')} fill={RESOLVED_COLOR} radius={[4, 4, 0, 0]} maxBarSize={28} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </ChartPaper>
      <ChartPaper title={t('reports.perHour')} testId="report-chart-hours" total={report.opened}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={hours} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke={theme.palette.divider} />
            <XAxis dataKey="label" {...axis} interval="preserveStartEnd" />
            <YAxis allowDecimals={false} {...axis} width={48} />
            <Tooltip {...tooltip} cursor={{ fill: 'rgba(0, 121, 107, 0.06)' }} formatter={(value) => [String(value), t('reports.openedSeries')]} />
            <Bar dataKey="opened" fill={theme.palette.primary.main} radius={[4, 4, 0, 0]} maxBarSize={24} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </ChartPaper>
    </Box>
  );
}
