import type { Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * Persisted outbound work. A reply is a row first (`outbox`, with the provider id it will be
 * sent under) and a send second; its message shows the state (`sendStatus`). `sessionOpenSince`
 * marks a connection whose session is running: still set at start means the last run did not
 * stop cleanly, and its recent chats are read again from the phone.
 */
export function outboundQueueMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('messages')
        .addColumn('sendStatus', 'varchar(10)', (c) => c.notNull().defaultTo('sent'))
        .execute();
      await db.schema.alterTable('messages').addColumn('sendError', 'varchar(60)').execute();
      await db.schema.alterTable('whatsapps').addColumn('sessionOpenSince', ts).execute();

      let table = db.schema.createTable('outbox');
      table = kind === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
      await table
        .addColumn('whatsappId', 'integer', (c) => c.notNull().references('whatsapps.id').onDelete('cascade'))
        .addColumn('providerId', 'varchar(200)', (c) => c.notNull())
        .addColumn('messageId', 'integer', (c) => c.references('messages.id').onDelete('cascade'))
        .addColumn('chat', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('quotedProviderId', 'varchar(200)')
        .addColumn('status', 'varchar(10)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('error', 'varchar(60)')
        .addColumn('dueAt', ts, (c) => c.notNull())
        .addColumn('sentAt', ts)
        .addColumn('createdAt', ts, (c) => c.notNull())
        .addColumn('updatedAt', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('outbox_whatsappId_providerId_unique').on('outbox').columns(['whatsappId', 'providerId']).unique().execute();
      await db.schema.createIndex('outbox_status_dueAt').on('outbox').columns(['status', 'dueAt']).execute();
      await db.schema.createIndex('outbox_messageId').on('outbox').column('messageId').execute();
    },
  };
}
