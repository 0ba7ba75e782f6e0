/**
 * Where the driver sends and which key names a message: the recent messages by id (quotes,
 * delete and read keys, Baileys' retry `getMessage`) and the people known only by LID digits.
 */
import type { WAMessage, WAMessageKey } from '@whiskeysockets/baileys';
import type { ChannelAuthStore } from '../connection-store.js';
import type { ChatAddress } from '../channel.js';
import { BoundedMap } from '../bounded-map.js';
import { chatJid, jidUser, personJid } from './jid.js';
import type { WASocketLike } from './whatsapp-socket.js';

/** Kept small: Baileys sessions are known to grow in memory (see the notes on issue #2090). */
export const RECENT_MESSAGES = 500;
const LID_ONLY_CACHE = 5_000;
/** Rows in channelAuth naming the numbers that are LID digits (no phone number known). */
const LID_ONLY_TYPE = 'zapdesk-lid-only';

export class WhatsappAddressing {
  readonly #auth: ChannelAuthStore;
  readonly #recent = new BoundedMap<string, WAMessage>(RECENT_MESSAGES);
  readonly #lidOnly = new BoundedMap<string, true>(LID_ONLY_CACHE);

  constructor(auth: ChannelAuthStore) {
    this.#auth = auth;
  }

  remember(id: string, message: WAMessage): void {
    this.#recent.set(id, message);
  }

  recent(id: string): WAMessage | undefined {
    return this.#recent.get(id);
  }

  async rememberLidOnly(numbers: string[]): Promise<void> {
    const fresh = numbers.filter((n) => !this.#lidOnly.has(n));
    if (fresh.length === 0) return;
    for (const n of fresh) this.#lidOnly.set(n, true);
    await this.#auth.set(fresh.map((n) => ({ type: LID_ONLY_TYPE, id: n, value: '1' })));
  }

  /** The session was unlinked: its LID knowledge went with its credentials. */
  forgetLids(): void {
    this.#lidOnly.clear();
  }

  /**
   * Where to send. A person known only by LID digits is written to at the LID, or at the phone
   * number if WhatsApp has told us it since.
   */
  async jidFor(sock: WASocketLike, chat: ChatAddress): Promise<string> {
    if (chat.kind === 'group') return chatJid(chat);
    const viaLid = this.#lidOnly.has(chat.number) || (await this.#auth.getOne(LID_ONLY_TYPE, chat.number)) !== undefined;
    if (!viaLid) return chatJid(chat);
    const lid = chatJid(chat, { viaLid: true });
    const pn = await sock.signalRepository.lidMapping.getPNForLID(lid).catch(() => null);
    const pnUser = pn ? jidUser(pn) : undefined;
    return pnUser ? personJid(pnUser) : lid;
  }

  async keyFor(sock: WASocketLike, chat: ChatAddress, id: string, fromMe: boolean): Promise<WAMessageKey> {
    const known = this.#recent.get(id)?.key;
    if (known) return known;
    return { remoteJid: await this.jidFor(sock, chat), id, fromMe };
  }
}
