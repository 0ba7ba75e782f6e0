import { sql, type Kysely } from 'kysely';
import { foldText } from '@zapdesk/shared/domain';

/**
 * Users get the folded `searchText` that contacts and quick answers have: SQLite's lower() knows
 * ASCII only, so 'élodie' missed 'ÉLODIE' there, and neither database ignored accents.
 */
export function usersSearchTextMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('users')
        .addColumn('searchText', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      const { rows } = await sql<{ id: number; name: string; email: string }>`select id, name, email from users`.execute(db);
      for (const row of rows) {
        await sql`update users set ${sql.ref('searchText')} = ${foldText(`${row.name} ${row.email}`)} where id = ${row.id}`.execute(db);
      }
    },
  };
}
