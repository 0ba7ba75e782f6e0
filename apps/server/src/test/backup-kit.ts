/** What the backup tests share: places (DATA_DIR, MEDIA_DIR, a database), the CLI as a child process. */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPostgresDatabase } from './harness.js';
import { ROOT } from './server-process.js';

export const BACKUP_CLI = path.join(ROOT, 'apps/server/src/ops/backup/cli.ts');

/** A product's place: its DATA_DIR, a MEDIA_DIR outside it, and its PostgreSQL database on TEST_DB=postgres. */
export type Place = { dataDir: string; mediaDir: string; databaseUrl: string | undefined; env: Record<string, string> };

export async function newPlace(cleanups: (() => Promise<void>)[], label: string, options: { sqlite?: boolean } = {}): Promise<Place> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `zapdesk-${label}-`));
  const pgDb = process.env.TEST_DB === 'postgres' && !options.sqlite ? await createPostgresDatabase() : undefined;
  const place = { dataDir: path.join(root, 'data'), mediaDir: path.join(root, 'media-volume', 'media'), databaseUrl: pgDb?.url };
  cleanups.push(async () => {
    await pgDb?.drop();
    fs.rmSync(root, { recursive: true, force: true });
  });
  return { ...place, env: { DATA_DIR: place.dataDir, MEDIA_DIR: place.mediaDir, ...(place.databaseUrl ? { DATABASE_URL: place.databaseUrl } : {}) } };
}

export type CliResult = { code: number; stdout: string; stderr: string };

/** `npm run backup|restore …` as the CLI runs it, with `env` (and PATH) only. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=source', BACKUP_CLI, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** True when pg_dump and pg_restore run; on CI their absence fails the test instead of skipping it. */
export function postgresToolsPresent(): boolean {
  const present = ['pg_dump', 'pg_restore'].every((tool) => spawnSync(tool, ['--version']).status === 0);
  if (!present && process.env.CI === 'true') throw new Error('pg_dump/pg_restore are not installed: CI needs them (Debian: apt-get install postgresql-client).');
  return present;
}

/** Every file under `dir` (relative name → content), for "nothing changed" checks. */
export function snapshotTree(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  if (!fs.existsSync(dir)) return found;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    found.set(path.relative(dir, full), fs.readFileSync(full).toString('base64'));
  }
  return found;
}

/** A 2×2 PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==', 'base64');
