import type { Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * Named API tokens. Only a hash of each token is kept: SHA-256 in hex, unique, so a token is
 * found by its hash in one indexed read. A fast hash is right here (unlike for passwords): the
 * token is 32 random bytes, far beyond any guessing, so slowing each check down would protect
 * nothing. `permissions` is a JSON array of permission keys. A revoked token keeps its row (and
 * its name, creator and last use) for the record.
 */
export function apiTokensMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let table = db.schema.createTable('apiTokens');
      table = kind === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
      await table
        .addColumn('name', 'varchar(50)', (c) => c.notNull())
        .addColumn('tokenHash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('prefix', 'varchar(16)', (c) => c.notNull())
        .addColumn('permissions', 'text', (c) => c.notNull())
        .addColumn('expiresAt', ts)
        .addColumn('lastUsedAt', ts)
        .addColumn('createdBy', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('createdAt', ts, (c) => c.notNull())
        .addColumn('revokedAt', ts)
        .execute();
    },
  };
}
