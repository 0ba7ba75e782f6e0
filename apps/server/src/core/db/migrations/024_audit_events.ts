import type { Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * The audit log: one row per recorded action, written by the server only. The actor's name is
 * copied (a renamed or deleted user's rows still say who it was). Read newest first, by period,
 * by user and by action; old rows are swept by `at`.
 */
export function auditEventsMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let table = db.schema.createTable('auditEvents');
      table = kind === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
      await table
        .addColumn('at', ts, (c) => c.notNull())
        // No foreign key: the row outlives the user it names.
        .addColumn('actorUserId', 'integer')
        .addColumn('actorName', 'varchar(200)', (c) => c.notNull())
        .addColumn('actorKind', 'varchar(12)', (c) => c.notNull())
        .addColumn('tokenName', 'varchar(100)')
        .addColumn('action', 'varchar(60)', (c) => c.notNull())
        .addColumn('targetType', 'varchar(20)')
        .addColumn('targetId', 'varchar(200)')
        .addColumn('targetName', 'varchar(200)')
        .addColumn('detail', 'text', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)', (c) => c.notNull())
        .addColumn('userAgent', 'varchar(200)', (c) => c.notNull())
        .addColumn('outcome', 'varchar(10)', (c) => c.notNull())
        .addColumn('statusCode', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('auditEvents_at').on('auditEvents').column('at').execute();
      await db.schema.createIndex('auditEvents_actorUserId_at').on('auditEvents').columns(['actorUserId', 'at']).execute();
      await db.schema.createIndex('auditEvents_action_at').on('auditEvents').columns(['action', 'at']).execute();
    },
  };
}
