/**
 * A batch of inbound messages split by chat for writers that run side by side: every message of
 * one chat lands in the same group, in arrival order, so a chat's messages are still written one
 * after the other (a reply after what it quotes; one open ticket per contact). Chats are dealt
 * round the groups in the order they first appear.
 */
import type { InboundMessage } from '../../../channels/channel.js';

/** How many transactions one connection's batch is written in at most, side by side (PostgreSQL). */
export const INBOUND_WRITERS = 4;

function chatKey(message: InboundMessage): string {
  return message.chat.kind === 'group' ? `g:${message.chat.groupId}` : `p:${message.chat.number}`;
}

export function splitByChat<T extends { message: InboundMessage }>(items: readonly T[], groups = INBOUND_WRITERS): T[][] {
  const slotOf = new Map<string, number>();
  const out: T[][] = [];
  for (const item of items) {
    const key = chatKey(item.message);
    let slot = slotOf.get(key);
    if (slot === undefined) {
      slot = slotOf.size % groups;
      slotOf.set(key, slot);
    }
    (out[slot] ??= []).push(item);
  }
  return out;
}
