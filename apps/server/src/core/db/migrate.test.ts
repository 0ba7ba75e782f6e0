/**
 * Upgrades of existing databases: a migration numbered below one already applied still runs
 * (007 arrived after 008), and a database where the refresh families ran under their earlier
 * name (009) is taken over without running them twice.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql, type Migration } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../../test/harness.js';
import { openDatabase, type DbHandle } from './database.js';
import { migrateToLatest } from './migrate.js';
import { initialMigration } from './migrations/001_initial.js';
import { usersSearchTextMigration } from './migrations/002_users_search_text.js';
import { messageSearchMigration } from './migrations/003_message_search.js';
import { inboxIndexesMigration } from './migrations/004_inbox_indexes.js';
import { messageEditsMigration } from './migrations/005_message_edits.js';
import { unreadTicketsIndexMigration } from './migrations/006_unread_tickets_index.js';
import { refreshTokenFamiliesMigration } from './migrations/007_refresh_token_families.js';
import { outboundQueueMigration } from './migrations/008_outbound_queue.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function freshDatabase(): Promise<DbHandle> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-migrate-'));
  const pgDb = process.env.TEST_DB === 'postgres' ? await createPostgresDatabase() : undefined;
  const handle = openDatabase({ databaseUrl: pgDb?.url, dataDir });
  cleanups.push(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await pgDb?.drop();
  });
  cleanups.push(() => handle.close());
  return handle;
}

/** The migrations a database of an earlier release ran, under the names it ran them. */
function upTo008(handle: DbHandle): Record<string, Migration> {
  return {
    '001_initial': initialMigration(handle.kind),
    '002_users_search_text': usersSearchTextMigration(),
    '003_message_search': messageSearchMigration(handle.kind),
    '004_inbox_indexes': inboxIndexesMigration(),
    '005_message_edits': messageEditsMigration(),
    '006_unread_tickets_index': unreadTicketsIndexMigration(),
    '008_outbound_queue': outboundQueueMigration(handle.kind),
  };
}

async function runOnly(handle: DbHandle, migrations: Record<string, Migration>): Promise<void> {
  const { error } = await new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
  if (error) throw new Error('The earlier migrations failed', { cause: error });
}

async function appliedMigrations(handle: DbHandle): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(handle.db);
  return rows.map((row) => row.name);
}

async function refreshFamiliesColumns(handle: DbHandle): Promise<string[]> {
  const tables = await handle.db.introspection.getTables();
  return (tables.find((t) => t.name === 'refreshFamilies')?.columns ?? []).map((c) => c.name).sort();
}

describe('migrations on an existing database', () => {
  it('applies 007_refresh_token_families to a database that already has 008_outbound_queue applied', async () => {
    const handle = await freshDatabase();
    await runOnly(handle, upTo008(handle));
    expect(await refreshFamiliesColumns(handle)).toEqual([]);

    await migrateToLatest(handle);

    expect(await appliedMigrations(handle)).toEqual([...Object.keys(upTo008(handle)), '007_refresh_token_families'].sort());
    expect(await refreshFamiliesColumns(handle)).toEqual(['createdAt', 'currentJti', 'expiresAt', 'id', 'previousJti', 'revokedAt', 'rotatedAt', 'userId']);
    // A second start finds nothing to do.
    await migrateToLatest(handle);
    expect(await appliedMigrations(handle)).toHaveLength(8);
  });

  it('takes over a database where the refresh families ran as 009_refresh_token_families, without running them again', async () => {
    const handle = await freshDatabase();
    await runOnly(handle, { ...upTo008(handle), '009_refresh_token_families': refreshTokenFamiliesMigration(handle.kind) });

    await migrateToLatest(handle);

    const applied = await appliedMigrations(handle);
    expect(applied).toContain('007_refresh_token_families');
    expect(applied).not.toContain('009_refresh_token_families');
    expect(await refreshFamiliesColumns(handle)).toHaveLength(8);
  });

  it('builds a new database with every migration, 007 included', async () => {
    const handle = await freshDatabase();
    await migrateToLatest(handle);
    expect(await appliedMigrations(handle)).toEqual([...Object.keys(upTo008(handle)), '007_refresh_token_families'].sort());
  });
});
