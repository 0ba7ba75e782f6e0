/**
 * /reports (admins and the roles holding `reports`): the service's figures over a range of days,
 * filtered by queue, agent, connection and label, with charts, the busiest hours and the CSV.
 */
import Download from '@mui/icons-material/Download';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { PageLayout } from '../../core/ui/PageLayout';
import { toastError } from '../../core/ui/toastError';
import { BusiestGrid } from './BusiestGrid';
import { ReportCards } from './ReportCards';
import { ReportCharts } from './ReportCharts';
import { ReportFilters } from './ReportFilters';
import { downloadReportCsv, useReport, useReportOptions, type TReportQuery } from './reports.api';

/** The last 7 days, today included. */
const DEFAULT_DAYS = 7;

function localDay(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** A zone as people call it ('Horário de Brasília'), its id when the browser has no name for it. */
function zoneName(zone: string, language: string): string {
  try {
    const part = new Intl.DateTimeFormat(language, { timeZone: zone, timeZoneName: 'longGeneric' }).formatToParts(new Date()).find((p) => p.type === 'timeZoneName');
    return part?.value ?? zone;
  } catch {
    return zone;
  }
}

function defaultQuery(now = new Date()): TReportQuery {
  const from = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (DEFAULT_DAYS - 1));
  return { from: localDay(from), to: localDay(now) };
}

export default function ReportsPage() {
  const { t, i18n } = useTranslation();
  const [query, setQuery] = useState<TReportQuery>(() => defaultQuery());
  const [exporting, setExporting] = useState(false);
  const report = useReport(query);
  const options = useReportOptions();

  useEffect(() => {
    if (report.error) toastError(report.error);
  }, [report.error]);

  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadReportCsv(query);
      toast.success(t('reports.exported'));
    } catch (error) {
      toastError(error);
    } finally {
      setExporting(false);
    }
  };

  const data = report.data;
  return (
    <PageLayout
      title={t('menu.reports')}
      subtitle={t('reports.subtitle')}
      testId="reports-page"
      actions={
        <Button variant="outlined" startIcon={<Download />} onClick={() => void exportCsv()} disabled={exporting || !data} data-testid="report-export">
          {t('reports.export')}
        </Button>
      }
    >
      <Stack sx={{ overflowY: 'auto', minHeight: 0, gap: 2, pb: 2, '& > *': { flexShrink: 0 } }} data-testid="report-body" data-loading={report.isFetching ? 'true' : 'false'}>
        <ReportFilters query={query} options={options.data} onChange={setQuery} />
        <ReportCards report={data} />
        {data ? (
          <>
            <Typography variant="body2" color="text.secondary" data-testid="report-notes" data-zone={data.timeZone}>
              {t('reports.timeZone', { zone: zoneName(data.timeZone, i18n.language) })} {data.businessHoursOnly ? t('reports.businessHoursOnly') : t('reports.aroundTheClock')}
              {data.opened === 0 && data.resolved === 0 ? ` ${t('reports.empty')}` : ''}
            </Typography>
            <ReportCharts report={data} />
            <BusiestGrid report={data} />
          </>
        ) : null}
      </Stack>
    </PageLayout>
  );
}
