/**
 * Multipart uploads streamed to disk: each file goes into a temporary file under the media
 * folder's `.uploads` as it arrives, never whole in memory, within the request's size cap and
 * the sender's upload budget per minute. The temporary files are removed once the handling ends,
 * whatever happened (sent, refused, cut short); a file the handler moved into the store is simply gone.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { AppError } from '../errors.js';
import type { RateCounter } from '../rate-counter.js';

/** The upload budget counts the bytes a user sent over this long. */
export const UPLOAD_BUDGET_WINDOW_MS = 60_000;
/** Temporary files older than this at start were left by a crash (a request never lasts that long). */
const STALE_UPLOAD_MS = 60 * 60_000;

export type UploadedFile = { fieldname: string; filename: string; mimetype: string; path: string; size: number };
export type Upload = { files: UploadedFile[]; fields: Map<string, string> };

export type UploadOptions = {
  /** The media folder: the temporary files go into its `.uploads`, on the same disk as the store. */
  mediaDir: string;
  maxFiles: number;
  maxRequestBytes: number;
  /** Whose budget the bytes count against, and how many bytes it holds per minute. */
  budget: { counter: RateCounter; key: string; bytesPerMinute: number };
  /** The route's own error for a body that cannot be read as the upload it expects. */
  invalid: (message: string) => AppError;
  /** The route's own error for more files than `maxFiles`. */
  tooManyFiles: () => AppError;
};

/** The server's limits (UPLOAD_* settings) for an upload by this user. */
export function uploadOptions(ctx: AppContext, userId: number, route: { maxFiles: number; invalid: UploadOptions['invalid']; tooManyFiles: UploadOptions['tooManyFiles'] }): UploadOptions {
  const { config } = ctx;
  return {
    mediaDir: config.mediaDir,
    maxRequestBytes: config.uploadMaxRequestBytes,
    budget: { counter: ctx.counters, key: `upload-bytes:user:${userId}`, bytesPerMinute: config.uploadBytesPerMinute },
    ...route,
  };
}

export function uploadsDir(mediaDir: string): string {
  return path.join(mediaDir, '.uploads');
}

/** Removes temporary files a crash left behind (only old ones: in a cluster, other nodes share the folder). */
export async function sweepStaleUploads(mediaDir: string): Promise<void> {
  const dir = uploadsDir(mediaDir);
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const file = path.join(dir, name);
    const stat = await fsp.stat(file).catch(() => undefined);
    if (stat && Date.now() - stat.mtimeMs > STALE_UPLOAD_MS) await fsp.rm(file, { force: true });
  }
}

function tooLarge(maxRequestBytes: number): AppError {
  return new AppError('ERR_UPLOAD_TOO_LARGE', { message: `At most ${Math.floor(maxRequestBytes / (1024 * 1024))} MB in one upload, and each file within its limit.` });
}

/** The plugin's own limit errors, by code: a file over its size, too many parts or fields. */
function limitError(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return typeof code === 'string' && ['FST_REQ_FILE_TOO_LARGE', 'FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT', 'FST_FILES_LIMIT'].includes(code) ? code : undefined;
}

/**
 * Reads the multipart request into temporary files and text fields, runs `use` with them, and
 * removes the temporary files afterwards. Refused before anything is read: a declared length
 * over the cap (413 ERR_UPLOAD_TOO_LARGE) or a sender past their budget (429
 * ERR_TOO_MANY_REQUESTS, with Retry-After). While reading: the same cap on what arrives.
 */
export async function withUpload<T>(req: FastifyRequest, reply: FastifyReply, options: UploadOptions, use: (upload: Upload) => Promise<T>): Promise<T> {
  if (!req.isMultipart()) throw options.invalid('The body is not multipart/form-data.');
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > options.maxRequestBytes) throw tooLarge(options.maxRequestBytes);
  // The declared length is counted at once (a request without one counts as it arrives).
  const reserved = Number.isFinite(declared) ? declared : 1;
  const { counter, key, bytesPerMinute } = options.budget;
  const count = await counter.add(key, reserved, UPLOAD_BUDGET_WINDOW_MS);
  let received = 0;
  const overBudget = () => {
    reply.header('retry-after', String(Math.max(1, Math.ceil(count.resetInMs / 1000))));
    return new AppError('ERR_TOO_MANY_REQUESTS', { message: 'Too much uploaded in the last minute. Please wait and try again.' });
  };
  if (count.total > bytesPerMinute) {
    await counter.add(key, -reserved, UPLOAD_BUDGET_WINDOW_MS);
    throw overBudget();
  }
  // What this request may still bring (a request without a declared length is stopped when it passes it).
  const allowance = bytesPerMinute - (count.total - reserved);
  const take = (bytes: number): AppError | undefined => {
    received += bytes;
    if (received > options.maxRequestBytes) return tooLarge(options.maxRequestBytes);
    if (received > allowance) return overBudget();
    return undefined;
  };

  const dir = uploadsDir(options.mediaDir);
  const files: UploadedFile[] = [];
  const fields = new Map<string, string>();
  try {
    await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
    try {
      for await (const part of req.parts()) {
        if (part.type === 'field') {
          const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
          const refused = take(Buffer.byteLength(value));
          if (refused) throw refused;
          fields.set(part.fieldname, value);
          continue;
        }
        if (files.length >= options.maxFiles) throw options.tooManyFiles();
        const file: UploadedFile = {
          fieldname: part.fieldname,
          filename: part.filename,
          mimetype: part.mimetype,
          path: path.join(dir, `${Date.now()}-${randomBytes(8).toString('hex')}.part`),
          size: 0,
        };
        // Listed before it is written, so that a half-written file is removed too.
        files.push(file);
        const counting = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            file.size += chunk.length;
            const refused = take(chunk.length);
            if (refused) done(refused);
            else done(null, chunk);
          },
        });
        await pipeline(part.file, counting, fs.createWriteStream(file.path, { mode: 0o600, flags: 'wx' }));
        if (part.file.truncated) throw tooLarge(options.maxRequestBytes);
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      const limit = limitError(error);
      if (limit === 'FST_FILES_LIMIT') throw options.tooManyFiles();
      if (limit) throw tooLarge(options.maxRequestBytes);
      throw options.invalid(`The upload could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
    // A request without a declared length counts what arrived.
    if (received > reserved) await counter.add(key, received - reserved, UPLOAD_BUDGET_WINDOW_MS);
    return await use({ files, fields });
  } finally {
    await Promise.all(files.map((file) => fsp.rm(file.path, { force: true })));
  }
}
