/**
 * Opening hours as a table SQL can read (see open-durations.repository.ts): for each hours set
 * (group) and each UTC day of a span, a row at the day's first instant holding the open time
 * before it, then one row per open interval of that day (cut at the day's edges) holding the open
 * time before its start. A moment's open time since the span's start is then, among the rows of its
 * group and UTC day that start at or before it, the largest `cum + min(t, end) - start`; a duration
 * counted in opening hours is the difference of its two ends' open times. Exact to the millisecond.
 */
import { openIntervals, type BusinessHours } from '@zapdesk/shared/business-hours';

export const DAY_MS = 86_400_000;

/** g: group, d: UTC day number, s/e: start and end (epoch ms), c: open ms of the group before s. */
export type OpenTimeRow = { g: number; d: number; s: number; e: number; c: number };

/** Which hours each ticket counts in: a group per queue with its own hours, the default's group, or null (always open). */
export type OpenTimeGroups = { hours: BusinessHours[]; byQueue: Map<number, number>; defaultGroup: number | null };

export function openTimeGroups(entries: { queueId: number | null; hours: BusinessHours | null }[]): OpenTimeGroups {
  const hours: BusinessHours[] = [];
  const byQueue = new Map<number, number>();
  let defaultGroup: number | null = null;
  for (const entry of entries) {
    if (!entry.hours) continue;
    hours.push(entry.hours);
    if (entry.queueId === null) defaultGroup = hours.length - 1;
    else byQueue.set(entry.queueId, hours.length - 1);
  }
  return { hours, byQueue, defaultGroup };
}

/** The rows of every group over the UTC days holding `firstMs` to `lastMs`. */
export function openTimeRows(hoursList: BusinessHours[], firstMs: number, lastMs: number): OpenTimeRow[] {
  const fromMs = Math.floor(firstMs / DAY_MS) * DAY_MS;
  const toMs = (Math.floor(lastMs / DAY_MS) + 1) * DAY_MS;
  const rows: OpenTimeRow[] = [];
  hoursList.forEach((hours, g) => {
    const intervals = openIntervals(hours, fromMs, toMs);
    let cum = 0;
    let i = 0;
    for (let day = fromMs; day < toMs; day += DAY_MS) {
      const d = day / DAY_MS;
      rows.push({ g, d, s: day, e: day, c: cum });
      const dayEnd = day + DAY_MS;
      while (i < intervals.length) {
        const [start, end] = intervals[i] as [number, number];
        if (start >= dayEnd) break;
        const s = Math.max(start, day);
        const e = Math.min(end, dayEnd);
        if (e > s) {
          rows.push({ g, d, s, e, c: cum });
          cum += e - s;
        }
        if (end <= dayEnd) i += 1;
        else break;
      }
    }
  });
  return rows;
}
