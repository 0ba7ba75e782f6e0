/** The CSV export of a chat's loaded messages: `;`-separated, every field quoted, for spreadsheets in pt-BR. */
import type { TMessage } from '@zapdesk/shared/messaging';
import { formatDay, formatTime } from '../../core/ui/formatDate';

export const CSV_SEPARATOR = ';';
export const CSV_FILE_NAME = 'zdg.csv';

function quote(value: string): string {
  return `"${value.replace(/"/g, '""')}"`;
}

export function messagesToCsv(messages: TMessage[], labels: { header: [string, string, string, string]; me: string; contact: string }): string {
  const rows = [labels.header.map(quote).join(CSV_SEPARATOR)];
  for (const message of messages) {
    const from = message.fromMe ? labels.me : (message.contact?.name ?? labels.contact);
    rows.push([formatDay(message.createdAt), formatTime(message.createdAt), from, message.isDeleted ? '' : message.body].map(quote).join(CSV_SEPARATOR));
  }
  // The byte-order mark makes spreadsheet programs read the accents as UTF-8.
  return `\uFEFF${rows.join('\r\n')}\r\n`;
}
