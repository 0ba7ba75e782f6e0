/**
 * Where the contact's SMS and calls go among the chat's messages, by time: each is shown just
 * before the first message that came after it, and those after the newest message below it.
 * Sends older than the oldest loaded message wait until the chat's beginning is loaded.
 */
import type { TMessage } from '@zapdesk/shared/messaging';
import type { TPhoneSend } from '@zapdesk/shared/vonage';
import { phoneSendTime } from '../phone/phoneSends';

export type PhonePlacement = { before: Map<number, TPhoneSend[]>; after: TPhoneSend[] };

export function placePhoneSends(messages: TMessage[], sends: TPhoneSend[], beginningLoaded: boolean): PhonePlacement {
  const placement: PhonePlacement = { before: new Map(), after: [] };
  const oldest = messages[0];
  if (!oldest) return placement;
  const byTime = [...sends].sort((a, b) => phoneSendTime(a).localeCompare(phoneSendTime(b)));
  for (const send of byTime) {
    const at = phoneSendTime(send);
    if (at < oldest.createdAt && !beginningLoaded) continue;
    const next = messages.find((m) => m.createdAt > at);
    if (!next) placement.after.push(send);
    else placement.before.set(next.id, [...(placement.before.get(next.id) ?? []), send]);
  }
  return placement;
}
