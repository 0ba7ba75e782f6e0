import type { Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * Outgoing webhooks. `webhooks`: the endpoints admins register; `secret` is sealed at rest
 * (secret-box.ts), `events` a JSON array of event names. `webhookDeliveries`: one row per event
 * and endpoint, written before it is sent; `seq` orders them (the claim takes a row only when no
 * older pending row of the same endpoint and `orderKey` exists), `id` is the UUID receivers see.
 * `webhookStates`: the last state the webhooks told of a ticket, message ack, connection or
 * campaign, so that "updated" means a tracked field changed (compared and set in one statement).
 */
export function webhooksMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let table = db.schema.createTable('webhooks');
      table = kind === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
      await table
        .addColumn('url', 'varchar(2000)', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('secretHint', 'varchar(8)', (c) => c.notNull())
        .addColumn('createdAt', ts, (c) => c.notNull())
        .addColumn('updatedAt', ts, (c) => c.notNull())
        .execute();

      let deliveries = db.schema.createTable('webhookDeliveries');
      deliveries = kind === 'postgres' ? deliveries.addColumn('seq', 'bigserial', (c) => c.primaryKey()) : deliveries.addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement());
      await deliveries
        .addColumn('id', 'varchar(36)', (c) => c.notNull().unique())
        .addColumn('webhookId', 'integer', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
        .addColumn('event', 'varchar(40)', (c) => c.notNull())
        .addColumn('orderKey', 'varchar(60)')
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(10)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('nextAttemptAt', ts)
        .addColumn('retryUntil', ts, (c) => c.notNull())
        .addColumn('claimedBy', 'varchar(200)')
        .addColumn('claimedUntil', ts)
        .addColumn('responseStatus', 'integer')
        .addColumn('responseBody', 'text')
        .addColumn('error', 'varchar(500)')
        .addColumn('durationMs', 'integer')
        .addColumn('createdAt', ts, (c) => c.notNull())
        .addColumn('lastAttemptAt', ts)
        .addColumn('deliveredAt', ts)
        .execute();
      // The sender's scan: pending rows by due time; the order check: pending rows of one endpoint and key.
      await db.schema.createIndex('webhookDeliveries_due').on('webhookDeliveries').columns(['status', 'nextAttemptAt']).execute();
      await db.schema.createIndex('webhookDeliveries_order').on('webhookDeliveries').columns(['webhookId', 'orderKey', 'status', 'seq']).execute();
      // The page's list: one endpoint's deliveries, newest first.
      await db.schema.createIndex('webhookDeliveries_list').on('webhookDeliveries').columns(['webhookId', 'seq']).execute();

      await db.schema
        .createTable('webhookStates')
        .addColumn('key', 'varchar(80)', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updatedAt', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhookStates_updatedAt').on('webhookStates').column('updatedAt').execute();
    },
  };
}
