/**
 * `npm run restore <archive>`: on a stopped product, checks the archive (kind, version, every
 * sha256) before it touches anything, then puts back the database, the media folder and
 * secrets.json; what was there is kept under `<name>.before-restore-<time>`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../core/config.js';
import { sqliteFileOf } from '../../core/db/database.js';
import { runningPid, RUN_FILE } from '../../core/run-lock.js';
import { unpack } from './archive.js';
import { OpsError } from './errors.js';
import { replacePath, timeStamp } from './files.js';
import { MEDIA_MEMBER, POSTGRES_MEMBER, SECRETS_MEMBER, SQLITE_MEMBER, type Manifest } from './manifest.js';
import { pgDump, pgFacts, pgRestore, requireTool } from './postgres.js';
import { replaceSqlite, sqliteMigrations } from './sqlite.js';
import { checkCompatible, readManifest, verifyMembers } from './verify.js';

export type RestoreResult = { manifest: Manifest; kept: string[]; mediaFiles: number };

export async function runRestore(config: Config, archive: string, options: { force?: boolean; now?: Date } = {}): Promise<RestoreResult> {
  const file = path.resolve(archive);
  if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) throw new OpsError(`${file} is not a file.`);
  const kind = config.databaseUrl ? 'postgres' : 'sqlite';
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const staging = fs.mkdtempSync(path.join(config.dataDir, '.restore-'));
  try {
    await unpack(file, staging);
    const manifest = readManifest(staging);
    checkCompatible(manifest, kind);
    await verifyMembers(staging, manifest);
    if (kind === 'sqlite') checkCompatible(manifest, kind, sqliteMigrations(path.join(staging, SQLITE_MEMBER)));
    if (config.databaseUrl) {
      await requireTool('pg_restore');
      if (options.force) await requireTool('pg_dump');
    }
    const pid = runningPid(config.dataDir);
    if (pid !== undefined) {
      throw new OpsError(
        `ZapDesk is running on ${config.dataDir} (process ${pid}): stop it first (e.g. systemctl stop zapdesk). ` +
          `If no ZapDesk runs, remove ${path.join(config.dataDir, RUN_FILE)}. Nothing was changed.`,
      );
    }
    const stamp = timeStamp(options.now);
    const kept: string[] = [];
    if (config.databaseUrl) {
      const facts = await pgFacts(config.databaseUrl);
      if (facts.otherClients > 0) {
        throw new OpsError(
          `${facts.otherClients} other connection${facts.otherClients > 1 ? 's are' : ' is'} open to the database: stop ZapDesk on every node (and close other clients) first. Nothing was changed.`,
        );
      }
      if (facts.tables > 0) {
        if (!options.force) {
          throw new OpsError(
            'The database in DATABASE_URL is not empty. Restore into an empty database (createdb), or add --force to replace its content ' +
              '(a copy of it is saved first in DATA_DIR). Nothing was changed.',
          );
        }
        const before = path.join(config.dataDir, `postgres.before-restore-${stamp}.pgdump`);
        await pgDump(config.databaseUrl, before);
        fs.chmodSync(before, 0o600);
        kept.push(before);
      }
      await pgRestore(config.databaseUrl, path.join(staging, POSTGRES_MEMBER));
    } else {
      kept.push(...replaceSqlite(path.join(staging, SQLITE_MEMBER), sqliteFileOf(config.dataDir), stamp));
    }
    fs.mkdirSync(path.join(staging, MEDIA_MEMBER), { recursive: true, mode: 0o700 });
    const previousMedia = replacePath(path.join(staging, MEDIA_MEMBER), config.mediaDir, stamp);
    if (previousMedia) kept.push(previousMedia);
    if (fs.existsSync(path.join(staging, SECRETS_MEMBER))) {
      fs.chmodSync(path.join(staging, SECRETS_MEMBER), 0o600);
      const previousSecrets = replacePath(path.join(staging, SECRETS_MEMBER), path.join(config.dataDir, 'secrets.json'), stamp);
      if (previousSecrets) kept.push(previousSecrets);
    }
    return { manifest, kept, mediaFiles: manifest.files.filter((f) => f.path.startsWith(`${MEDIA_MEMBER}/`)).length };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
