/**
 * Days and hours of a report in an IANA time zone, for SQL that knows no time zones (SQLite): a
 * day's first instant, and the zone's UTC offsets over a range as segments. A moment's local time
 * is then its UTC milliseconds plus the offset of the segment it falls in, the same integer on both
 * databases, whatever the zone's clock changes.
 */

const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(zone, f);
  }
  return f;
}

export function isTimeZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at an instant, in milliseconds (São Paulo: -3 h). */
export function zoneOffsetMs(zone: string, atMs: number): number {
  const parts = Object.fromEntries(
    formatter(zone)
      .formatToParts(new Date(atMs))
      .map((p) => [p.type, p.value]),
  );
  const local = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return local - Math.floor(atMs / 1000) * 1000;
}

/** The instant a day (YYYY-MM-DD) starts in the zone. */
export function dayStartMs(zone: string, day: string): number {
  const [y = 1970, m = 1, d = 1] = day.split('-').map(Number);
  const midnight = Date.UTC(y, m - 1, d);
  let guess = midnight - zoneOffsetMs(zone, midnight);
  // Twice: the offset at the guess may differ from the offset at UTC midnight around a clock change.
  guess = midnight - zoneOffsetMs(zone, guess);
  return guess;
}

/** The day after (YYYY-MM-DD). */
export function nextDay(day: string): string {
  const [y = 1970, m = 1, d = 1] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to && days.length <= 400; day = nextDay(day)) days.push(day);
  return days;
}

export type OffsetSegment = { untilMs: number; offsetMs: number };

/**
 * The zone's offsets from `fromMs` to `toMs`: each segment holds until `untilMs` (excluded), the
 * last one beyond. Clock changes are found day by day, then to the second.
 */
export function offsetSegments(zone: string, fromMs: number, toMs: number): { segments: OffsetSegment[]; lastOffsetMs: number } {
  const segments: OffsetSegment[] = [];
  let current = zoneOffsetMs(zone, fromMs);
  let at = fromMs;
  while (at < toMs) {
    const next = Math.min(at + DAY_MS, toMs);
    const offset = zoneOffsetMs(zone, next);
    if (offset !== current) {
      let low = at;
      let high = next;
      while (high - low > 1000) {
        const mid = Math.floor((low + high) / 2000) * 1000;
        if (mid <= low) break;
        if (zoneOffsetMs(zone, mid) === current) low = mid;
        else high = mid;
      }
      segments.push({ untilMs: high, offsetMs: current });
      current = offset;
    }
    at = next;
  }
  return { segments, lastOffsetMs: current };
}

export type LocalSlot = { startMs: number; endMs: number; day: number; hour: number };

/**
 * The instants from `fromMs` to `toMs` cut where the local day (or hour) changes: each slot's
 * moments share one local day number and hour (local milliseconds / one day, / one hour mod 24,
 * the offset being the one of the segment a moment falls in), so counting a slot's tickets counts
 * exactly the tickets a per-ticket computation of the local day and hour would put there.
 */
export function localSlots(clock: { segments: OffsetSegment[]; lastOffsetMs: number }, fromMs: number, toMs: number, width: 'day' | 'hour'): LocalSlot[] {
  const step = width === 'day' ? DAY_MS : 3_600_000;
  const slots: LocalSlot[] = [];
  const pieces = [...clock.segments.map((s) => ({ until: s.untilMs, offset: s.offsetMs })), { until: Infinity, offset: clock.lastOffsetMs }];
  let at = fromMs;
  for (const piece of pieces) {
    const end = Math.min(piece.until, toMs);
    while (at < end) {
      const local = at + piece.offset;
      const next = Math.min((Math.floor(local / step) + 1) * step - piece.offset, end);
      slots.push({ startMs: at, endMs: next, day: Math.floor(local / DAY_MS), hour: Math.floor(local / 3_600_000) % 24 });
      at = next;
    }
    if (at >= toMs) break;
  }
  return slots;
}
