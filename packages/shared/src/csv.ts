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

/**
 * The rows of a file the product wrote (the byte-order mark dropped, cells quoted or not, `"` doubled
 * inside quotes, lines ended by CRLF or LF), cells as written: the web app rewrites an export's
 * header and values in the reader's language with it.
 */
export function csvRows(text: string, separator = CSV_SEPARATOR): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = text.startsWith(CSV_BOM) ? 1 : 0;
  for (; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === separator) {
      row.push(cell);
      cell = '';
    } else if (char === '\r' || char === '\n') {
      if (char === '\r' && text[i + 1] === '\n') i += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += char;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}
