import type { Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/** Auto-assignment per queue (see schema-assign.ts): off for every queue until an admin turns it on. */
export function queueAssignmentMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('queueAssignment')
        .addColumn('queueId', 'integer', (c) => c.primaryKey().references('queues.id').onDelete('cascade'))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('maxPerAgent', 'integer', (c) => c.notNull())
        .addColumn('lastUserId', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('updatedAt', ts, (c) => c.notNull())
        .execute();
    },
  };
}
