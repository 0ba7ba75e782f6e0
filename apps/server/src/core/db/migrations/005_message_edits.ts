import type { Kysely } from 'kysely';

/** A message its author edited on the phone keeps its new text and says so (`isEdited`). */
export function messageEditsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('messages')
        .addColumn('isEdited', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
