import type { Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * Private notes and mentions: `messages.isNote` (1: a note of the team, never sent to the
 * contact) and `mentions`, one row per colleague a note mentions. The open mentions of a user
 * are read by (userId, closedAt); a ticket's by (ticketId, userId).
 */
export function notesMentionsMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('messages')
        .addColumn('isNote', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      let table = db.schema.createTable('mentions');
      table = kind === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
      await table
        .addColumn('messageId', 'integer', (c) => c.notNull().references('messages.id').onDelete('cascade'))
        .addColumn('ticketId', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
        .addColumn('userId', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('byUserId', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('createdAt', ts, (c) => c.notNull())
        .addColumn('readAt', ts)
        .addColumn('closedAt', ts)
        .addUniqueConstraint('mentions_messageId_userId', ['messageId', 'userId'])
        .execute();
      await db.schema.createIndex('mentions_userId_closedAt').on('mentions').columns(['userId', 'closedAt']).execute();
      await db.schema.createIndex('mentions_ticketId_userId').on('mentions').columns(['ticketId', 'userId']).execute();
    },
  };
}
