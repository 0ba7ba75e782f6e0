/**
 * SQLite's transactions beside another process writing to the same file (the whaticket importer
 * runs beside a running server): a transaction waits for the other's write and then commits; it
 * never fails with 'database is locked' because the other committed between its read and its write.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, sqliteFileOf, type DbHandle } from './database.js';
import { migrateToLatest } from './migrate.js';

const onPostgres = process.env.TEST_DB === 'postgres';

// Another process takes the write lock, writes a queue, says so, and commits `holdMs` later.
const HOLDER = `
const SQLite = require('better-sqlite3');
const db = new SQLite(process.argv[1]);
db.exec('begin immediate');
db.prepare("insert into queues (name, color, \\"greetingMessage\\", \\"createdAt\\", \\"updatedAt\\") values ('theirs', '#111111', '', 'now', 'now')").run();
process.stdout.write('held\\n');
setTimeout(() => { db.exec('commit'); db.close(); }, Number(process.argv[2]));
`;

describe.skipIf(onPostgres)('SQLite transactions beside another process', () => {
  let dir: string;
  let handle: DbHandle;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-tx-'));
    handle = openDatabase({ databaseUrl: undefined, dataDir: dir });
    await migrateToLatest(handle);
  });

  afterEach(async () => {
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('waits for the other process to commit, then reads its row and commits its own write', async () => {
    const holder = spawn(process.execPath, ['-e', HOLDER, sqliteFileOf(dir), '500'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<number | null>((resolve) => holder.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve());
      holder.on('exit', (code) => reject(new Error(`the other process ended first (exit ${code})`)));
    });

    // The other process holds the write lock now. A read, then a write that depends on it: the
    // importer's batches and the server's transactions have this shape.
    const seen = await handle.db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom('queues').select('name').execute();
      const now = new Date().toISOString();
      await sql`insert into queues (name, color, "greetingMessage", "createdAt", "updatedAt") values (${'ours'}, ${'#000000'}, '', ${now}, ${now})`.execute(trx);
      return before.map((q) => q.name);
    });

    expect(await exited).toBe(0);
    // The transaction began after the other's commit: it saw that row, and both writes are kept.
    expect(seen).toEqual(['theirs']);
    const names = await handle.db.selectFrom('queues').select('name').orderBy('name').execute();
    expect(names.map((q) => q.name)).toEqual(['ours', 'theirs']);
  });
});
