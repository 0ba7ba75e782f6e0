/**
 * A message's file copied from whaticket's public folder into the product's media store, under
 * a name derived from the source and the message id: a rerun after an interruption writes the
 * same file again instead of leaving a second copy.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

export type CopiedMedia = { relative: string; size: number };

export async function copyMedia(options: { from: string; mediaDir: string; fileName: string; key: string; messageId: string; dryRun: boolean }): Promise<CopiedMedia | undefined> {
  const source = path.join(options.from, options.fileName);
  let size: number;
  try {
    const stat = await fs.stat(source);
    if (!stat.isFile()) return undefined;
    size = stat.size;
  } catch {
    return undefined;
  }
  const ext = path.extname(options.fileName).toLowerCase();
  const safeExt = /^\.[a-z0-9]{1,8}$/.test(ext) ? ext : '.bin';
  const digest = createHash('sha256').update(`${options.key}\n${options.messageId}`).digest('hex').slice(0, 32);
  const relative = path.posix.join('whaticket', digest.slice(0, 2), `${digest}${safeExt}`);
  if (options.dryRun) return { relative, size };
  const target = path.join(options.mediaDir, relative);
  await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  await fs.copyFile(source, target);
  await fs.chmod(target, 0o600);
  return { relative, size };
}

/** Runs `work` over `items` with at most `limit` at a time, results in order. */
export async function mapLimit<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T);
    }
  });
  await Promise.all(runners);
  return results;
}
