import { type Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * A search for a common word walks the tickets in the lists' order (newest change first) and
 * checks each for the words, stopping at the page: without an index on that order alone, a search
 * over every status sorted all the tickets first. `id` breaks ties as the lists do.
 */
export function searchWalkIndexMigration(_kind: DbKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('tickets_updatedAt_id').ifNotExists().on('tickets').columns(['updatedAt', 'id']).execute();
    },
  };
}
