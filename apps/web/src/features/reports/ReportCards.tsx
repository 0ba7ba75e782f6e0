/** The report's headline figures: conversations opened and resolved, first response, resolution and satisfaction. */
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TDurationFigures } from '@zapdesk/shared/reports';
import type { TReport } from './reports.api';
import { formatDuration } from './formatDuration';

function Card({ title, value, children, testId }: { title: string; value: ReactNode; children?: ReactNode; testId: string }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, display: 'flex', flexDirection: 'column', gap: 0.5, minWidth: 0 }} data-testid={testId}>
      <Typography variant="body2" color="text.secondary" fontWeight={600} noWrap>
        {title}
      </Typography>
      <Typography component="p" fontWeight={700} sx={{ fontSize: { xs: '1.4rem', sm: '1.75rem' }, lineHeight: 1.2 }} data-testid={`${testId}-value`}>
        {value}
      </Typography>
      {children}
    </Paper>
  );
}

function Caption({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Typography variant="caption" color="text.secondary" data-testid={testId}>
      {children}
    </Typography>
  );
}

function DurationCard({ title, figures, testId }: { title: string; figures: TDurationFigures; testId: string }) {
  const { t } = useTranslation();
  const shown = (ms: number | null) => (ms === null ? t('reports.noValue') : formatDuration(ms, t));
  return (
    <Card title={title} value={shown(figures.medianMs)} testId={testId}>
      <Caption>
        {t('reports.median')} · {t('reports.conversations', { count: figures.count })}
      </Caption>
      <Caption testId={`${testId}-p90`}>
        {t('reports.p90')} {shown(figures.p90Ms)}
      </Caption>
    </Card>
  );
}

export function ReportCards({ report }: { report: TReport | undefined }) {
  const { t, i18n } = useTranslation();
  const grid = { display: 'grid', gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(5, minmax(0, 1fr))' }, gap: { xs: 1, sm: 2 } };
  if (!report) {
    return (
      <Box sx={grid}>
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} variant="rounded" height={112} />
        ))}
      </Box>
    );
  }
  const average = report.csat.average === null ? null : report.csat.average.toLocaleString(i18n.language, { maximumFractionDigits: 2 });
  return (
    <Box sx={grid} data-testid="report-cards">
      <Card title={t('reports.opened')} value={report.opened.toLocaleString(i18n.language)} testId="report-opened" />
      <Card title={t('reports.resolved')} value={report.resolved.toLocaleString(i18n.language)} testId="report-resolved" />
      <DurationCard title={t('reports.firstResponse')} figures={report.firstResponse} testId="report-first-response" />
      <DurationCard title={t('reports.resolution')} figures={report.resolution} testId="report-resolution" />
      <Card title={t('reports.csat')} value={average === null ? t('reports.noValue') : t('reports.csatAverage', { average })} testId="report-csat">
        <Caption>{report.csat.count === 0 ? t('reports.noAnswers') : t('reports.answers', { count: report.csat.count })}</Caption>
      </Card>
    </Box>
  );
}
