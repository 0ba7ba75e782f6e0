const pad = (n: number) => String(n).padStart(2, '0');

/** dd/MM/yy HH:mm in the browser's time zone, the format of the spec's tables. */
export function formatShortDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${pad(date.getFullYear() % 100)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
