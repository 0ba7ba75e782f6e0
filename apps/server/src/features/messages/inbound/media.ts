/** Step: a message's file, stored before the batch's transaction (never inside it). */
import type { InboundMessage } from '../../../channels/channel.js';
import type { AppContext } from '../../../core/context.js';
import { saveMedia } from '../media-store.js';

/** A message's stored file: where it is, its name and its size in bytes (all null without a file). */
export type StoredMedia = { mediaPath: string | null; mediaName: string | null; mediaSize: number | null };

/**
 * Stores a message's media when it can be downloaded; the message is kept without it otherwise,
 * still named, with the size the provider announced.
 */
export async function storeMedia(ctx: AppContext, whatsappId: number, message: InboundMessage): Promise<StoredMedia> {
  const media = message.media;
  if (!media) return { mediaPath: null, mediaName: null, mediaSize: null };
  try {
    const data = await media.load();
    return { mediaPath: await saveMedia(ctx, data, { mimetype: media.mimetype, filename: media.filename }), mediaName: media.filename, mediaSize: data.length };
  } catch (error) {
    // The message is kept without its file rather than lost.
    ctx.events.publish('channel.error', { whatsappId, error });
    return { mediaPath: null, mediaName: media.filename, mediaSize: media.size ?? null };
  }
}
