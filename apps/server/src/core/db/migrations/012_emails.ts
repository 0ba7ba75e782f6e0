import type { Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * E-mails: each mail is a row before it is sent (closing notices are written in the same
 * transaction as the close), with its state, attempts and last error; attachments are kept in
 * the row so any node can send it. A ticket closed with 'Protocolo' keeps its protocol number.
 */
export function emailsMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let emails = db.schema.createTable('emails');
      emails = kind === 'postgres' ? emails.addColumn('id', 'serial', (c) => c.primaryKey()) : emails.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
      await emails
        .addColumn('kind', 'varchar(12)', (c) => c.notNull())
        .addColumn('ticketId', 'integer', (c) => c.references('tickets.id').onDelete('set null'))
        .addColumn('toAddresses', 'text', (c) => c.notNull())
        .addColumn('subject', 'varchar(300)', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('attachments', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(10)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('lastError', 'varchar(300)')
        .addColumn('nextAttemptAt', ts)
        .addColumn('sentAt', ts)
        .addColumn('createdAt', ts, (c) => c.notNull())
        .addColumn('updatedAt', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('emails_status_nextAttemptAt').on('emails').columns(['status', 'nextAttemptAt']).execute();
      await db.schema.createIndex('emails_createdAt').on('emails').column('createdAt').execute();
      await db.schema.alterTable('tickets').addColumn('protocol', 'varchar(30)').execute();
    },
  };
}
