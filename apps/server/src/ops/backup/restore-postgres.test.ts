/**
 * PostgreSQL's own refusals (TEST_DB=postgres, with pg_dump/pg_restore installed): other clients
 * connected, a database that is not empty without --force; with --force its content is saved first.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { openDatabase } from '../../core/db/database.js';
import { migrateToLatest } from '../../core/db/migrate.js';
import { loadSecrets } from '../../core/secrets.js';
import { newPlace, postgresToolsPresent } from '../../test/backup-kit.js';
import { runBackup } from './backup.js';
import { runRestore } from './restore.js';

const onPostgres = process.env.TEST_DB === 'postgres';
const toolsPresent = onPostgres && postgresToolsPresent();

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function migrated(databaseUrl: string, dataDir: string, marker: string): Promise<void> {
  const handle = openDatabase({ databaseUrl, dataDir });
  await migrateToLatest(handle);
  await handle.db.insertInto('settings').values({ key: 'backupMarker', value: marker, updatedAt: new Date().toISOString() }).execute();
  await handle.close();
}

describe.skipIf(!toolsPresent)('restore on PostgreSQL', () => {
  it('refuses while other clients are connected, and a non-empty database without --force', async () => {
    const source = await newPlace(cleanups, 'pg-a');
    const sourceConfig = loadConfig(source.env);
    await migrated(source.databaseUrl ?? '', source.dataDir, 'source');
    loadSecrets(sourceConfig);
    const { file: archive } = await runBackup(sourceConfig, { out: `${path.dirname(source.dataDir)}/` });

    const target = await newPlace(cleanups, 'pg-b');
    const config = loadConfig(target.env);
    const other = new pg.Client({ connectionString: target.databaseUrl });
    await other.connect();
    await expect(runRestore(config, archive)).rejects.toThrow('1 other connection is open to the database: stop ZapDesk on every node (and close other clients) first. Nothing was changed.');
    await other.end();

    await migrated(target.databaseUrl ?? '', target.dataDir, 'target');
    await expect(runRestore(config, archive)).rejects.toThrow(/The database in DATABASE_URL is not empty\. .*--force/);
    const result = await runRestore(config, archive, { force: true });
    const saved = result.kept.find((p) => p.endsWith('.pgdump'));
    expect(saved && fs.statSync(saved).size).toBeGreaterThan(0);

    const handle = openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
    const markers = await handle.db.selectFrom('settings').select('value').where('key', '=', 'backupMarker').execute();
    await handle.close();
    expect(markers).toEqual([{ value: 'source' }]);
  }, 60_000);
});
