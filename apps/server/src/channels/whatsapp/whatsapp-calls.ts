/**
 * Incoming WhatsApp calls. Baileys reports every step of a call (offer, ringing, accept, reject,
 * timeout, terminate) and may offer the same call again: only the first offer of each call is
 * handed on. A call is rejected at the address its offer came from, which may be a LID.
 */
import type { WACallEvent } from '@whiskeysockets/baileys';
import type { ChannelEmitter } from '../channel-events.js';
import { BoundedMap } from '../bounded-map.js';
import { resolvePerson } from './jid.js';
import type { WhatsappAddressing } from './whatsapp-addressing.js';
import type { WASocketLike } from './whatsapp-socket.js';

const OFFERS = 1_000;

export class WhatsappCalls {
  readonly #events: ChannelEmitter;
  readonly #addressing: WhatsappAddressing;
  /** Call id -> the caller's JID as the offer named it: rejectCall must name the same. */
  readonly #offers = new BoundedMap<string, string>(OFFERS);

  constructor(options: { events: ChannelEmitter; addressing: WhatsappAddressing }) {
    this.#events = options.events;
    this.#addressing = options.addressing;
  }

  async onCalls(sock: WASocketLike, calls: WACallEvent[]): Promise<void> {
    for (const call of calls) {
      if (call.status !== 'offer' || !call.id || !call.from || this.#offers.has(call.id)) continue;
      const caller = await resolvePerson(call.from, call.callerPn, (lid) => sock.signalRepository.lidMapping.getPNForLID(lid));
      if (!caller) continue;
      this.#offers.set(call.id, call.from);
      // A caller known only by LID is written to at the LID (the call notice, say).
      if (caller.viaLid) await this.#addressing.rememberLidOnly([caller.number]);
      this.#events.emit('call', { callId: call.id, from: caller.number, isGroup: Boolean(call.isGroup), isVideo: Boolean(call.isVideo), timestamp: call.date });
    }
  }

  async reject(sock: WASocketLike, callId: string, from: string): Promise<void> {
    await sock.rejectCall(callId, this.#offers.get(callId) ?? (await this.#addressing.jidFor(sock, { kind: 'person', number: from })));
  }
}
