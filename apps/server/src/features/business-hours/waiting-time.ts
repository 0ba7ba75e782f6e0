/**
 * Waiting time as the dashboard and reports count it: wall-clock time, or with the
 * `businessHoursInFigures` setting enabled only the time the ticket's queue was open (its own
 * hours, else the default; none set = always open).
 */
import { openSecondsBetween, type BusinessHours } from '@zapdesk/shared/business-hours';
import type { Db } from '../../core/db/database.js';
import { getSettingValue } from '../settings/settings.repository.js';
import { listEntries } from './business-hours.repository.js';

/** Milliseconds of waiting between two ISO instants, for a ticket of that queue. */
export type WaitMeter = (queueId: number | null, fromIso: string, toIso: string) => number;

export async function businessHoursInFigures(db: Db): Promise<boolean> {
  return (await getSettingValue(db, 'businessHoursInFigures')) === 'enabled';
}

/** Reads the setting and every queue's hours once, for a whole report. */
export async function waitMeter(db: Db): Promise<WaitMeter> {
  const wall: WaitMeter = (_queueId, fromIso, toIso) => Math.max(0, Date.parse(toIso) - Date.parse(fromIso));
  if (!(await businessHoursInFigures(db))) return wall;
  const entries = await listEntries(db);
  const byDefault = entries.find((e) => e.queueId === null)?.hours ?? null;
  const byQueue = new Map<number, BusinessHours>();
  for (const entry of entries) if (entry.queueId !== null && entry.hours) byQueue.set(entry.queueId, entry.hours);
  return (queueId, fromIso, toIso) => {
    const hours = (queueId === null ? undefined : byQueue.get(queueId)) ?? byDefault;
    return Math.round(openSecondsBetween(hours, Date.parse(fromIso), Date.parse(toIso)) * 1000);
  };
}
