const pad = (n: number) => String(n).padStart(2, '0');

/** dd/MM/yy HH:mm in the browser's time zone, the format of the spec's tables. */
export function formatShortDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${pad(date.getFullYear() % 100)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** dd/MM/yyyy in the browser's time zone: the chat's day separators. */
export function formatDay(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;
}

/** HH:mm in the browser's time zone. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** HH:mm when the moment is today, else dd/MM/yyyy: the time of a ticket row. */
export function formatRecent(iso: string, now: Date = new Date()): string {
  return formatDay(iso) === formatDay(now.toISOString()) ? formatTime(iso) : formatDay(iso);
}
