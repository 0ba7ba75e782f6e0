import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * Business hours: one row per queue that has its own hours, plus at most one default row
 * (queueId null; the expression index makes it unique on both databases). A queue's row goes
 * with the queue. `outOfHoursReplies` marks the tickets that got the out-of-hours message.
 */
export function businessHoursMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('businessHours')
        .addColumn('queueId', 'integer', (c) => c.references('queues.id').onDelete('cascade'))
        .addColumn('timezone', 'varchar(64)', (c) => c.notNull())
        .addColumn('week', 'text', (c) => c.notNull())
        .addColumn('holidays', 'text', (c) => c.notNull())
        .addColumn('outOfHoursMessage', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('updatedAt', ts, (c) => c.notNull())
        .execute();
      await sql`create unique index "businessHours_scope" on "businessHours" ((coalesce("queueId", 0)))`.execute(db);
      await db.schema
        .createTable('outOfHoursReplies')
        .addColumn('ticketId', 'integer', (c) => c.primaryKey().references('tickets.id').onDelete('cascade'))
        .addColumn('sentAt', ts, (c) => c.notNull())
        .execute();
    },
  };
}
