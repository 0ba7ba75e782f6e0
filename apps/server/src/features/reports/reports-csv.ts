/**
 * A report as `zdg.csv` for machines (the web app puts the titles and codes in the reader's
 * language): one row per figure, per day and per busy weekday-and-hour. Columns: figure, day
 * (YYYY-MM-DD), weekday (0 Sunday … 6 Saturday), hour (0–23), value; durations in seconds.
 */
import { csvFile } from '@zapdesk/shared/csv';
import type { TDurationFigures, TReport } from '@zapdesk/shared/reports';

export const REPORT_CSV_COLUMNS = ['figure', 'day', 'weekday', 'hour', 'value'] as const;

type Cell = string | number | null;

function seconds(ms: number | null): Cell {
  return ms === null ? '' : ms / 1000;
}

function durationRows(prefix: 'firstResponse' | 'resolution', figures: TDurationFigures): Cell[][] {
  return [
    [`${prefix}Count`, '', '', '', figures.count],
    [`${prefix}MedianSeconds`, '', '', '', seconds(figures.medianMs)],
    [`${prefix}P90Seconds`, '', '', '', seconds(figures.p90Ms)],
  ];
}

export function reportCsv(report: TReport): string {
  const figure = (name: string, value: Cell): Cell[] => [name, '', '', '', value];
  return csvFile([
    [...REPORT_CSV_COLUMNS],
    figure('from', report.from),
    figure('to', report.to),
    figure('timeZone', report.timeZone),
    figure('opened', report.opened),
    figure('resolved', report.resolved),
    ...durationRows('firstResponse', report.firstResponse),
    ...durationRows('resolution', report.resolution),
    figure('csatCount', report.csat.count),
    figure('csatAverage', report.csat.average ?? ''),
    ...report.days.flatMap((d) => [
      ['openedOnDay', d.day, '', '', d.opened],
      ['resolvedOnDay', d.day, '', '', d.resolved],
    ]),
    ...report.busiest.map((cell) => ['openedAtHour', '', cell.weekday, cell.hour, cell.count]),
  ]);
}
