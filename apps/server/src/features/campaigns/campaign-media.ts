/**
 * A campaign's file, prepared once when the campaign is created: fetched from a URL (through
 * the SSRF guard) or read from LOCAL_MEDIA_DIR (never outside it), typed from its bytes, and
 * stored in the media store so every recipient gets the same file.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { CAMPAIGN_LIMITS } from '@zapdesk/shared/campaigns';
import { mediaTypeOfMime, type MediaType } from '@zapdesk/shared/domain';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { fetchUrl } from '../../core/net/fetch-url.js';
import { saveMedia } from '../messages/media-store.js';
import { webmOpusToOgg } from '../messages/webm-to-ogg.js';

export const MEDIA_FETCH_TIMEOUT_MS = 20_000;

export type PreparedMedia = { mediaPath: string; mimetype: string; name: string; mediaType: MediaType };

/** Ogg Opus, from the bytes: an Ogg page whose first packet is the Opus identification header. */
export function isOggOpus(data: Buffer): boolean {
  if (data.length < 47 || data.subarray(0, 4).toString('latin1') !== 'OggS') return false;
  const headerLength = 27 + (data[26] ?? 0);
  return data.subarray(headerLength, headerLength + 8).toString('latin1') === 'OpusHead';
}

async function typed(data: Buffer, name: string, voice: boolean): Promise<Omit<PreparedMedia, 'mediaPath'>> {
  if (voice) {
    if (!isOggOpus(data)) throw new AppError('ERR_VOICE_NOT_OPUS');
    return { mimetype: 'audio/ogg; codecs=opus', name, mediaType: 'audio' };
  }
  // The type comes from the bytes, not from the name or what a server claims.
  const detected = await fileTypeFromBuffer(data);
  const mimetype = detected?.mime ?? 'application/octet-stream';
  return { mimetype, name, mediaType: mediaTypeOfMime(mimetype) };
}

async function store(ctx: AppContext, data: Buffer, media: Omit<PreparedMedia, 'mediaPath'>): Promise<PreparedMedia> {
  const mediaPath = await saveMedia(ctx, data, { mimetype: media.mimetype.split(';')[0] ?? media.mimetype, filename: media.name });
  return { ...media, mediaPath };
}

export async function prepareFromUrl(ctx: AppContext, url: string, options: { voice: boolean }): Promise<PreparedMedia> {
  const file = await fetchUrl(url, { allowPrivate: ctx.config.allowPrivateMediaUrls, maxBytes: CAMPAIGN_LIMITS.maxMediaBytes, timeoutMs: MEDIA_FETCH_TIMEOUT_MS });
  if (file.data.length === 0) throw new AppError('ERR_MEDIA_URL_FAILED', { message: 'The address answered with an empty file.' });
  return store(ctx, file.data, await typed(file.data, file.filename, options.voice));
}

/**
 * The real path of a file inside LOCAL_MEDIA_DIR. Refused: absolute paths, `..`, and links that
 * lead out of it (the check is on the resolved path, so a symlink cannot escape).
 */
export async function resolveLocalPath(ctx: AppContext, typed: string): Promise<string> {
  const root = await fs.realpath(ctx.config.localMediaDir).catch(() => undefined);
  if (!root) throw new AppError('ERR_MEDIA_PATH_NOT_FOUND', { message: 'The local media folder does not exist on the server.' });
  const relative = typed.replace(/\\/g, '/');
  if (relative.split('/').includes('..')) throw new AppError('ERR_MEDIA_PATH_FORBIDDEN');
  const candidate = path.isAbsolute(relative) ? path.resolve(relative) : path.resolve(root, relative);
  const inside = (p: string) => p === root || p.startsWith(root + path.sep);
  if (!inside(candidate)) throw new AppError('ERR_MEDIA_PATH_FORBIDDEN');
  const real = await fs.realpath(candidate).catch(() => undefined);
  if (!real) throw new AppError('ERR_MEDIA_PATH_NOT_FOUND');
  if (!inside(real)) throw new AppError('ERR_MEDIA_PATH_FORBIDDEN');
  const stat = await fs.stat(real);
  if (!stat.isFile()) throw new AppError('ERR_MEDIA_PATH_NOT_FOUND');
  if (stat.size > CAMPAIGN_LIMITS.maxMediaBytes) throw new AppError('ERR_MEDIA_TOO_LARGE');
  return real;
}

export async function prepareFromLocalPath(ctx: AppContext, typedPath: string, options: { voice: boolean }): Promise<PreparedMedia> {
  const file = await resolveLocalPath(ctx, typedPath);
  const data = await fs.readFile(file);
  return store(ctx, data, await typed(data, path.basename(file), options.voice));
}

/** Where recordings made in the browser are kept, inside LOCAL_MEDIA_DIR: they can be sent again. */
export const RECORDINGS_FOLDER = 'recordings';

/**
 * A voice note recorded in the browser: WebM (Chromium) is rewrapped as Ogg (no re-encoding),
 * Ogg Opus is kept; anything else is refused. Returns its path inside LOCAL_MEDIA_DIR.
 */
export async function saveRecording(ctx: AppContext, file: { data: Buffer; mimetype: string }): Promise<string> {
  const ogg = file.mimetype.startsWith('audio/webm') || file.mimetype.startsWith('video/webm') ? webmOpusToOgg(file.data) : file.data;
  if (!ogg || !isOggOpus(ogg)) throw new AppError('ERR_VOICE_NOT_OPUS');
  if (ogg.length > CAMPAIGN_LIMITS.maxMediaBytes) throw new AppError('ERR_MEDIA_TOO_LARGE');
  const folder = path.join(ctx.config.localMediaDir, RECORDINGS_FOLDER);
  await fs.mkdir(folder, { recursive: true, mode: 0o700 });
  const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.ogg`;
  await fs.writeFile(path.join(folder, name), ogg, { mode: 0o600, flag: 'wx' });
  return `${RECORDINGS_FOLDER}/${name}`;
}
