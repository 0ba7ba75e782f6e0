import type { Kysely } from 'kysely';

/**
 * Indexes for the inbox at 100,000 tickets (bench/load.ts): the Group tab's pages (1% of the
 * tickets are groups: walking the status index to find 20 of them read thousands of rows), and
 * a tab's count read from the index alone, without visiting the ticket rows.
 */
export function inboxIndexesMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('tickets_status_isGroup_updatedAt').on('tickets').columns(['status', 'isGroup', 'updatedAt']).execute();
      await db.schema.createIndex('tickets_status_isGroup_queueId_userId').on('tickets').columns(['status', 'isGroup', 'queueId', 'userId']).execute();
    },
  };
}
