/**
 * A reaction reaching a connection: it lands on the message it reacts to, one per person (a new
 * one replaces theirs, an empty one takes it away). It is not a message: it never opens or
 * reopens a ticket, never counts as unread and leaves the ticket's list line as it is. A
 * reaction to a message the inbox does not hold (older than the inbox, or deleted) is dropped.
 */
import { REACTION_MAX_LENGTH } from '@zapdesk/shared/reactions';
import type { InboundReaction } from '../../channels/channel.js';
import type { AppContext } from '../../core/context.js';
import { nowIso } from '../../core/time.js';
import { publishMessageUpdate } from '../messages/messages.presenter.js';
import { findMessageByProviderId } from '../messages/messages.repository.js';
import { deleteReaction, OWN_PHONE, saveReaction } from './reactions.repository.js';

/**
 * The pipeline's reaction handler. Reactions are applied one after the other, in the order they
 * arrived: someone who changes their reaction and then takes it away ends with none.
 */
export function createReactionHandler(ctx: AppContext): (whatsappId: number, reaction: InboundReaction) => Promise<void> {
  let queue: Promise<void> = Promise.resolve();
  return (whatsappId, reaction) => {
    const run = queue.then(() => applyReaction(ctx, whatsappId, reaction));
    queue = run.catch(() => undefined);
    return run;
  };
}

export async function applyReaction(ctx: AppContext, whatsappId: number, reaction: InboundReaction): Promise<void> {
  const senderKey = reaction.fromMe ? OWN_PHONE : reaction.sender?.number;
  const emoji = reaction.emoji.trim();
  // Counted in code points, as the simulator's schema counts.
  if (!senderKey || [...emoji].length > REACTION_MAX_LENGTH) return;
  const message = await findMessageByProviderId(ctx.db, whatsappId, reaction.providerId);
  if (!message || message.isDeleted) return;
  if (emoji === '') {
    if (!(await deleteReaction(ctx.db, message.id, senderKey))) return;
  } else {
    const senderName = reaction.fromMe ? null : (reaction.sender?.name?.trim() ?? null) || null;
    await saveReaction(ctx.db, { messageId: message.id, senderKey, senderName, fromMe: reaction.fromMe, emoji }, nowIso());
  }
  await publishMessageUpdate(ctx, message.id);
}
