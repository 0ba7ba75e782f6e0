import type { Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * In the cluster mode, a simulated phone keeps what it holds in the database (a log of JSON
 * lines per connection, as its state file does on a single node), so that a session taken over
 * by another node carries on with the same phone.
 */
export function simulatorPhonesMigration(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let table = db.schema.createTable('simulatorPhoneLog');
      table = kind === 'postgres' ? table.addColumn('id', 'bigserial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
      await table
        .addColumn('whatsappId', 'integer', (c) => c.notNull().references('whatsapps.id').onDelete('cascade'))
        .addColumn('line', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('simulatorPhoneLog_whatsappId').on('simulatorPhoneLog').columns(['whatsappId', 'id']).execute();
    },
  };
}
