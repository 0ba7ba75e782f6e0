/**
 * Audio conversion with ffmpeg, run safely: spawned without a shell (the paths are arguments,
 * never parsed), killed past a time limit, at most FFMPEG_CONCURRENCY at a time in this process
 * (the others wait their turn), reading nothing from stdin. The output is written to a temporary
 * file beside the target and renamed into place only once ffmpeg succeeded: a crash, a kill or
 * a second node converting the same file at once never leaves a half-written target (both
 * write their own temporary file; the renames are atomic and either result is whole).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../errors.js';

/** Conversions at once in one server process: ffmpeg takes a core while it runs. */
export const FFMPEG_CONCURRENCY = 2;
/** A voice note converts in well under a second; a long recording in a few. */
export const FFMPEG_TIMEOUT_MS = 60_000;

let running = 0;
const waiting: (() => void)[] = [];

async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= FFMPEG_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    // The slot passes straight to the next waiter; `running` only drops when nobody waits.
    if (next) next();
    else running -= 1;
  }
}

function run(ffmpegPath: string, args: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath, args, { shell: false, stdio: ['ignore', 'ignore', 'pipe'], windowsHide: true });
    // Drained, not kept: its lines name the media folder's paths.
    child.stderr.resume();
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const missing = error.code === 'ENOENT' || error.code === 'EACCES';
      // The answer names no path: whoever holds a media address reads it.
      reject(
        new AppError(missing ? 'ERR_AUDIO_CONVERTER_MISSING' : 'ERR_AUDIO_CONVERSION_FAILED', {
          message: missing ? 'ffmpeg is not installed on the server (see FFMPEG_PATH).' : 'ffmpeg could not be started.',
        }),
      );
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve();
      const why = signal ? `ffmpeg was stopped after ${timeoutMs} ms.` : 'ffmpeg could not read this file.';
      reject(new AppError('ERR_AUDIO_CONVERSION_FAILED', { message: why }));
    });
  });
}

let runs = 0;
/** Spawns of ffmpeg by this process since it started: a second request for a cached file adds none. */
export function ffmpegRunCount(): number {
  return runs;
}

const inFlight = new Map<string, Promise<void>>();

/**
 * Converts `input` to AAC in an MP4 (.m4a) container at `target`, unless `target` exists. The
 * same target asked for twice at once in this process is converted once.
 */
export async function toM4a(options: { ffmpegPath: string; input: string; target: string; timeoutMs?: number }): Promise<void> {
  const { target } = options;
  if (await exists(target)) return;
  const pending = inFlight.get(target);
  if (pending) return pending;
  const work = slot(async () => {
    if (await exists(target)) return;
    const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
    runs += 1;
    try {
      await run(
        options.ffmpegPath,
        // 'ipod' is ffmpeg's .m4a muxer (brand M4A); faststart puts the index first, so playback starts before the end arrives.
        ['-nostdin', '-hide_banner', '-loglevel', 'error', '-i', options.input, '-vn', '-map_metadata', '-1', '-c:a', 'aac', '-b:a', '64k', '-movflags', '+faststart', '-f', 'ipod', '-y', temp],
        options.timeoutMs ?? FFMPEG_TIMEOUT_MS,
      );
      await fs.chmod(temp, 0o600);
      await fs.rename(temp, target);
    } finally {
      await fs.rm(temp, { force: true });
    }
  }).finally(() => inFlight.delete(target));
  inFlight.set(target, work);
  return work;
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    (s) => s.isFile() && s.size > 0,
    () => false,
  );
}
