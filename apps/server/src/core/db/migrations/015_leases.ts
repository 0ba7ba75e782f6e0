import type { Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * Leases: who runs a piece of work that must run on one node only (a connection's session, the
 * telephony sender), until when, and the generation that each take-over increases.
 */
export function leasesMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('leases')
        .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
        .addColumn('owner', 'varchar(200)', (c) => c.notNull())
        .addColumn('generation', 'integer', (c) => c.notNull())
        .addColumn('expiresAt', ts, (c) => c.notNull())
        .execute();
    },
  };
}
