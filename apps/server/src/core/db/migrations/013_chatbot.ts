import type { Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * The chatbot: one Typebot session per ticket (its id survives restarts, and so do the bot's
 * answers not sent yet), and the customer messages waiting to go to the bot (stored with the
 * message, sent after the debounce); the
 * bot's own messages are marked.
 */
export function chatbotMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('chatbotSessions')
        .addColumn('ticketId', 'integer', (c) => c.primaryKey().references('tickets.id').onDelete('cascade'))
        .addColumn('sessionId', 'varchar(200)')
        .addColumn('status', 'varchar(10)', (c) => c.notNull())
        .addColumn('choices', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('pending', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('lastActivityAt', ts, (c) => c.notNull())
        .addColumn('lastError', 'varchar(300)')
        .addColumn('errorAt', ts)
        .addColumn('updatedAt', ts, (c) => c.notNull())
        .execute();
      let inputs = db.schema.createTable('chatbotInputs');
      inputs = kind === 'postgres' ? inputs.addColumn('id', 'serial', (c) => c.primaryKey()) : inputs.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
      await inputs
        .addColumn('ticketId', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('restart', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('nextAttemptAt', ts, (c) => c.notNull())
        .addColumn('createdAt', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('chatbotInputs_nextAttemptAt').on('chatbotInputs').columns(['nextAttemptAt']).execute();
      await db.schema.createIndex('chatbotInputs_ticketId').on('chatbotInputs').columns(['ticketId', 'id']).execute();
      // The bot's messages are shown as the bot's in the chat.
      await db.schema
        .alterTable('messages')
        .addColumn('fromBot', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
