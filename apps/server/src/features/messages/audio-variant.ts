/**
 * The copy of an audio message a browser without Ogg Opus can play (Safari before 18.4): AAC in
 * MP4 (.m4a), made by ffmpeg on the first request for it (`/api/media/{id}?…&format=m4a`) and
 * kept beside the stored file (`<file>.m4a`, in the media folder every node of a cluster shares),
 * so every later request, on any node, is served from disk. Audio that is already MP4 or MP3
 * plays everywhere and is served as it is. Without ffmpeg the address answers 503
 * ERR_AUDIO_CONVERTER_MISSING, and the chat's player offers the original file to download.
 */
import path from 'node:path';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { toM4a } from '../../core/media/ffmpeg.js';

/** Types every browser plays: no copy needed. */
const PLAYS_EVERYWHERE = new Set(['audio/mp4', 'audio/mpeg']);

export type ServedFile = { file: string; name: string; type: string };

export async function m4aVariant(ctx: AppContext, original: ServedFile): Promise<ServedFile> {
  if (PLAYS_EVERYWHERE.has(original.type)) return original;
  if (!original.type.startsWith('audio/')) throw new AppError('ERR_VALIDATION', { message: 'Only audio has an m4a copy.', fields: { format: 'INVALID' } });
  const target = `${original.file}.m4a`;
  await toM4a({ ffmpegPath: ctx.config.ffmpegPath, input: original.file, target });
  const base = path.basename(original.name, path.extname(original.name)) || 'audio';
  return { file: target, name: `${base}.m4a`, type: 'audio/mp4' };
}
