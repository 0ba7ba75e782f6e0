import type { Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * The first-run checklist on the dashboard: `users.checklistDismissedAt` is when this admin closed
 * it (null: still shown while something is left to do). Kept per user, so a second admin still
 * gets the guide until they close it themselves.
 */
export function firstRunChecklistMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('users').addColumn('checklistDismissedAt', ts).execute();
    },
  };
}
