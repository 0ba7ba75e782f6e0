import { sql, type Kysely } from 'kysely';
import { AGENT_DEFAULT_PERMISSIONS } from '@zapdesk/shared/permissions';
import type { DbKind } from '../database.js';

/**
 * Roles: named sets of permissions (a JSON array of permission keys) that admins give to plain
 * users. The built-in agent role (key 'agent') is seeded with what the spec lets a plain user
 * do, so a new install and an upgraded one behave as before; `users.roleId` null means that
 * role. Deleting a role that users hold is refused (the foreign key backs the service's check).
 */
export function rolesMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let roles = db.schema.createTable('roles');
      roles = kind === 'postgres' ? roles.addColumn('id', 'serial', (c) => c.primaryKey()) : roles.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
      await roles
        .addColumn('name', 'varchar(50)', (c) => c.notNull())
        .addColumn('key', 'varchar(20)')
        .addColumn('permissions', 'text', (c) => c.notNull())
        .addColumn('twoFactorRequired', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('createdAt', ts, (c) => c.notNull())
        .addColumn('updatedAt', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('roles_name_unique').on('roles').column('name').unique().execute();
      await db.schema.createIndex('roles_key_unique').on('roles').column('key').unique().execute();
      const now = new Date().toISOString();
      await sql`insert into roles (name, "key", permissions, "twoFactorRequired", "createdAt", "updatedAt") values (${'Atendente'}, ${'agent'}, ${JSON.stringify(AGENT_DEFAULT_PERMISSIONS)}, 0, ${now}, ${now})`.execute(
        db,
      );
      await db.schema
        .alterTable('users')
        .addColumn('roleId', 'integer', (c) => c.references('roles.id'))
        .execute();
      await db.schema.createIndex('users_roleId').on('users').column('roleId').where('roleId', 'is not', null).execute();
    },
  };
}
