/**
 * Migrated template databases, made once per test run by the global setups: a test app's database
 * starts as a copy of one, in exactly the state the migrations leave an empty database in, so the
 * app finds nothing left to migrate and goes on as on any migrated database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, sqliteFileOf } from '../core/db/database.js';
import { migrateToLatest } from '../core/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated SQLite file test apps start on a copy of. */
    sqliteTemplate: string;
    /** The migrated PostgreSQL database test apps' databases are created from. */
    postgresTemplate: string;
  }
}

export async function migratedTemplateFile(): Promise<{ file: string; remove: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-test-template-'));
  const handle = openDatabase({ databaseUrl: undefined, dataDir: dir });
  await migrateToLatest(handle);
  // Closing the only connection folds the write-ahead log into the file: the file alone is the database.
  await handle.close();
  return { file: sqliteFileOf(dir), remove: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export async function migratedTemplateDatabase(baseUrl: string, name: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const admin = async <T>(run: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      return await run(client);
    } finally {
      await client.end();
    }
  };
  await admin((c) => c.query(`create database ${name}`));
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const handle = openDatabase({ databaseUrl: url.toString(), dataDir: os.tmpdir() });
  try {
    await migrateToLatest(handle);
  } finally {
    // A template may have no one connected while databases are created from it.
    await handle.close();
  }
  return { name, drop: () => admin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => undefined) };
}

/** The template a test app's database starts from, when the run's global setup made one. */
export async function providedTemplate(key: 'sqliteTemplate' | 'postgresTemplate'): Promise<string | undefined> {
  if (!process.env.VITEST) return undefined;
  const { inject } = await import('vitest');
  return inject(key) || undefined;
}
