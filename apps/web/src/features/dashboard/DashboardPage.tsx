/**
 * The dashboard: the user's queues at a glance (in service, waiting, closed), today's new tickets
 * by hour or the period's by day, and the period's figures per queue and agent.
 */
import HourglassEmptyOutlined from '@mui/icons-material/HourglassEmptyOutlined';
import SupportAgentOutlined from '@mui/icons-material/SupportAgentOutlined';
import TaskAltOutlined from '@mui/icons-material/TaskAltOutlined';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { DashboardRange } from '@zapdesk/shared/messaging';
import { formatDay, formatDayMonth } from '../../core/ui/formatDate';
import { PageLayout } from '../../core/ui/PageLayout';
import { toastError } from '../../core/ui/toastError';
import { useDashboard, useDashboardLiveRefresh, type TDashboard } from './dashboard.api';
import { FirstRunChecklist } from '../onboarding/FirstRunChecklist';
import { FiguresTables } from './FiguresTables';
import { RangePicker } from './RangePicker';

type CounterKey = keyof TDashboard['counters'];

const COUNTERS: { key: CounterKey; icon: ReactNode; color: string; background: string }[] = [
  { key: 'open', icon: <SupportAgentOutlined />, color: '#00796B', background: 'rgba(0, 121, 107, 0.12)' },
  { key: 'pending', icon: <HourglassEmptyOutlined />, color: '#B26A00', background: 'rgba(237, 108, 2, 0.12)' },
  { key: 'closed', icon: <TaskAltOutlined />, color: '#455A64', background: 'rgba(69, 90, 100, 0.12)' },
];

function CounterCard({ label, value, icon, color, background, testId }: { label: string; value: number | undefined; icon: ReactNode; color: string; background: string; testId: string }) {
  return (
    <Paper
      variant="outlined"
      sx={{ p: { xs: 1.5, sm: 2.5 }, display: 'flex', alignItems: 'center', gap: 2, borderTop: 4, borderTopColor: color, minWidth: 0 }}
      data-testid={testId}
      data-count={value ?? ''}
    >
      {/* Three counters side by side on a phone leave no room for the icon. */}
      <Avatar sx={{ bgcolor: background, color, width: 52, height: 52, display: { xs: 'none', sm: 'flex' } }}>{icon}</Avatar>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" color="text.secondary" fontWeight={600} noWrap sx={{ fontSize: { xs: 12, sm: 14 } }}>
          {label}
        </Typography>
        {value === undefined ? (
          <Skeleton variant="text" width={64} sx={{ fontSize: '2.25rem' }} />
        ) : (
          <Typography component="p" fontWeight={700} sx={{ lineHeight: 1.2, fontSize: { xs: '1.6rem', sm: '2.125rem' }, color: { xs: color, sm: 'text.primary' } }} data-testid={`${testId}-value`}>
            {value.toLocaleString()}
          </Typography>
        )}
      </Box>
    </Paper>
  );
}

/** A server day (YYYY-MM-DD) as an instant within that day here, for the date formats. */
function dayInstant(day: string): string {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(year, month - 1, date, 12).toISOString();
}

/**
 * Today: office hours by the hour (the spec's 08:00–19:00 chart, widened by the server to any hour with tickets), 'New today' counting the whole
 * day. The last 7 or 30 days: one bar a day.
 */
function TodayChart({ data }: { data: TDashboard | undefined }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const today = data?.today;
  const days = data?.days;
  const points = days
    ? days.map((day) => ({ label: formatDayMonth(dayInstant(day.day)), date: formatDay(dayInstant(day.day)), count: day.count }))
    : today?.map((hour) => ({ label: hour.hour, date: hour.hour, count: hour.count }));
  const total = days ? days.reduce((sum, day) => sum + day.count, 0) : data?.newToday;
  return (
    <Paper
      variant="outlined"
      sx={{ p: { xs: 1.5, sm: 2.5 }, display: 'flex', flexDirection: 'column', gap: 1.5, minHeight: 320, flex: '1 0 auto' }}
      data-testid="dashboard-chart"
      data-total={total ?? ''}
      data-hours={today?.map((hour) => hour.hour).join(',') ?? ''}
      data-days={days?.map((day) => day.day).join(',') ?? ''}
    >
      <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2" fontWeight={700}>
          {days ? t(data?.range === '30d' ? 'dashboard.rangeTitle.30d' : 'dashboard.rangeTitle.7d') : t('dashboard.today')}
        </Typography>
        {total === undefined ? null : (
          <Typography variant="body2" color="text.secondary" data-testid="dashboard-today-total">
            {days ? t('dashboard.rangeTotal', { count: total }) : t('dashboard.todayTotal', { count: total })}
          </Typography>
        )}
      </Box>
      {points === undefined ? (
        <Skeleton variant="rounded" sx={{ flex: 1, minHeight: 260 }} />
      ) : (
        <Box sx={{ flex: 1, minHeight: 260 }}>
          <ResponsiveContainer width="100%" height="100%" minHeight={260}>
            <BarChart data={points} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} stroke={theme.palette.divider} />
              <XAxis dataKey="label" tickLine={false} axisLine={false} tick={{ fontSize: 12, fill: theme.palette.text.secondary }} interval="preserveStartEnd" />
              <YAxis allowDecimals={false} tickLine={false} axisLine={false} tick={{ fontSize: 12, fill: theme.palette.text.secondary }} width={48} />
              <Tooltip
                cursor={{ fill: 'rgba(0, 121, 107, 0.06)' }}
                formatter={(value) => [String(value), t('dashboard.tickets')]}
                labelFormatter={(label) => points.find((point) => point.label === label)?.date ?? ''}
                contentStyle={{ borderRadius: 8, borderColor: theme.palette.divider }}
              />
              <Bar dataKey="count" fill={theme.palette.primary.main} radius={[6, 6, 0, 0]} maxBarSize={40} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </Box>
      )}
    </Paper>
  );
}

export default function DashboardPage() {
  const { t } = useTranslation();
  const [range, setRange] = useState<DashboardRange>('today');
  const query = useDashboard(range);
  useDashboardLiveRefresh();

  useEffect(() => {
    if (query.error) toastError(query.error);
  }, [query.error]);

  const counters = query.data?.counters;
  return (
    <PageLayout title={t('menu.dashboard')} subtitle={t('dashboard.subtitle')} testId="dashboard-page" actions={<RangePicker value={range} onChange={setRange} />}>
      <FirstRunChecklist />
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: { xs: 1, sm: 2 } }}>
        {COUNTERS.map((counter) => (
          <CounterCard
            key={counter.key}
            label={t(`dashboard.counters.${counter.key}`)}
            value={counters?.[counter.key]}
            icon={counter.icon}
            color={counter.color}
            background={counter.background}
            testId={`dashboard-${counter.key}`}
          />
        ))}
      </Box>
      <TodayChart data={query.data} />
      <FiguresTables data={query.data} />
    </PageLayout>
  );
}
