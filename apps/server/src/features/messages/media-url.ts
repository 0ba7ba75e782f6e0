/**
 * A chat message's file given by address (`POST /messages/{ticketId}` with `mediaUrl`): fetched
 * through the SSRF guard (core/net/fetch-url.ts: private and metadata addresses refused unless
 * ALLOW_PRIVATE_MEDIA_URLS, at most 16 MB, a time limit), typed from its bytes, then sent as a
 * file message the same way an upload is (stored first, then sent). A link that cannot be
 * fetched is refused with its ERR_MEDIA_URL_* code: nothing is stored and nothing is sent.
 */
import { fileTypeFromBuffer } from 'file-type';
import { CAMPAIGN_LIMITS } from '@zapdesk/shared/campaigns';
import { mediaTypeOfMime } from '@zapdesk/shared/domain';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { fetchUrl } from '../../core/net/fetch-url.js';
import type { ReplyContent } from './message-file.js';

export const MESSAGE_MEDIA_FETCH_TIMEOUT_MS = 20_000;

/** The file at `url` as a file message's content, with `caption` when it is not blank. */
export async function mediaFromUrl(ctx: AppContext, url: string, caption: string): Promise<ReplyContent> {
  const file = await fetchUrl(url, { allowPrivate: ctx.config.allowPrivateMediaUrls, maxBytes: CAMPAIGN_LIMITS.maxMediaBytes, timeoutMs: MESSAGE_MEDIA_FETCH_TIMEOUT_MS });
  if (file.data.length === 0) throw new AppError('ERR_MEDIA_URL_FAILED', { message: 'The address answered with an empty file.' });
  // The type comes from the bytes, not from the name or what the other server claims.
  const mimetype = (await fileTypeFromBuffer(file.data))?.mime ?? 'application/octet-stream';
  return { kind: 'media', mediaType: mediaTypeOfMime(mimetype), data: file.data, mimetype, filename: file.filename, ...(caption.trim() ? { caption } : {}) };
}
