/**
 * Opening hours for the reports' durations (open-durations.repository.ts): which hours set each
 * queue counts in, and a set's open time as a function of the moment (the open intervals with the
 * open time before each: a duration is the difference of its two ends' open times, exact to the
 * millisecond, holidays and time zones included through `openIntervals`).
 */
import { openIntervals, type BusinessHours } from '@zapdesk/shared/business-hours';

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

/**
 * The open time of a group since `firstMs`, as a function of a moment within [firstMs, lastMs]:
 * the open intervals with the open time before each, one binary search per moment.
 */
export function openTimeMeter(hours: BusinessHours, firstMs: number, lastMs: number): (t: number) => number {
  const intervals = openIntervals(hours, firstMs, lastMs + 1);
  const cum: number[] = [];
  let total = 0;
  for (const [s, e] of intervals) {
    cum.push(total);
    total += e - s;
  }
  return (t) => {
    let low = 0;
    let high = intervals.length - 1;
    let found = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if ((intervals[mid] as [number, number])[0] <= t) {
        found = mid;
        low = mid + 1;
      } else high = mid - 1;
    }
    if (found < 0) return 0;
    const [s, e] = intervals[found] as [number, number];
    return (cum[found] ?? 0) + Math.min(t, e) - s;
  };
}
