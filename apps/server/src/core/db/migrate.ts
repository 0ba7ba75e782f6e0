import { DEFAULT_MIGRATION_TABLE, Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Db, DbHandle } from './database.js';
import { initialMigration } from './migrations/001_initial.js';
import { usersSearchTextMigration } from './migrations/002_users_search_text.js';
import { messageSearchMigration } from './migrations/003_message_search.js';
import { messageEditsMigration } from './migrations/005_message_edits.js';
import { inboxIndexesMigration } from './migrations/004_inbox_indexes.js';
import { unreadTicketsIndexMigration } from './migrations/006_unread_tickets_index.js';
import { refreshTokenFamiliesMigration } from './migrations/007_refresh_token_families.js';
import { outboundQueueMigration } from './migrations/008_outbound_queue.js';

/**
 * Migrations that an earlier version ran under another name: the record is renamed, so the
 * migration is not run twice. (The refresh families were numbered 009 before taking 007.)
 */
const RENAMED_MIGRATIONS: Record<string, string> = { '009_refresh_token_families': '007_refresh_token_families' };

async function renameRecordedMigrations(db: Db): Promise<void> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((t) => t.name === DEFAULT_MIGRATION_TABLE)) return;
  for (const [from, to] of Object.entries(RENAMED_MIGRATIONS)) {
    await sql`update ${sql.table(DEFAULT_MIGRATION_TABLE)} set name = ${to} where name = ${from}`.execute(db);
  }
}

/**
 * Migrations live in code and run at every start; each runs once, in name order. A migration
 * numbered below one already applied (007 arrived after 008) still runs on an existing
 * database: hence `allowUnorderedMigrations`. 007 needs only 001's users table, so it may run
 * before or after 008.
 */
export async function migrateToLatest(handle: DbHandle): Promise<void> {
  const migrations: Record<string, Migration> = {
    '001_initial': initialMigration(handle.kind),
    '002_users_search_text': usersSearchTextMigration(),
    '003_message_search': messageSearchMigration(handle.kind),
    '004_inbox_indexes': inboxIndexesMigration(),
    '005_message_edits': messageEditsMigration(),
    '006_unread_tickets_index': unreadTicketsIndexMigration(),
    '007_refresh_token_families': refreshTokenFamiliesMigration(handle.kind),
    '008_outbound_queue': outboundQueueMigration(handle.kind),
  };
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  await renameRecordedMigrations(handle.db);
  const migrator = new Migrator({ db: handle.db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}
