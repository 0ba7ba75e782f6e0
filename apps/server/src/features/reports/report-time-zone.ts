/**
 * The time zone a report reads its days and hours in: the default opening hours' zone when an
 * admin set them, else the configured one (REPORTS_TIME_ZONE, else TZ, else America/Sao_Paulo on a
 * Portuguese install), UTC when that names no zone.
 */
import type { AppContext } from '../../core/context.js';
import { findHoursOfQueue } from '../business-hours/business-hours.repository.js';
import { isTimeZone } from './report-clock.js';

export async function reportTimeZone(ctx: AppContext): Promise<string> {
  const hours = await findHoursOfQueue(ctx.db, null);
  if (hours && isTimeZone(hours.timezone)) return hours.timezone;
  const configured = ctx.config.reportsTimeZone;
  return isTimeZone(configured) ? configured : 'UTC';
}
