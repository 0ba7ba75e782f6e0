import type { Kysely } from 'kysely';

/**
 * Who sent an own message, for the dashboard's first response: `userId` is the agent who wrote
 * it in the inbox; `automatic` marks what the product sent by itself (greetings, queue menus,
 * notices, farewells, the chatbot's, campaign and tool-API sends). Rows stored before have
 * neither: the sender was not kept, and they read as before (a reply, by the ticket's agent).
 */
export function messageSendersMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('messages')
        .addColumn('userId', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .execute();
      await db.schema
        .alterTable('messages')
        .addColumn('automatic', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // Deleting a user clears their messages' userId: without an index, a scan of every message.
      await db.schema.createIndex('messages_userId').on('messages').column('userId').where('userId', 'is not', null).execute();
    },
  };
}
