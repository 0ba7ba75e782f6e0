/**
 * Fails the run at once, and clearly, when PostgreSQL is expected but cannot be reached. Then
 * migrates one template database for the run: each test app's database is a copy of it (CREATE
 * DATABASE … TEMPLATE), which takes a tenth of migrating a fresh one. TEST_PG_TEMPLATE names it
 * for the workers; it is dropped when the run ends.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { openDatabase } from '../core/db/database.js';
import { migrateToLatest } from '../core/db/migrate.js';

export default async function setup(): Promise<() => Promise<void>> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set, but the PostgreSQL project was requested.');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    await client.end().catch(() => undefined);
    throw new Error(`TEST_DATABASE_URL=${url} is set but PostgreSQL is unreachable: ${(error as Error).message}. Start PostgreSQL or unset TEST_DATABASE_URL.`);
  }
  const template = `zapdesk_template_${randomBytes(6).toString('hex')}`;
  try {
    await client.query(`create database ${template}`);
    const templateUrl = new URL(url);
    templateUrl.pathname = `/${template}`;
    const handle = openDatabase({ databaseUrl: templateUrl.toString(), dataDir: os.tmpdir() });
    try {
      await migrateToLatest(handle);
    } finally {
      await handle.close();
    }
  } finally {
    await client.end().catch(() => undefined);
  }
  process.env.TEST_PG_TEMPLATE = template;
  return async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${template} with (force)`);
    await admin.end();
  };
}
