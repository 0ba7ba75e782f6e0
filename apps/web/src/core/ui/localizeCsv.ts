/**
 * An export in the reader's language. The server writes its CSV files for machines (column codes,
 * ISO dates in UTC, status codes) so scripts and the API read them the same in every language; the
 * web app rewrites the copy a person downloads: each column's title translated, dates in the
 * language's format and the browser's time zone, known codes in words.
 */
import { csvCellValue, csvFile, csvRows } from '@zapdesk/shared/csv';
import { i18n } from '../../i18n/i18n';
import { formatDay, formatTime } from './formatDate';

/** A column: its title, and how a value reads (a date, or a code put in words); unknown columns stay as they are. */
export type CsvColumn = { title: string; date?: boolean; value?: (raw: string) => string };

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A stored moment as dd/MM/yyyy HH:mm (en: MM/dd/yyyy) in the browser's time zone. */
export function csvDate(raw: string): string {
  return ISO.test(raw) ? `${formatDay(raw)} ${formatTime(raw)}` : raw;
}

/** A code read through the bundle's texts under `prefix` ('campaigns.status' → 'Concluída'); an unknown code stays. */
export function csvWords(prefix: string): (raw: string) => string {
  return (raw) => {
    const key = `${prefix}.${raw}`;
    // The key is built from data, so it is looked up untyped; exists() guards it.
    const lookup = i18n.t.bind(i18n) as unknown as (key: string) => string;
    return i18n.exists(key) ? lookup(key) : raw;
  };
}

export function localizeCsv(text: string, columns: Record<string, CsvColumn>): string {
  const [header = [], ...rows] = csvRows(text);
  const specs = header.map((code) => columns[code]);
  const read = (spec: CsvColumn | undefined, raw: string): string => {
    if (!spec || raw === '') return raw;
    if (spec.date) return csvDate(raw);
    return spec.value ? spec.value(raw) : raw;
  };
  // The server's formula guard (a leading ') comes off here and csvFile writes it again.
  return csvFile([header.map((code, i) => specs[i]?.title ?? code), ...rows.map((row) => row.map((raw, i) => read(specs[i], csvCellValue(raw))))]);
}
