/**
 * The Reports page: figures over a range of days, filtered by queue, agent, connection and label.
 * Durations are whole milliseconds; a percentile is the nearest-rank one (the value at position
 * ceil(p·n) of the n values sorted), the median being the 50th (the lower middle value when n is even).
 */
import { z } from 'zod';
import { MAX_ID } from './domain.js';

/** The longest range a report covers, in days (a year and a leap day). */
export const REPORT_MAX_DAYS = 366;

/** The percentiles the page shows, as fractions (nearest rank). */
export const REPORT_PERCENTILES = { median: 0.5, p90: 0.9 } as const;

const ZDay = z.string('INVALID').regex(/^\d{4}-\d{2}-\d{2}$/, 'INVALID');
const ZFilterId = z.coerce.number('INVALID').int('INVALID').positive('INVALID').max(MAX_ID, 'INVALID').optional();

/** GET /reports and /reports/export: from and to are days (YYYY-MM-DD, both included) in the report's time zone. */
export const ZReportQuerySchema = z.object({
  from: ZDay,
  to: ZDay,
  queueId: ZFilterId,
  userId: ZFilterId,
  whatsappId: ZFilterId,
  labelId: ZFilterId,
});
export type TReportQuery = z.infer<typeof ZReportQuerySchema>;

/** How many values, their median and 90th percentile (null while there are none). */
export const ZDurationFiguresSchema = z.object({ count: z.number(), medianMs: z.number().nullable(), p90Ms: z.number().nullable() });
export type TDurationFigures = z.infer<typeof ZDurationFiguresSchema>;

export const ZReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** The IANA zone the days and the busiest hours are read in. */
  timeZone: z.string(),
  /** Durations counted within the opening hours only (the admin's choice) or around the clock. */
  businessHoursOnly: z.boolean(),
  /** Tickets created in the range. */
  opened: z.number(),
  /** Tickets resolved (closed) in the range. */
  resolved: z.number(),
  /** Tickets created in the range: from their creation to an agent's first message. */
  firstResponse: ZDurationFiguresSchema,
  /** Tickets resolved in the range: from their creation to their close. */
  resolution: ZDurationFiguresSchema,
  /** Answers to the satisfaction question given in the range: their count and average (1–5; null while none). */
  csat: z.object({ count: z.number(), average: z.number().nullable() }),
  /** Tickets created in the range per weekday (0 Sunday … 6 Saturday) and hour (0–23), in the report's time zone: only the cells that have tickets. */
  busiest: z.array(z.object({ weekday: z.number(), hour: z.number(), count: z.number() })),
  /** Per day of the range (YYYY-MM-DD): tickets opened and resolved. */
  days: z.array(z.object({ day: z.string(), opened: z.number(), resolved: z.number() })),
});
export type TReport = z.infer<typeof ZReportSchema>;

const ZNamed = z.object({ id: z.number(), name: z.string() });

/** GET /reports/options: what the filters offer (every queue, agent, connection and label by name). */
export const ZReportOptionsSchema = z.object({
  queues: z.array(ZNamed.extend({ color: z.string() })),
  users: z.array(ZNamed),
  whatsapps: z.array(ZNamed),
  labels: z.array(ZNamed.extend({ color: z.string() })),
});
export type TReportOptions = z.infer<typeof ZReportOptionsSchema>;
