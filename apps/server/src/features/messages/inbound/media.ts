/** Step: a message's file, stored before the batch's transaction (never inside it). */
import type { InboundMessage } from '../../../channels/channel.js';
import type { AppContext } from '../../../core/context.js';
import { saveMedia } from '../media-store.js';

/** Stores a message's media when it can be downloaded; the message is kept without it otherwise. */
export async function storeMedia(ctx: AppContext, whatsappId: number, message: InboundMessage): Promise<string | null> {
  if (!message.media) return null;
  try {
    return await saveMedia(ctx, await message.media.load(), { mimetype: message.media.mimetype, filename: message.media.filename });
  } catch (error) {
    // The message is kept without its file rather than lost.
    ctx.events.publish('channel.error', { whatsappId, error });
    return null;
  }
}
