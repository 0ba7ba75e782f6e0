/**
 * CSV files the product writes (contacts export, a chat's `zdg.csv`, later exports): every cell
 * quoted, a cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, carriage return
 * first) prefixed with `'`, lines ended by CRLF, and a UTF-8 byte-order mark first so spreadsheet
 * programs read the accents right.
 */
export const CSV_SEPARATOR = ';';
export const CSV_BOM = '\uFEFF';

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell, quoted, defused if a spreadsheet would take it for a formula. */
export function csvCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** Lines of cells, without the byte-order mark (for a file written in pieces). */
export function csvLines(rows: (string | number | null | undefined)[][], separator = CSV_SEPARATOR): string {
  return rows.map((row) => `${row.map(csvCell).join(separator)}\r\n`).join('');
}

/** A whole CSV file: the byte-order mark, then the lines. */
export function csvFile(rows: (string | number | null | undefined)[][], separator = CSV_SEPARATOR): string {
  return CSV_BOM + csvLines(rows, separator);
}

/** A cell read back from a file the product wrote: the `'` that defused a formula is taken off. */
export function csvCellValue(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}
