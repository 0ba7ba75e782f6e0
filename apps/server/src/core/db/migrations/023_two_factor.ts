import type { Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * Two-factor sign-in. A user's TOTP secret (sealed with the secrets key) is pending until a first
 * code confirms it (`totpEnabledAt`); `totpLastStep` is the last time step a code was accepted
 * for, so a code is good once. Recovery codes are kept as SHA-256 hashes, each usable once.
 * A sign-in challenge is what a correct password earns when a code is still owed: a random
 * token (kept hashed) with a deadline and an attempt count. A refresh family records whether its
 * sign-in passed the second factor.
 */
export function twoFactorMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('users').addColumn('totpSecret', 'text').execute();
      await db.schema.alterTable('users').addColumn('totpEnabledAt', ts).execute();
      await db.schema.alterTable('users').addColumn('totpLastStep', 'integer').execute();

      await db.schema
        .createTable('recoveryCodes')
        .addColumn('userId', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('codeHash', 'varchar(64)', (c) => c.notNull())
        .addColumn('usedAt', ts)
        .addColumn('createdAt', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('recoveryCodes_pk', ['userId', 'codeHash'])
        .execute();

      await db.schema
        .createTable('twoFactorChallenges')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('userId', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('tokenVersion', 'integer', (c) => c.notNull())
        .addColumn('purpose', 'varchar(10)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expiresAt', ts, (c) => c.notNull())
        .addColumn('createdAt', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('twoFactorChallenges_expiresAt').on('twoFactorChallenges').column('expiresAt').execute();

      await db.schema
        .alterTable('refreshFamilies')
        .addColumn('secondFactor', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
