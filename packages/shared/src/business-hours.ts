/**
 * Opening hours of a queue (or the default): weekly ranges in a time zone, and holidays.
 * Pure functions used by the server (out-of-hours reply, queue menu, dashboard, reports) and the
 * web editor. Wall-clock times are turned into UTC instants through Intl, so time zones with and
 * without daylight saving time are both exact.
 */
import { z } from 'zod';

export type BusinessHoursRange = { from: string; to: string };

export type BusinessHours = {
  /** IANA time zone, e.g. America/Sao_Paulo. */
  timezone: string;
  /** Index 0 = Sunday … 6 = Saturday; 'HH:MM' local, to > from, '24:00' allowed as `to`. */
  week: BusinessHoursRange[][];
  /** 'YYYY-MM-DD' local dates, closed all day. */
  holidays: string[];
};

export const BUSINESS_HOURS_MAX_RANGES_PER_DAY = 6;
export const BUSINESS_HOURS_MAX_HOLIDAYS = 400;
export const OUT_OF_HOURS_MESSAGE_MAX = 2000;

const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isValidTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

function isRealDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const [y = 0, m = 0, d = 0] = value.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export const ZBusinessHoursRangeSchema = z
  .object({
    from: z.string('INVALID').regex(TIME, 'INVALID'),
    to: z.string('INVALID').refine((v) => TIME.test(v) || v === '24:00', 'INVALID'),
  })
  .refine((r) => r.to > r.from, { path: ['to'], message: 'END_BEFORE_START' });

export const ZBusinessHoursSchema = z.object({
  timezone: z.string('INVALID').min(1, 'REQUIRED').max(64, 'TOO_LONG').refine(isValidTimeZone, 'INVALID'),
  week: z.array(z.array(ZBusinessHoursRangeSchema).max(BUSINESS_HOURS_MAX_RANGES_PER_DAY)).length(7),
  holidays: z.array(z.string('INVALID').refine(isRealDate, 'INVALID')).max(BUSINESS_HOURS_MAX_HOLIDAYS, 'TOO_MANY'),
});
export type TBusinessHours = z.infer<typeof ZBusinessHoursSchema>;

/** What an admin saves for a queue or the default: the hours and the out-of-hours message. */
export const ZBusinessHoursSettingsSchema = ZBusinessHoursSchema.extend({
  outOfHoursMessage: z.string('INVALID').max(OUT_OF_HOURS_MESSAGE_MAX, 'TOO_LONG').default(''),
});
export type TBusinessHoursSettings = z.infer<typeof ZBusinessHoursSettingsSchema>;

/** Answer of the hours routes: null hours = none set (always open for a default, 'uses the default' for a queue). */
export const ZBusinessHoursEntrySchema = z.object({ queueId: z.number().int().nullable(), hours: ZBusinessHoursSchema.nullable(), outOfHoursMessage: z.string() });
export type TBusinessHoursEntry = z.infer<typeof ZBusinessHoursEntrySchema>;

/* ---------- time zone arithmetic ---------- */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timezone: string): Intl.DateTimeFormat {
  let f = formatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timezone, f);
  }
  return f;
}

type LocalParts = { year: number; month: number; day: number; hour: number; minute: number; second: number };

