/**
 * Contacts whose folded name, number or e-mail contains a folded term (the contact search and the
 * ticket search's contact side). PostgreSQL answers `searchText LIKE '%term%'` from its trigram
 * index (migration 017); SQLite from the trigram table of migration 046 when the term has three
 * characters or more and no LIKE wildcard (FTS5 uses its index only for a LIKE without ESCAPE), and
 * by reading every contact otherwise.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { DbKind } from '../../core/db/database.js';
import { containsLike } from '../../core/db/sql-helpers.js';

function gramsUsable(kind: DbKind, term: string): boolean {
  return kind === 'sqlite' && [...term].length >= 3 && !/[\\%_]/.test(term);
}

/** The ids of the contacts matching, as a subquery (`x in (...)`). */
export function contactIdsMatching(kind: DbKind, term: string): RawBuilder<number> {
  return gramsUsable(kind, term)
    ? sql<number>`(select rowid from contact_grams where "searchText" like ${`%${term}%`})`
    : sql<number>`(select contacts.id from contacts where ${containsLike(sql.ref('contacts.searchText'), term)})`;
}

/** A condition on the row `contacts`: it matches. */
export function contactMatches(kind: DbKind, term: string): RawBuilder<SqlBool> {
  return gramsUsable(kind, term) ? sql<SqlBool>`${sql.ref('contacts.id')} in ${contactIdsMatching(kind, term)}` : containsLike(sql.ref('contacts.searchText'), term);
}
