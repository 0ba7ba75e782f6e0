/**
 * The time zone a report reads its days and hours in: the configured one (REPORTS_TIME_ZONE,
 * else TZ, else America/Sao_Paulo on a Portuguese install), UTC when that names no zone.
 */
import type { AppContext } from '../../core/context.js';
import { isTimeZone } from './report-clock.js';

export async function reportTimeZone(ctx: AppContext): Promise<string> {
  const configured = ctx.config.reportsTimeZone;
  return isTimeZone(configured) ? configured : 'UTC';
}
