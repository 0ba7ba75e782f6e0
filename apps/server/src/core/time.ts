/** Timestamps are stored and sent as ISO-8601 UTC strings on both databases. */
export function nowIso(): string {
  return new Date().toISOString();
}
