/**
 * manifest.json, the archive's first member: what made it (product and schema version, the
 * database kind, when) and every other member with its size and sha256.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const MANIFEST = 'manifest.json';
export const SQLITE_MEMBER = 'database.sqlite';
export const POSTGRES_MEMBER = 'database.pgdump';
export const SECRETS_MEMBER = 'secrets.json';
export const MEDIA_MEMBER = 'media';

const ZFileEntry = z.object({ path: z.string().min(1), size: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) });
export type FileEntry = z.infer<typeof ZFileEntry>;

export const ZManifestSchema = z.object({
  format: z.literal(1),
  product: z.literal('zapdesk'),
  productVersion: z.string(),
  /** The last migration applied in the database. */
  schemaVersion: z.string().min(1),
  database: z.enum(['sqlite', 'postgres']),
  createdAt: z.string(),
  files: z.array(ZFileEntry),
});
export type Manifest = z.infer<typeof ZManifestSchema>;

/** apps/server/package.json's version (the same path from src/ and dist/). */
export function productVersion(): string {
  const file = path.resolve(import.meta.dirname, '../../../package.json');
  return z.object({ version: z.string() }).parse(JSON.parse(fs.readFileSync(file, 'utf8'))).version;
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every regular file under `dir`, as archive paths ('/' separated), sorted; anything else is refused. */
export function listFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(name);
      else if (entry.isFile()) found.push(name);
      else throw new Error(`${name} is neither a file nor a folder`);
    }
  };
  walk('');
  return found.sort();
}

export async function describeFiles(dir: string, names: string[]): Promise<FileEntry[]> {
  const entries: FileEntry[] = [];
  for (const name of names) {
    const full = path.join(dir, name);
    entries.push({ path: name, size: fs.statSync(full).size, sha256: await sha256Of(full) });
  }
  return entries;
}
