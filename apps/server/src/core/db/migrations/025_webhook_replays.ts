import type { Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * Webhook deliveries already taken (a signature or a token id), until they could no longer be
 * fresh: the same signed delivery sent again is refused, on whichever node of a cluster it lands.
 */
export function webhookReplaysMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('webhookReplays')
        .addColumn('key', 'varchar(200)', (c) => c.primaryKey())
        .addColumn('expiresAt', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhookReplays_expiresAt').on('webhookReplays').column('expiresAt').execute();
    },
  };
}