export function localPartsAt(timezone: string, epochMs: number): LocalParts {
  const out: LocalParts = { year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
  for (const p of formatterOf(timezone).formatToParts(new Date(epochMs))) {
    if (p.type in out) out[p.type as keyof LocalParts] = Number(p.value);
  }
  return out;
}

/** Offset of the zone at an instant, in ms (local = UTC + offset). */
function offsetAt(timezone: string, epochMs: number): number {
  const p = localPartsAt(timezone, epochMs);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - (epochMs - (((epochMs % 1000) + 1000) % 1000));
}

/**
 * The instant of a local wall-clock time. A time skipped by a DST change (spring forward) maps
 * to the instant the clocks jump (the first instant whose wall clock is past it); a repeated time (fall back) maps to its second occurrence.
 */
function localToEpoch(timezone: string, y: number, m: number, d: number, minutes: number): number {
  const wall = Date.UTC(y, m - 1, d, 0, minutes);
  const o1 = offsetAt(timezone, wall);
  const t1 = wall - o1;
  const o2 = offsetAt(timezone, t1);
  if (o2 === o1) return t1;
  const t2 = wall - o2;
  if (offsetAt(timezone, t2) === o2) return t2;
  // Inside a gap: the first instant whose wall clock has passed `wall` is the jump itself.
  const before = Math.min(o1, o2);
  let lo = wall - Math.max(o1, o2);
  let hi = wall - before;
  while (hi - lo > 60_000) {
    const mid = lo + Math.max(60_000, Math.floor((hi - lo) / 120_000) * 60_000);
    if (offsetAt(timezone, mid) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}

function minutesOf(hhmm: string): number {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return h * 60 + m;
}

const pad = (n: number) => String(n).padStart(2, '0');
const DAY_MS = 86_400_000;

/* ---------- the rule ---------- */

/**
 * A local day's open ranges as instants, unclipped, per hours object: a report measures many
 * waits over the same days, and each day's ranges cost several time-zone look-ups. Hours objects
 * are values (parsed per request, never changed in place), so a day's ranges never go stale.
 */
const dayRangesMemo = new WeakMap<BusinessHours, Map<number, Array<[number, number]>>>();

/** The open ranges of the local day `day` (its UTC midnight as a date key), as instants. */
function dayRanges(hours: BusinessHours, day: number): Array<[number, number]> {
  let byDay = dayRangesMemo.get(hours);
  if (!byDay) {
    byDay = new Map();
    dayRangesMemo.set(hours, byDay);
  }
  const known = byDay.get(day);
  if (known) return known;
  const date = new Date(day);
  const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
  const ranges: Array<[number, number]> = hours.holidays.includes(`${y}-${pad(m)}-${pad(d)}`)
    ? []
    : (hours.week[date.getUTCDay()] ?? []).map((range) => [localToEpoch(hours.timezone, y, m, d, minutesOf(range.from)), localToEpoch(hours.timezone, y, m, d, minutesOf(range.to))]);
  byDay.set(day, ranges);
  return ranges;
}

/**
 * Open intervals within [fromMs, toMs), as UTC epoch ms, sorted and merged (a range ending at
 * 24:00 and the next day's range starting at 00:00 make one interval: overnight opening).
 * Null hours = always open.
 */
export function openIntervals(hours: BusinessHours | null, fromMs: number, toMs: number): Array<[number, number]> {
  if (!(toMs > fromMs)) return [];
  if (!hours) return [[fromMs, toMs]];
  const first = localPartsAt(hours.timezone, fromMs);
  const last = localPartsAt(hours.timezone, toMs);
  const lastDay = Date.UTC(last.year, last.month - 1, last.day);
  const raw: Array<[number, number]> = [];
  // A day's ranges never leave that local day, so the local days from the one before `from` to `to`'s cover the range.
  for (let day = Date.UTC(first.year, first.month - 1, first.day) - DAY_MS; day <= lastDay; day += DAY_MS) {
    for (const [rangeStart, rangeEnd] of dayRanges(hours, day)) {
      const start = Math.max(fromMs, rangeStart);
      const end = Math.min(toMs, rangeEnd);
      if (end > start) raw.push([start, end]);
    }
  }
  raw.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [s, e] of raw) {
    const prev = merged[merged.length - 1];
    if (prev && s <= prev[1]) prev[1] = Math.max(prev[1], e);
    else merged.push([s, e]);
  }
  return merged;
}

export function isOpenAt(hours: BusinessHours | null, epochMs: number): boolean {
  return openIntervals(hours, epochMs, epochMs + 1).length > 0;
}

/** Seconds of opening time between two instants (0 when `to` is not after `from`). */
export function openSecondsBetween(hours: BusinessHours | null, fromMs: number, toMs: number): number {
  return openIntervals(hours, fromMs, toMs).reduce((sum, [s, e]) => sum + (e - s), 0) / 1000;
}

/** The local date ('YYYY-MM-DD') of an instant in the hours' time zone. */
export function localDateAt(timezone: string, epochMs: number): string {
  const p = localPartsAt(timezone, epochMs);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/** A week with the same ranges Monday to Friday: the editor's starting point. */
export function weekdaysWeek(from = '08:00', to = '18:00'): BusinessHoursRange[][] {
  return [0, 1, 2, 3, 4, 5, 6].map((d) => (d === 0 || d === 6 ? [] : [{ from, to }]));
}
