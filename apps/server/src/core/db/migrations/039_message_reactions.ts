import type { Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * Reactions on messages: one row per person and message (a changed reaction replaces it, a
 * removed one deletes it), gone with the message.
 */
export function messageReactionsMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let table = db.schema.createTable('messageReactions');
      table = kind === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
      await table
        .addColumn('messageId', 'integer', (c) => c.notNull().references('messages.id').onDelete('cascade'))
        .addColumn('senderKey', 'varchar(64)', (c) => c.notNull())
        .addColumn('senderName', 'varchar(200)')
        .addColumn('fromMe', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('emoji', 'varchar(64)', (c) => c.notNull())
        .addColumn('createdAt', ts, (c) => c.notNull())
        .addColumn('updatedAt', ts, (c) => c.notNull())
        .addUniqueConstraint('messageReactions_message_sender', ['messageId', 'senderKey'])
        .execute();
    },
  };
}
