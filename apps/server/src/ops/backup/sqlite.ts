/**
 * SQLite: a consistent copy through SQLite's online backup API while the server reads and
 * writes, and the swap of the database file on restore (the previous one is kept).
 */
import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import { OpsError } from './errors.js';
import { keepPrevious } from './files.js';

/** Copies the live database at `source` into `dest` and returns the migrations applied in the copy. */
export async function backupSqlite(source: string, dest: string): Promise<string[]> {
  if (!fs.existsSync(source)) throw new OpsError(`There is no database at ${source}: check DATA_DIR (or set DATABASE_URL for PostgreSQL).`);
  const live = new SQLite(source, { fileMustExist: true });
  try {
    live.pragma('busy_timeout = 5000');
    // Every page in one step: one read transaction, so writes by the running server neither
    // restart the copy nor end up half in it.
    await live.backup(dest, { progress: () => 0x7fffffff });
  } finally {
    live.close();
  }
  fs.chmodSync(dest, 0o600);
  const copy = new SQLite(dest, { fileMustExist: true });
  try {
    // One self-contained file: no -wal beside it in the archive.
    copy.pragma('journal_mode = DELETE');
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new OpsError(`The copy of the database failed SQLite's check: ${String(check)}`);
    return migrationsIn(copy);
  } finally {
    copy.close();
  }
}

function migrationsIn(db: SQLite.Database): string[] {
  const table = db.prepare("select name from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
  if (!table) throw new OpsError('The database holds no migrations table: it is not a ZapDesk database.');
  return db.prepare('select name from kysely_migration order by name').pluck().all() as string[];
}

/** The migrations applied in the database file `file` (a restored copy, opened read-only). */
export function sqliteMigrations(file: string): string[] {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    return migrationsIn(db);
  } catch (error) {
    if (error instanceof OpsError) throw error;
    throw new OpsError(`The archive's database cannot be read: ${(error as Error).message}`);
  } finally {
    db.close();
  }
}

/**
 * Puts `restored` in place of `target`. The current database, with its -wal and -shm (a killed
 * server's last writes may still be in the -wal), is renamed to `<name>.before-restore-<stamp>`:
 * a -wal left beside the new file would be read into it.
 */
export function replaceSqlite(restored: string, target: string, stamp: string): string[] {
  const kept: string[] = [];
  const previous = keepPrevious(target, stamp);
  if (previous) {
    kept.push(previous);
    for (const suffix of ['-wal', '-shm']) {
      if (fs.existsSync(target + suffix)) fs.renameSync(target + suffix, previous + suffix);
    }
  }
  fs.chmodSync(restored, 0o600);
  fs.renameSync(restored, target);
  return kept;
}
