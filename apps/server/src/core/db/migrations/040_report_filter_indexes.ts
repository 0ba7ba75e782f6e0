import { sql, type Kysely } from 'kysely';

/**
 * The Reports page's range indexes carry the filters' columns too (queue, agent, connection), so a
 * report filtered by one of them reads the index alone instead of every ticket row beside it (a
 * connection may hold every ticket). They replace the two indexes of migration 038.
 */
export function reportFilterIndexesMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('tickets_report_created').on('tickets').columns(['createdAt', 'firstResponseAt', 'queueId', 'userId', 'whatsappId']).execute();
      await db.schema.createIndex('tickets_report_closed').on('tickets').columns(['closedAt', 'createdAt', 'queueId', 'userId', 'whatsappId']).where(sql.ref('closedAt'), 'is not', null).execute();
      await db.schema.dropIndex('tickets_createdAt_firstResponseAt').execute();
      await db.schema.dropIndex('tickets_closedAt_createdAt').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('tickets_createdAt_firstResponseAt').on('tickets').columns(['createdAt', 'firstResponseAt']).execute();
      await db.schema.createIndex('tickets_closedAt_createdAt').on('tickets').columns(['closedAt', 'createdAt']).where(sql.ref('closedAt'), 'is not', null).execute();
      await db.schema.dropIndex('tickets_report_created').execute();
      await db.schema.dropIndex('tickets_report_closed').execute();
    },
  };
}
