import type { InboundReaction } from '../channel.js';
import type { IgMessagingEvent } from './webhook-body.js';

/**
 * A webhook event's reaction as the contract's: 'react' with its emoji, or 'unreact' (the emoji
 * taken away). Undefined for an event that carries no reaction, or one without its emoji.
 */
export function reactionOfEvent(event: IgMessagingEvent, accountId: string): InboundReaction | undefined {
  const { mid, action, emoji } = event.reaction ?? {};
  const person = event.sender?.id;
  if (!mid || !person || (action !== 'unreact' && !emoji)) return undefined;
  const fromMe = person === accountId;
  return { providerId: mid, ...(fromMe ? {} : { sender: { number: person } }), emoji: action === 'unreact' ? '' : (emoji ?? ''), fromMe };
}
