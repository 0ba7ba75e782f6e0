/** The contacts CSV: a header row (name, number, email; pt and es names too), `;` or `,` separated. */
import { parse } from 'csv-parse/sync';
import { CSV_BOM, csvCellValue, csvLines } from '@zapdesk/shared/csv';
import { foldText } from '@zapdesk/shared/domain';
import { ZContactInputSchema, type TContactImportResult } from '@zapdesk/shared/schemas';
import { AppError } from '../../core/errors.js';
import type { ContactWrite } from './contacts.repository.js';

export const MAX_IMPORT_ROWS = 50000;

const HEADER_ALIASES: Record<string, keyof ContactWrite> = {
  name: 'name',
  nome: 'name',
  nombre: 'name',
  number: 'number',
  numero: 'number',
  phone: 'number',
  telefone: 'number',
  telefono: 'number',
  whatsapp: 'number',
  email: 'email',
  'e-mail': 'email',
  correo: 'email',
};

export type ParsedImport = { rows: { line: number; data: ContactWrite }[]; invalid: TContactImportResult['skipped'] };

export function parseContactsCsv(content: string): ParsedImport {
  // One line ending, so the parser counts lines the way an editor shows them.
  const text = content.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const firstLine = text.split('\n', 1)[0] ?? '';
  const delimiter = firstLine.includes(';') ? ';' : ',';
  // Empty lines are skipped, so a record's position is not its line: keep the line it ends on.
  const lines: number[] = [];
  let records: string[][];
  try {
    records = parse(text, {
      delimiter,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
      on_record: (record, context) => {
        lines.push(context.lines);
        return record;
      },
    });
  } catch (error) {
    throw new AppError('ERR_INVALID_CSV', { message: `The file is not a valid contacts CSV: ${(error as Error).message}` });
  }
  const header = (records[0] ?? []).map((h) => HEADER_ALIASES[foldText(h)]);
  const nameIdx = header.indexOf('name');
  const numberIdx = header.indexOf('number');
  const emailIdx = header.indexOf('email');
  if (nameIdx < 0 || numberIdx < 0) {
    throw new AppError('ERR_INVALID_CSV', { message: 'The first line must name the columns: name;number;email' });
  }
  if (records.length - 1 > MAX_IMPORT_ROWS) {
    throw new AppError('ERR_INVALID_CSV', { message: `At most ${MAX_IMPORT_ROWS} contacts per file.` });
  }
  const parsed: ParsedImport = { rows: [], invalid: [] };
  records.slice(1).forEach((record, i) => {
    const line = lines[i + 1] ?? i + 2;
    const result = ZContactInputSchema.safeParse({
      // A file the product exported comes back as it was: the ' that defused a formula goes.
      name: csvCellValue(record[nameIdx] ?? ''),
      // As typed: the import reads it by the number rule with the default country code.
      number: record[numberIdx] ?? '',
      email: emailIdx >= 0 ? csvCellValue(record[emailIdx] ?? '') : '',
    });
    if (result.success) parsed.rows.push({ line, data: { name: result.data.name, number: result.data.number, email: result.data.email } });
    else {
      const issue = result.error.issues[0];
      parsed.invalid.push({ line, reason: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'INVALID'}` });
    }
  });
  return parsed;
}

/** A piece of the contacts export; the first starts the file (byte-order mark and header). */
/** The export's rows; `labels`: the contact's label names, separated by commas (an import ignores the column). */
export function contactsCsvChunk(rows: (ContactWrite & { labels: string })[], first: boolean): string {
  const lines = csvLines(rows.map((r) => [r.name, r.number, r.email, r.labels]));
  return first ? `${CSV_BOM}${csvLines([['name', 'number', 'email', 'labels']])}${lines}` : lines;
}
