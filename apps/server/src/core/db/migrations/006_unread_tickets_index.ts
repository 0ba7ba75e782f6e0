import { sql, type Kysely } from 'kysely';

/**
 * The unread counts of the notification bell (`withUnreadMessages`) read only the tickets with
 * unread messages (about 30% at 100,000 tickets, bench/load.ts), from the index alone. The
 * predicate is a literal: queries spell it the same way, so both databases match the index.
 */
export function unreadTicketsIndexMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('tickets_unread_status_queueId_userId').on('tickets').columns(['status', 'queueId', 'userId']).where(sql.ref('unreadMessages'), '>', 0).execute();
    },
  };
}
