/**
 * A database of the test run's kind (SQLite in a new folder, or a new PostgreSQL database when
 * TEST_DB is postgres) with no migration applied: for the tests of a migration on older data.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type DbHandle } from '../core/db/database.js';
import { createPostgresDatabase } from './harness.js';

export async function openBareDatabase(): Promise<{ handle: DbHandle; close: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-migration-'));
  const pg = process.env.TEST_DB === 'postgres' ? await createPostgresDatabase() : undefined;
  const handle = openDatabase({ databaseUrl: pg?.url, dataDir });
  return {
    handle,
    close: async () => {
      await handle.close();
      await pg?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
