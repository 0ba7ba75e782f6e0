/** Timestamps are stored and sent as ISO-8601 UTC strings on both databases. */
export function nowIso(): string {
  return new Date().toISOString();
}

/** The instant a day (YYYY-MM-DD) starts in the server's time zone (TZ), and the next day's start. */
export function localDayBounds(day: string): { start: Date; end: Date } {
  const [y, m, d] = day.split('-').map(Number);
  const start = new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1);
  const end = new Date(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + 1);
  return { start, end };
}
