/**
 * The media library: the files of LOCAL_MEDIA_DIR that 'media by local path' (and the tool API's
 * `/sendMediaZDG`) send. People add files from the page (typed from their bytes, within the size
 * limit), see them with their size and kind, and remove them; nothing outside the folder is ever
 * read, written or removed, and links are not followed out of it.
 */
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromFile } from 'file-type';
import { CAMPAIGN_LIMITS } from '@zapdesk/shared/campaigns';
import { LOCAL_MEDIA_TYPES, type TLocalMediaFile } from '@zapdesk/shared/media-library';
import { mediaTypeOfMime } from '@zapdesk/shared/domain';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';

const LISTED_FILES_MAX = 500;
const LIST_DEPTH_MAX = 3;
const NAME_CHARS_MAX = 100;

type LibraryMime = keyof typeof LOCAL_MEDIA_TYPES;
const isLibraryMime = (mime: string): mime is LibraryMime => Object.hasOwn(LOCAL_MEDIA_TYPES, mime);

/** The MIME type of a library file from its name's extension (what the preview is served as). */
export function libraryMimeOf(file: string): string {
  const ext = path.extname(file).slice(1).toLowerCase();
  const found = Object.entries(LOCAL_MEDIA_TYPES).find(([, e]) => e === ext)?.[0];
  return found ?? (ext === 'jpeg' ? 'image/jpeg' : ext === 'opus' ? 'audio/ogg' : 'application/octet-stream');
}

/** The largest file the library takes: the upload limit (UPLOAD_MAX_FILE_MB), within what a send can carry. */
export function libraryMaxBytes(ctx: AppContext): number {
  return Math.min(ctx.config.uploadMaxFileBytes, CAMPAIGN_LIMITS.maxMediaBytes);
}

async function rootOf(ctx: AppContext, create: boolean): Promise<string | undefined> {
  if (create) await fs.mkdir(ctx.config.localMediaDir, { recursive: true, mode: 0o700 });
  return fs.realpath(ctx.config.localMediaDir).catch(() => undefined);
}

/** The files the page offers, relative to LOCAL_MEDIA_DIR; links are not followed. */
export async function listLibrary(ctx: AppContext): Promise<TLocalMediaFile[]> {
  const root = await rootOf(ctx, false);
  if (!root) return [];
  const files: TLocalMediaFile[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (files.length >= LISTED_FILES_MAX || entry.name.startsWith('.')) continue;
      const absolute = path.join(dir, entry.name);
      if (entry.isDirectory() && depth < LIST_DEPTH_MAX) await walk(absolute, depth + 1);
      else if (entry.isFile()) {
        const stat = await fs.stat(absolute);
        files.push({
          path: path.relative(root, absolute).split(path.sep).join('/'),
          size: stat.size,
          mediaType: mediaTypeOfMime(libraryMimeOf(entry.name)),
          modifiedAt: stat.mtime.toISOString(),
        });
      }
    }
  };
  await walk(root, 1);
  return files;
}

/**
 * A library file's absolute path for removal: inside the folder, by a path with no `..`, and no
 * link on the way (its real path is the path itself), so a link never leads a removal elsewhere.
 */
async function ownFile(ctx: AppContext, typed: string): Promise<string> {
  const root = await rootOf(ctx, false);
  if (!root) throw new AppError('ERR_MEDIA_PATH_NOT_FOUND');
  const relative = typed.replace(/\\/g, '/');
  if (path.isAbsolute(relative) || relative.split('/').includes('..')) throw new AppError('ERR_MEDIA_PATH_FORBIDDEN');
  const candidate = path.resolve(root, relative);
  if (!candidate.startsWith(root + path.sep)) throw new AppError('ERR_MEDIA_PATH_FORBIDDEN');
  const stat = await fs.lstat(candidate).catch(() => undefined);
  if (!stat) throw new AppError('ERR_MEDIA_PATH_NOT_FOUND');
  const real = await fs.realpath(candidate).catch(() => undefined);
  if (stat.isSymbolicLink() || real !== candidate) throw new AppError('ERR_MEDIA_PATH_FORBIDDEN');
  if (!stat.isFile()) throw new AppError('ERR_MEDIA_PATH_NOT_FOUND');
  return candidate;
}

export async function removeFromLibrary(ctx: AppContext, typed: string): Promise<void> {
  await fs.rm(await ownFile(ctx, typed));
}

/** A file name people recognise, safe on any disk: letters, digits, spaces, '.', '-', '_'; the type's own extension. */
export function libraryFileName(original: string, ext: string): string {
  const base = path.basename(original.replace(/\\/g, '/')).normalize('NFC');
  const stem = base
    .replace(/\.[^.]*$/, '')
    .replace(/[^\p{L}\p{N} ._-]+/gu, '_')
    .replace(/^[.\s_-]+/, '')
    .trim()
    .slice(0, NAME_CHARS_MAX);
  return `${stem || 'arquivo'}.${ext}`;
}

/**
 * Adds an uploaded file (a temporary file) to the library's top folder, under its own name (a
 * number added when the name is taken). Refused: a type the library does not take, a file over
 * the limit, an empty file. Returns the new file as listed.
 */
export async function addToLibrary(ctx: AppContext, upload: { path: string; filename: string; size: number }): Promise<TLocalMediaFile> {
  if (upload.size === 0) throw new AppError('ERR_INVALID_UPLOAD', { message: 'The file is empty.', fields: { file: 'INVALID' } });
  if (upload.size > libraryMaxBytes(ctx)) throw new AppError('ERR_MEDIA_TOO_LARGE');
  const detected = await fileTypeFromFile(upload.path);
  const mime = detected?.mime.split(';')[0]?.trim() ?? '';
  const canonical = mime === 'audio/x-m4a' ? 'audio/mp4' : mime;
  if (!isLibraryMime(canonical)) throw new AppError('ERR_MEDIA_TYPE_NOT_ALLOWED', { fields: { file: 'INVALID' } });
  const root = await rootOf(ctx, true);
  if (!root) throw new AppError('ERR_MEDIA_PATH_NOT_FOUND');
  const name = libraryFileName(upload.filename, LOCAL_MEDIA_TYPES[canonical]);
  const stem = name.slice(0, -(LOCAL_MEDIA_TYPES[canonical].length + 1));
  for (let attempt = 1; attempt <= 100; attempt += 1) {
    const chosen = attempt === 1 ? name : `${stem}-${attempt}.${LOCAL_MEDIA_TYPES[canonical]}`;
    const target = path.join(root, chosen);
    try {
      // Never over an existing file or a link: the copy fails if the name is taken.
      await fs.copyFile(upload.path, target, constants.COPYFILE_EXCL);
      await fs.chmod(target, 0o600);
      const stat = await fs.stat(target);
      return { path: chosen, size: stat.size, mediaType: mediaTypeOfMime(canonical), modifiedAt: stat.mtime.toISOString() };
    } catch (error) {
      if (!(typeof error === 'object' && error !== null && 'code' in error && error.code === 'EEXIST')) throw error;
    }
  }
  throw new AppError('ERR_MEDIA_NAME_INVALID');
}
