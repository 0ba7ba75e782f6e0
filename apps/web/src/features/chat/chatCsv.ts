/** The CSV export of a chat's loaded messages (`zdg.csv`), written like every export (see @zapdesk/shared/csv). */
import { csvFile } from '@zapdesk/shared/csv';
import type { TMessage } from '@zapdesk/shared/messaging';
import { formatDay, formatTime } from '../../core/ui/formatDate';

export const CSV_FILE_NAME = 'zdg.csv';

/** `ticketLabels`: the ticket's labels, a last column repeated on each row (so a filter in a spreadsheet keeps them). */
export function messagesToCsv(
  messages: TMessage[],
  labels: { header: [string, string, string, string]; me: string; contact: string; ticketLabels?: { title: string; value: string } | undefined },
): string {
  const extra = labels.ticketLabels;
  const rows: string[][] = [extra ? [...labels.header, extra.title] : labels.header];
  for (const message of messages) {
    const from = message.fromMe ? labels.me : (message.contact?.name ?? labels.contact);
    const row = [formatDay(message.createdAt), formatTime(message.createdAt), from, message.isDeleted ? '' : message.body];
    rows.push(extra ? [...row, extra.value] : row);
  }
  return csvFile(rows);
}

/** The same messages as plain text, one per line, for the body of the conversation's e-mail. */
export function messagesToText(messages: TMessage[], labels: { me: string; contact: string }): string {
  return messages
    .filter((message) => !message.isDeleted)
    .map((message) => `${formatDay(message.createdAt)} ${formatTime(message.createdAt)} - ${message.fromMe ? labels.me : (message.contact?.name ?? labels.contact)}: ${message.body}`)
    .join('\n');
}
