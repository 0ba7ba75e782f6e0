/**
 * The Reports page's data: the report over a range with its filters, the filters' choices, and
 * the CSV in the reader's language.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TReport, TReportOptions, TReportQuery } from '@zapdesk/shared/reports';
import { downloadFile, request } from '../../core/api/client';
import { csvWords, localizeCsv, type CsvColumn } from '../../core/ui/localizeCsv';
import { i18n } from '../../i18n/i18n';
import { formatDay } from '../../core/ui/formatDate';

export type { TReport, TReportOptions, TReportQuery };

export const reportKeys = { all: ['reports'] as const, options: ['reports', 'options'] as const };

function search(query: TReportQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  return params.toString();
}

export function useReport(query: TReportQuery) {
  return useQuery({ queryKey: [...reportKeys.all, query], queryFn: () => request<TReport>(`/reports?${search(query)}`), placeholderData: keepPreviousData });
}

export function useReportOptions() {
  return useQuery({ queryKey: reportKeys.options, queryFn: () => request<TReportOptions>('/reports/options') });
}

/** A day (YYYY-MM-DD) as an instant within it here, for the date formats. */
export function dayInstant(day: string): string {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(year, month - 1, date, 12).toISOString();
}

/** A decimal in the reader's way (1,5 in Portuguese), a day in the reader's format; whole numbers and words stay. */
function valueCell(raw: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) return formatDay(dayInstant(raw));
  return /^-?\d+\.\d+$/.test(raw) ? Number(raw).toLocaleString(i18n.language) : raw;
}

function reportColumns(): Record<string, CsvColumn> {
  const t = i18n.t.bind(i18n);
  return {
    figure: { title: t('reports.csv.figure'), value: csvWords('reports.csvFigures') },
    day: { title: t('reports.csv.day'), value: (raw) => formatDay(dayInstant(raw)) },
    weekday: { title: t('reports.csv.weekday'), value: csvWords('reports.weekdays') },
    hour: { title: t('reports.csv.hour'), value: (raw) => `${raw.padStart(2, '0')}:00` },
    value: { title: t('reports.csv.value'), value: valueCell },
  };
}

export function downloadReportCsv(query: TReportQuery): Promise<void> {
  return downloadFile(`/reports/export?${search(query)}`, 'zdg.csv', (text) => localizeCsv(text, reportColumns()));
}
