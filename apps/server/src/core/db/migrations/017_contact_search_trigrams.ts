import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * PostgreSQL: contacts are searched by any part of their folded name, number or e-mail
 * (`searchText LIKE '%term%'`); a trigram index (pg_trgm, a trusted extension the database's
 * owner may create) answers that without reading all the contacts. SQLite keeps its scan.
 */
export function contactSearchTrigramsMigration(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (kind !== 'postgres') return;
      await sql`create extension if not exists pg_trgm`.execute(db);
      await sql`create index if not exists "contacts_searchText_trgm" on contacts using gin ("searchText" gin_trgm_ops)`.execute(db);
    },
  };
}
