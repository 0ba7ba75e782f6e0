/** Reading an unpacked archive: its manifest, the checks against this build, the sha256 of every member. */
import fs from 'node:fs';
import path from 'node:path';
import type { DbKind } from '../../core/db/database.js';
import { migrationsFor } from '../../core/db/migrate.js';
import { OpsError } from './errors.js';
import { listFiles, MANIFEST, sha256Of, ZManifestSchema, type Manifest } from './manifest.js';

export function readManifest(dir: string): Manifest {
  const file = path.join(dir, MANIFEST);
  if (!fs.existsSync(file)) throw new OpsError('The archive has no manifest.json: it was not made by `npm run backup`.');
  const parsed = ZManifestSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success) throw new OpsError(`The archive's manifest.json is not one this version reads: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** The database kinds match, and this build knows every migration the archive's database had. */
export function checkCompatible(manifest: Manifest, kind: DbKind, migrations: string[] = [manifest.schemaVersion]): void {
  if (manifest.database !== kind) {
    const configured = kind === 'postgres' ? 'PostgreSQL (DATABASE_URL is set)' : 'SQLite (DATABASE_URL is not set)';
    throw new OpsError(
      `The archive holds a ${manifest.database === 'postgres' ? 'PostgreSQL' : 'SQLite'} database, and this product is configured for ${configured}: restore it with the same kind of database.`,
    );
  }
  const known = new Set(Object.keys(migrationsFor(kind)));
  const unknown = migrations.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new OpsError(
      `The archive comes from a newer version (ZapDesk ${manifest.productVersion}, schema ${manifest.schemaVersion}): this build does not know the migration${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}. ` +
        'Install that version (or a later one) first, then restore. Nothing was changed.',
    );
  }
}

/** Exactly the files the manifest lists, each with its size and sha256. */
export async function verifyMembers(dir: string, manifest: Manifest): Promise<void> {
  let present: string[];
  try {
    present = listFiles(dir).filter((name) => name !== MANIFEST);
  } catch (error) {
    throw new OpsError(`The archive holds something other than files and folders: ${(error as Error).message}. Nothing was changed.`);
  }
  const listed = new Set(manifest.files.map((f) => f.path));
  const extra = present.filter((name) => !listed.has(name));
  const absent = [...listed].filter((name) => !present.includes(name));
  if (extra.length > 0 || absent.length > 0) {
    throw new OpsError(`The archive does not match its manifest (${[...absent.map((n) => `missing ${n}`), ...extra.map((n) => `unlisted ${n}`)].slice(0, 5).join(', ')}). Nothing was changed.`);
  }
  for (const entry of manifest.files) {
    const full = path.join(dir, entry.path);
    const size = fs.statSync(full).size;
    if (size !== entry.size || (await sha256Of(full)) !== entry.sha256) {
      throw new OpsError(`The archive is damaged: ${entry.path} does not match the sha256 in its manifest. Nothing was changed.`);
    }
  }
}
