/**
 * What restore refuses, each before it changes anything: an archive from a newer version, a
 * damaged one, one of the other database kind, a product still running; and what it keeps when
 * it goes ahead. Run in-process on SQLite (one case through the CLI for its exit code).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../core/config.js';
import { openDatabase } from '../../core/db/database.js';
import { migrateToLatest } from '../../core/db/migrate.js';
import { RUN_FILE } from '../../core/run-lock.js';
import { loadSecrets } from '../../core/secrets.js';
import { newPlace, PNG, runCli, snapshotTree, type Place } from '../../test/backup-kit.js';
import { pack, unpack } from './archive.js';
import { runBackup } from './backup.js';
import { OpsError } from './errors.js';
import { describeFiles, listFiles, MANIFEST, type Manifest } from './manifest.js';
import { requireTool } from './postgres.js';
import { runRestore } from './restore.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A stopped product on SQLite with its database, secrets.json and one media file. */
async function product(label: string): Promise<{ place: Place; config: Config }> {
  const place = await newPlace(cleanups, label, { sqlite: true });
  const config = loadConfig(place.env);
  const handle = openDatabase({ databaseUrl: undefined, dataDir: config.dataDir });
  await migrateToLatest(handle);
  await handle.close();
  loadSecrets(config);
  fs.mkdirSync(path.join(config.mediaDir, '2026-11'), { recursive: true });
  fs.writeFileSync(path.join(config.mediaDir, '2026-11', `${label}.png`), PNG);
  return { place, config };
}

/** Everything restore could touch in a place. */
function state(place: Place): Map<string, string>[] {
  return [snapshotTree(place.dataDir), snapshotTree(path.dirname(place.mediaDir))];
}

/** Unpacks `archive`, lets `change` edit the members, packs it again under a new name. */
async function rewrite(archive: string, change: (dir: string, manifest: Manifest) => Promise<Manifest>): Promise<string> {
  const dir = fs.mkdtempSync(`${archive}-edit-`);
  await unpack(archive, dir);
  const manifest = await change(dir, JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), 'utf8')) as Manifest);
  fs.writeFileSync(path.join(dir, MANIFEST), JSON.stringify(manifest));
  const file = `${dir}.tar.gz`;
  await pack(dir, [MANIFEST, ...fs.readdirSync(dir).filter((name) => name !== MANIFEST)], file);
  return file;
}

async function backupOf(label: string): Promise<{ source: { place: Place; config: Config }; archive: string }> {
  const source = await product(label);
  const result = await runBackup(source.config, { out: `${path.dirname(source.place.dataDir)}/` });
  return { source, archive: result.file };
}

