import type { Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * Refresh-token families. A sign-in starts a family; each refresh replaces the family's one
 * valid token id with a new one. A replaced id presented again means the cookie was copied:
 * the whole family is revoked, and both holders must sign in again.
 */
export function refreshTokenFamiliesMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('refreshFamilies')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('userId', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('currentJti', 'varchar(36)', (c) => c.notNull())
        .addColumn('previousJti', 'varchar(36)')
        .addColumn('rotatedAt', ts)
        .addColumn('expiresAt', ts, (c) => c.notNull())
        .addColumn('revokedAt', ts)
        .addColumn('createdAt', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('refreshFamilies_userId').on('refreshFamilies').column('userId').execute();
      await db.schema.createIndex('refreshFamilies_expiresAt').on('refreshFamilies').column('expiresAt').execute();
    },
  };
}
