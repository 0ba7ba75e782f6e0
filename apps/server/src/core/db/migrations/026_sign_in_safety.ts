import type { Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * Sign-in safety. `users.passwordChangeRequired`: the password was found below today's policy
 * (too short or too common) at a sign-in, when the plain password was known; it is cleared when
 * the password changes. `signInRecords`: per user, the last successful sign-in (its address is a
 * known good one while the account is under attack) and the failed attempts since, told to the
 * owner at the next sign-in.
 */
export function signInSafetyMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('users')
        .addColumn('passwordChangeRequired', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('signInRecords')
        .addColumn('userId', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('lastSuccessAt', ts)
        .addColumn('lastSuccessAddress', 'varchar(100)')
        .addColumn('failedCount', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failedLastAt', ts)
        .addColumn('failedLastAddress', 'varchar(100)')
        .execute();
    },
  };
}
