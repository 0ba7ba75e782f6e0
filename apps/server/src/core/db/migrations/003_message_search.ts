import { sql, type Kysely } from 'kysely';
import { foldText } from '@zapdesk/shared/domain';
import type { DbKind } from '../database.js';

/**
 * Full-text search over message text: a folded `searchText` (lower case, no accents, so 'joao'
 * finds 'João'), indexed by SQLite FTS5 (kept in step by triggers) or a PostgreSQL GIN index
 * over its 'simple' tsvector. Never a LIKE over every message.
 */
export function messageSearchMigration(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('messages')
        .addColumn('searchText', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      const { rows } = await sql<{ id: number; body: string }>`select id, body from messages`.execute(db);
      for (const row of rows) {
        await sql`update messages set ${sql.ref('searchText')} = ${foldText(row.body)} where id = ${row.id}`.execute(db);
      }
      if (kind === 'postgres') {
        await sql`create index messages_search_fts on messages using gin (to_tsvector('simple', ${sql.ref('searchText')}))`.execute(db);
        return;
      }
      await sql`create virtual table messages_fts using fts5(${sql.raw('"searchText"')}, content='messages', content_rowid='id', tokenize='unicode61')`.execute(db);
      await sql`insert into messages_fts(rowid, ${sql.raw('"searchText"')}) select id, ${sql.ref('searchText')} from messages`.execute(db);
      await sql`create trigger messages_fts_insert after insert on messages begin
        insert into messages_fts(rowid, "searchText") values (new.id, new."searchText"); end`.execute(db);
      await sql`create trigger messages_fts_delete after delete on messages begin
        insert into messages_fts(messages_fts, rowid, "searchText") values ('delete', old.id, old."searchText"); end`.execute(db);
      await sql`create trigger messages_fts_update after update of "searchText" on messages begin
        insert into messages_fts(messages_fts, rowid, "searchText") values ('delete', old.id, old."searchText");
        insert into messages_fts(rowid, "searchText") values (new.id, new."searchText"); end`.execute(db);
    },
  };
}
