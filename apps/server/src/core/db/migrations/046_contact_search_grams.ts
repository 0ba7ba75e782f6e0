import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * SQLite: contacts searched by any part of their folded name, number or e-mail (`searchText
 * LIKE '%term%'`) through a trigram index, as PostgreSQL does since migration 017: an FTS5 table
 * with the trigram tokenizer over `contacts.searchText` (external content: it keeps the trigrams,
 * the text stays in `contacts`), kept by triggers. A LIKE on it reads the term's trigrams instead
 * of every contact, and FTS5 checks each candidate against the text itself, so the answer is the
 * same as the scan's (see features/contacts/contact-text-match.ts for when it is used).
 */
export function contactSearchGramsMigration(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (kind !== 'sqlite') return;
      await sql`create virtual table contact_grams using fts5("searchText", content='contacts', content_rowid='id', tokenize='trigram')`.execute(db);
      await sql`insert into contact_grams(rowid, "searchText") select id, "searchText" from contacts`.execute(db);
      await sql`create trigger contact_grams_insert after insert on contacts begin
        insert into contact_grams(rowid, "searchText") values (new.id, new."searchText"); end`.execute(db);
      await sql`create trigger contact_grams_delete after delete on contacts begin
        insert into contact_grams(contact_grams, rowid, "searchText") values ('delete', old.id, old."searchText"); end`.execute(db);
      await sql`create trigger contact_grams_update after update of "searchText" on contacts begin
        insert into contact_grams(contact_grams, rowid, "searchText") values ('delete', old.id, old."searchText");
        insert into contact_grams(rowid, "searchText") values (new.id, new."searchText"); end`.execute(db);
    },
  };
}