describe('npm run restore refuses', () => {
  it('an archive from a newer version (a migration this build does not know), changing nothing', async () => {
    const { archive } = await backupOf('newer-a');
    const target = await product('newer-b');
    const before = state(target.place);

    // The manifest names a newer schema.
    const newerManifest = await rewrite(archive, async (_dir, manifest) => ({ ...manifest, schemaVersion: '999_from_the_future' }));
    const cli = await runCli(['restore', newerManifest], target.place.env);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(
      /^restore refused: The archive comes from a newer version \(ZapDesk \S+, schema 999_from_the_future\): this build does not know the migration 999_from_the_future\. .*Nothing was changed\.\n$/,
    );
    expect(state(target.place)).toEqual(before);

    // The database itself had a newer migration applied (the manifest consistent with it).
    const newerDatabase = await rewrite(archive, async (dir, manifest) => {
      const db = new SQLite(path.join(dir, 'database.sqlite'));
      db.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run('998_later_feature', new Date().toISOString());
      db.close();
      return {
        ...manifest,
        files: await describeFiles(
          dir,
          listFiles(dir).filter((name) => name !== MANIFEST),
        ),
      };
    });
    await expect(runRestore(target.config, newerDatabase)).rejects.toThrow(/newer version .* does not know the migration 998_later_feature/);
    expect(state(target.place)).toEqual(before);
  });

  it('a damaged archive (a sha256 that does not match), changing nothing', async () => {
    const { archive } = await backupOf('damaged-a');
    const target = await product('damaged-b');
    const before = state(target.place);
    const damaged = await rewrite(archive, async (dir, manifest) => {
      const media = path.join(dir, 'media', '2026-11', 'damaged-a.png');
      const bytes = fs.readFileSync(media);
      bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 0xff, bytes.length - 1);
      fs.writeFileSync(media, bytes);
      return manifest;
    });
    await expect(runRestore(target.config, damaged)).rejects.toThrow('The archive is damaged: media/2026-11/damaged-a.png does not match the sha256 in its manifest. Nothing was changed.');
    const unlisted = await rewrite(archive, async (dir, manifest) => {
      fs.writeFileSync(path.join(dir, 'media', 'extra.bin'), 'x');
      return manifest;
    });
    await expect(runRestore(target.config, unlisted)).rejects.toThrow(/does not match its manifest \(unlisted media\/extra\.bin\)/);
    expect(state(target.place)).toEqual(before);
  });

  it('an archive of the other database kind', async () => {
    const { archive } = await backupOf('kind-a');
    const place = await newPlace(cleanups, 'kind-b', { sqlite: true });
    const postgresConfig = loadConfig({ ...place.env, DATABASE_URL: 'postgres://nobody:not-used@127.0.0.1:1/none' });
    await expect(runRestore(postgresConfig, archive)).rejects.toThrow(
      'The archive holds a SQLite database, and this product is configured for PostgreSQL (DATABASE_URL is set): restore it with the same kind of database.',
    );
  });

  it('while the product runs on the DATA_DIR; once stopped it restores and keeps what was there', async () => {
    const { source, archive } = await backupOf('running-a');
    const target = await product('running-b');
    const before = state(target.place);
    fs.writeFileSync(path.join(target.config.dataDir, RUN_FILE), `${process.pid}\n`);
    await expect(runRestore(target.config, archive)).rejects.toThrow(new RegExp(`ZapDesk is running on .* \\(process ${process.pid}\\): stop it first`));
    fs.rmSync(path.join(target.config.dataDir, RUN_FILE));
    expect(state(target.place)).toEqual(before);

    // A pid file left by a killed server names a process that is gone: stopped.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    fs.writeFileSync(path.join(target.config.dataDir, RUN_FILE), `${gone}\n`);
    const result = await runRestore(target.config, archive, { now: new Date('2026-11-26T10:20:30Z') });
    const stamp = 'before-restore-20261126-102030';
    expect(result.kept.map((p) => path.basename(p)).sort()).toEqual([`media.${stamp}`, `secrets.json.${stamp}`, `zapdesk.sqlite.${stamp}`]);
    expect(fs.readFileSync(path.join(target.config.dataDir, `zapdesk.sqlite.${stamp}`)).toString('base64')).toBe(before[0]?.get('zapdesk.sqlite'));
    expect(fs.readFileSync(path.join(target.config.dataDir, 'secrets.json'), 'utf8')).toBe(fs.readFileSync(path.join(source.config.dataDir, 'secrets.json'), 'utf8'));
    expect(fs.readFileSync(path.join(target.config.mediaDir, '2026-11', 'running-a.png')).equals(PNG)).toBe(true);
    expect(fs.existsSync(path.join(target.config.mediaDir, '2026-11', 'running-b.png'))).toBe(false);
    expect(fs.readFileSync(path.join(`${target.config.mediaDir}.${stamp}`, '2026-11', 'running-b.png')).equals(PNG)).toBe(true);
    expect(fs.statSync(path.join(target.config.dataDir, 'zapdesk.sqlite')).mode & 0o777).toBe(0o600);
  });
});

describe('PostgreSQL tools', () => {
  it('says which program is missing and how to install it', async () => {
    const path0 = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      for (const tool of ['pg_dump', 'pg_restore'] as const) {
        const error = await requireTool(tool).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(OpsError);
        expect((error as Error).message).toMatch(new RegExp(`^${tool} is not installed \\(not found on PATH\\).*\\n  Debian/Ubuntu: sudo apt-get install postgresql-client`));
      }
    } finally {
      process.env.PATH = path0;
    }
  });
});
