/** Moving restored files and folders into place; what was there is kept, renamed, never deleted. */
import fs from 'node:fs';
import path from 'node:path';

/** Renames `target` to `<target>.before-restore-<stamp>` when it exists; returns the new name. */
export function keepPrevious(target: string, stamp: string): string | undefined {
  if (!fs.existsSync(target)) return undefined;
  const previous = `${target}.before-restore-${stamp}`;
  fs.renameSync(target, previous);
  return previous;
}

/** `src` becomes `target` (a rename; a copy first when they are on different file systems). */
export function moveInto(src: string, target: string): void {
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  try {
    fs.renameSync(src, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    const temporary = `${target}.restore-${process.pid}.tmp`;
    fs.cpSync(src, temporary, { recursive: true, preserveTimestamps: true });
    fs.renameSync(temporary, target);
  }
}

/** Replaces `target` (a file or a folder) with `src`; returns the kept previous name, if any. */
export function replacePath(src: string, target: string, stamp: string): string | undefined {
  const previous = keepPrevious(target, stamp);
  try {
    moveInto(src, target);
  } catch (error) {
    if (previous) fs.renameSync(previous, target);
    throw error;
  }
  return previous;
}

/**
 * A snapshot of the media folder in `dest`: hard links (instant, and a file the server writes
 * later is not in it), copies where the folders are on different file systems. Names starting
 * with '.' (the uploads in progress, MEDIA_DIR/.uploads) and ending in '.tmp' (files being
 * written) are left out.
 */
export function snapshotFolder(src: string, dest: string): void {
  fs.mkdirSync(dest, { recursive: true, mode: 0o700 });
  if (!fs.existsSync(src)) return;
  for (const entry of fs.readdirSync(src, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name.endsWith('.tmp')) continue;
    const from = path.join(src, entry.name);
    const to = path.join(dest, entry.name);
    if (entry.isDirectory()) snapshotFolder(from, to);
    else if (entry.isFile()) {
      try {
        fs.linkSync(from, to);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // ENOENT: deleted since the listing.
        if (code === 'ENOENT') continue;
        if (code !== 'EXDEV' && code !== 'EPERM') throw error;
        fs.copyFileSync(from, to);
      }
    }
  }
}

/** 2026-11-26T17:30:05.123Z → 20261126-173005 */
export function timeStamp(date = new Date()): string {
  return date
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/[-:]/g, '')
    .replace('T', '-');
}
