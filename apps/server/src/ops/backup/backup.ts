/**
 * `npm run backup`: one archive with the database (a consistent copy taken while the product
 * runs), the media folder and secrets.json, described by manifest.json. Written under a
 * temporary name and renamed; owner-only (it holds the secrets).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../core/config.js';
import { sqliteFileOf } from '../../core/db/database.js';
import { pack } from './archive.js';
import { OpsError } from './errors.js';
import { snapshotFolder, timeStamp } from './files.js';
import { describeFiles, listFiles, MANIFEST, MEDIA_MEMBER, POSTGRES_MEMBER, productVersion, SECRETS_MEMBER, SQLITE_MEMBER, type Manifest } from './manifest.js';
import { pgDump, pgFacts, requireTool } from './postgres.js';
import { backupSqlite } from './sqlite.js';

export type BackupResult = { file: string; size: number; manifest: Manifest; mediaFiles: number; mediaBytes: number; databaseBytes: number };

/** `--out`: a folder (existing, or ending in '/') gets a dated name; anything else is the file. */
export function archivePath(out: string | undefined, now = new Date()): string {
  const name = `zapdesk-backup-${timeStamp(now)}.tar.gz`;
  if (out === undefined) return path.resolve('backups', name);
  const resolved = path.resolve(out);
  if (out.endsWith('/') || out.endsWith(path.sep) || fs.statSync(resolved, { throwIfNoEntry: false })?.isDirectory()) return path.join(resolved, name);
  return resolved;
}

export async function runBackup(config: Config, options: { out?: string | undefined; now?: Date } = {}): Promise<BackupResult> {
  const now = options.now ?? new Date();
  const file = archivePath(options.out, now);
  const kind = config.databaseUrl ? 'postgres' : 'sqlite';
  if (config.databaseUrl) await requireTool('pg_dump');
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const staging = fs.mkdtempSync(path.join(path.dirname(file), '.zapdesk-backup-'));
  const partial = `${file}.partial-${process.pid}`;
  try {
    // The database first, the media after it: every file a backed-up message names was written
    // before its row, so it is in the snapshot (media files are never changed once written).
    let migrations: string[];
    let databaseMember: string;
    if (config.databaseUrl) {
      databaseMember = POSTGRES_MEMBER;
      migrations = (await pgFacts(config.databaseUrl)).migrations;
      await pgDump(config.databaseUrl, path.join(staging, databaseMember));
    } else {
      databaseMember = SQLITE_MEMBER;
      migrations = await backupSqlite(sqliteFileOf(config.dataDir), path.join(staging, databaseMember));
    }
    const schemaVersion = migrations.at(-1);
    if (!schemaVersion) throw new OpsError('The database has no migrations applied: start the product once before backing it up.');
    const secrets = path.join(config.dataDir, 'secrets.json');
    if (fs.existsSync(secrets)) fs.copyFileSync(secrets, path.join(staging, SECRETS_MEMBER));
    snapshotFolder(config.mediaDir, path.join(staging, MEDIA_MEMBER));

    const files = await describeFiles(staging, listFiles(staging));
    const manifest: Manifest = { format: 1, product: 'zapdesk', productVersion: productVersion(), schemaVersion, database: kind, createdAt: now.toISOString(), files };
    fs.writeFileSync(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    const members = [MANIFEST, databaseMember, ...(fs.existsSync(path.join(staging, SECRETS_MEMBER)) ? [SECRETS_MEMBER] : []), MEDIA_MEMBER];
    fs.closeSync(fs.openSync(partial, 'w', 0o600));
    await pack(staging, members, partial);
    fs.chmodSync(partial, 0o600);
    fs.renameSync(partial, file);
    const media = files.filter((f) => f.path.startsWith(`${MEDIA_MEMBER}/`));
    return {
      file,
      size: fs.statSync(file).size,
      manifest,
      mediaFiles: media.length,
      mediaBytes: media.reduce((sum, f) => sum + f.size, 0),
      databaseBytes: files.find((f) => f.path === databaseMember)?.size ?? 0,
    };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    fs.rmSync(partial, { force: true });
  }
}
