/**
 * The archive is a gzipped tar written and read by the system's GNU tar (Debian's base system
 * has it), run without a shell. Members: manifest.json first, then the database, secrets.json
 * and the media folder.
 */
import { spawn } from 'node:child_process';
import { OpsError } from './errors.js';

export type ToolResult = { code: number; stderr: string };

/** Runs `command` without a shell; a missing command becomes `missing()`'s message. */
export function runTool(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; missing?: () => string } = {}): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env ?? process.env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 20_000) stderr += chunk.toString();
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') reject(new OpsError(options.missing?.() ?? `${command} is not installed (not found on PATH).`));
      else reject(error);
    });
    child.once('close', (code) => resolve({ code: code ?? 1, stderr: stderr.trim() }));
  });
}

const tarMissing = () => 'tar is not installed (not found on PATH). On Debian/Ubuntu: sudo apt-get install tar gzip';

async function tar(args: string[], what: string): Promise<void> {
  const result = await runTool('tar', args, { missing: tarMissing });
  if (result.code !== 0) throw new OpsError(`${what} failed (tar exit code ${result.code}): ${result.stderr}`);
}

/** Packs `members` (names inside `dir`, folders recursively) into `file`. */
export async function pack(dir: string, members: string[], file: string): Promise<void> {
  await tar(['-czf', file, '--owner=0', '--group=0', '--numeric-owner', '-C', dir, '--', ...members], 'writing the archive');
}

/** Unpacks `file` into the empty folder `dir` (GNU tar strips absolute and '..' names). */
export async function unpack(file: string, dir: string): Promise<void> {
  await tar(['-xzf', file, '-C', dir, '--no-same-owner'], `reading ${file}`);
}
