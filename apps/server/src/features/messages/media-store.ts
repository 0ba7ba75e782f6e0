/**
 * Media files live under DATA_DIR/media, never served publicly: clients get short-lived
 * addresses signed with an HMAC of the message id and the expiry.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../core/context.js';

export const MEDIA_URL_TTL_SECONDS = 60 * 60;

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/webm': 'webm',
  'audio/wav': 'wav',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'application/pdf': 'pdf',
  'text/vcard': 'vcf',
};

function extensionFor(mimetype: string, filename: string): string {
  const fromName = path.extname(filename).slice(1).toLowerCase();
  if (/^[a-z0-9]{1,8}$/.test(fromName)) return fromName;
  return EXTENSIONS[mimetype.split(';')[0]?.trim() ?? ''] ?? 'bin';
}

export function mimetypeOf(file: string): string {
  const ext = path.extname(file).slice(1).toLowerCase();
  return Object.entries(EXTENSIONS).find(([, e]) => e === ext)?.[0] ?? 'application/octet-stream';
}

/** MEDIA_DIR (DATA_DIR/media unless set): in the cluster mode a volume every node shares. */
export function mediaRoot(ctx: AppContext): string {
  return ctx.config.mediaDir;
}

/** A new file's place in the store: a folder per month, a random name with the file's extension. */
async function newMediaPath(ctx: AppContext, options: { mimetype: string; filename: string }): Promise<{ relative: string; absolute: string }> {
  const month = new Date().toISOString().slice(0, 7);
  const relative = path.posix.join(month, `${randomBytes(12).toString('hex')}.${extensionFor(options.mimetype, options.filename)}`);
  const absolute = path.join(mediaRoot(ctx), relative);
  // Customers' files: readable by the server's user only.
  await fs.mkdir(path.dirname(absolute), { recursive: true, mode: 0o700 });
  return { relative, absolute };
}

/** Stores the bytes and returns the path relative to the media root. */
export async function saveMedia(ctx: AppContext, data: Buffer, options: { mimetype: string; filename: string }): Promise<string> {
  const { relative, absolute } = await newMediaPath(ctx, options);
  await fs.writeFile(absolute, data, { mode: 0o600 });
  return relative;
}

/**
 * Moves an uploaded file (a temporary file under the media folder, so on the same disk) into the
 * store without reading it, and returns the path relative to the media root.
 */
export async function adoptMedia(ctx: AppContext, file: string, options: { mimetype: string; filename: string }): Promise<string> {
  const { relative, absolute } = await newMediaPath(ctx, options);
  try {
    await fs.rename(file, absolute);
  } catch (error) {
    // MEDIA_DIR's `.uploads` on another mount than the month's folder: copied instead.
    if (!(typeof error === 'object' && error !== null && 'code' in error && error.code === 'EXDEV')) throw error;
    await fs.copyFile(file, absolute);
  }
  await fs.chmod(absolute, 0o600);
  return relative;
}

/** The absolute path of a stored file, refusing anything outside the media root. */
export function mediaFile(ctx: AppContext, relative: string): string | undefined {
  const root = mediaRoot(ctx);
  const absolute = path.resolve(root, relative);
  return absolute.startsWith(root + path.sep) ? absolute : undefined;
}

function signature(ctx: AppContext, messageId: number, expires: number): string {
  return createHmac('sha256', ctx.secrets.jwtSecret).update(`media:${messageId}:${expires}`).digest('base64url');
}

/**
 * A media address valid for MEDIA_URL_TTL_SECONDS, give or take MEDIA_URL_STEP_SECONDS. Given the
 * file's name, the address ends with it (`&name=photo.png`, not signed, not read): whaticket's chat
 * shows a picture only when its address ends in .jpg, .jpeg, .png or .gif, and offers a download
 * button otherwise.
 *
 * Its expiry is rounded down to the step, so a message presented again within the step (each of
 * its ticks, an edit) keeps the same address: the page neither downloads its picture again nor
 * redraws it, and the browser's cache and the proxy's serve it.
 */
export function signedMediaUrl(ctx: AppContext, messageId: number, nowMs = Date.now(), name?: string | null): string {
  const step = Math.floor(nowMs / 1000 / MEDIA_URL_STEP_SECONDS) * MEDIA_URL_STEP_SECONDS;
  return mediaUrlExpiring(ctx, messageId, step + MEDIA_URL_TTL_SECONDS, name);
}

/** The step by which media addresses' expiries are rounded (see signedMediaUrl). */
export const MEDIA_URL_STEP_SECONDS = 5 * 60;

/** A media address signed to expire at `expires` (seconds since the epoch). */
export function mediaUrlExpiring(ctx: AppContext, messageId: number, expires: number, name?: string | null): string {
  const tail = name ? `&name=${encodeURIComponent(name.slice(-MEDIA_NAME_IN_URL_MAX))}` : '';
  return `/api/media/${messageId}?expires=${expires}&signature=${signature(ctx, messageId, expires)}${tail}`;
}

/** The longest file name an address carries (its end: the extension is what matters). */
export const MEDIA_NAME_IN_URL_MAX = 100;

export function verifyMediaSignature(ctx: AppContext, messageId: number, expires: number, given: string): boolean {
  if (expires * 1000 < Date.now()) return false;
  const expected = Buffer.from(signature(ctx, messageId, expires));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
