import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * Each ticket's two report durations as integer milliseconds beside its moments, computed by the
 * database from the moments themselves (generated columns: every write that changes a moment
 * changes them, nothing else writes them): `firstResponseMs` (createdAt to firstResponseAt) and
 * `resolutionMs` (createdAt to closedAt), each moment rounded to the millisecond first, the same
 * integers the reports computed per ticket before. An index ordered by each duration lets a
 * report take its median and 90th percentile as the k-th value of a walk in duration order
 * (report-ranks.repository.ts) instead of reading and sorting every duration of the range; the
 * satisfaction answers' range index carries their score and filters.
 * SQLite: virtual columns (computed when read; the indexes keep the values). PostgreSQL: stored
 * columns (the table is rewritten once).
 */
function epochMs(kind: DbKind, column: string): RawBuilder<number> {
  return kind === 'postgres'
    ? sql`cast(round(extract(epoch from (${sql.ref(column)} - timestamptz '1970-01-01 00:00:00+00')) * 1000) as bigint)`
    : sql`cast(round((julianday(${sql.ref(column)}) - 2440587.5) * 86400000.0) as integer)`;
}

export function reportDurationsMigration(kind: DbKind) {
  const storage = kind === 'postgres' ? sql`stored` : sql`virtual`;
  const type = kind === 'postgres' ? sql`bigint` : sql`integer`;
  const duration = (end: string) => sql`${epochMs(kind, end)} - ${epochMs(kind, 'createdAt')}`;
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (kind === 'postgres') {
        // One rewrite of the table for both columns.
        await sql`alter table tickets add column "firstResponseMs" ${type} generated always as (${duration('firstResponseAt')}) ${storage},
                  add column "resolutionMs" ${type} generated always as (${duration('closedAt')}) ${storage}`.execute(db);
      } else {
        await sql`alter table tickets add column "firstResponseMs" ${type} generated always as (${duration('firstResponseAt')}) ${storage}`.execute(db);
        await sql`alter table tickets add column "resolutionMs" ${type} generated always as (${duration('closedAt')}) ${storage}`.execute(db);
      }
      await db.schema
        .createIndex('tickets_report_first_response_ms')
        .on('tickets')
        .columns(['firstResponseMs', 'createdAt', 'queueId', 'userId', 'whatsappId'])
        .where(sql.ref('firstResponseMs'), 'is not', null)
        .execute();
      await db.schema
        .createIndex('tickets_report_resolution_ms')
        .on('tickets')
        .columns(['resolutionMs', 'closedAt', 'queueId', 'userId', 'whatsappId'])
        .where(sql.ref('resolutionMs'), 'is not', null)
        .execute();
      await db.schema.createIndex('ticketRatings_report').on('ticketRatings').columns(['answeredAt', 'score', 'queueId', 'userId', 'whatsappId']).execute();
      await db.schema.dropIndex('ticketRatings_answeredAt').execute();
    },
  };
}
