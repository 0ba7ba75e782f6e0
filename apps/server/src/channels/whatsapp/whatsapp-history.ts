/**
 * On-demand history: asks the phone for a chat's messages before (or since) a stored one and
 * waits for its answer, which arrives later as a messaging-history.set of type ON_DEMAND.
 */
import { proto, type BaileysEventMap, type WAMessage } from '@whiskeysockets/baileys';
import { AppError } from '../../core/errors.js';
import type { HistoryRequest, InboundMessage } from '../channel.js';
import { chatJid } from './jid.js';
import type { WhatsappAddressing } from './whatsapp-addressing.js';
import type { BaileysLogger } from './whatsapp-logger.js';
import type { WASocketLike } from './whatsapp-socket.js';

/** WhatsApp answers at most this many messages per request (Baileys README). */
export const HISTORY_PAGE_MAX = 50;
/** How long to wait for the phone's answer. */
export const HISTORY_TIMEOUT_MS = 30_000;

type Waiter = { jids: Set<string>; resolve: (messages: WAMessage[]) => void };

export type WhatsappHistoryOptions = {
  logger: BaileysLogger;
  addressing: WhatsappAddressing;
  /** The driver's reading of a Baileys message; undefined for what the product does not keep. */
  toInbound: (sock: WASocketLike, message: WAMessage) => Promise<InboundMessage | undefined>;
  timeoutMs?: number | undefined;
};

export class WhatsappHistory {
  readonly #options: WhatsappHistoryOptions;
  readonly #waiters = new Set<Waiter>();

  constructor(options: WhatsappHistoryOptions) {
    this.#options = options;
  }

  /**
   * The messages before `request.before`, or since `request.after` (Baileys'
   * fetchMessageHistory, at most HISTORY_PAGE_MAX). No anchor, a refused request or no answer in
   * time: ERR_FETCH_WAPP_MSG.
   */
  async fetch(sock: WASocketLike, request: HistoryRequest): Promise<InboundMessage[]> {
    const anchor = request.before ?? request.after;
    if (!anchor || !sock.fetchMessageHistory) throw new AppError('ERR_FETCH_WAPP_MSG', { message: 'WhatsApp sends older messages only relative to a message already stored for this chat.' });
    const key = await this.#options.addressing.keyFor(sock, request.chat, anchor.providerId, anchor.fromMe);
    // The phone answers with the messages before the time given: the anchor's own time for older
    // messages; now, for the ones since the anchor (those before it are dropped below).
    const until = request.before ? request.before.timestamp.getTime() : Date.now();
    const jids = new Set([key.remoteJid, chatJid(request.chat)].filter((j): j is string => Boolean(j)));
    let waiter: Waiter | undefined;
    let timer: NodeJS.Timeout | undefined;
    const answer = new Promise<WAMessage[] | undefined>((resolve) => {
      waiter = { jids, resolve };
      this.#waiters.add(waiter);
      timer = setTimeout(() => resolve(undefined), this.#options.timeoutMs ?? HISTORY_TIMEOUT_MS);
      timer.unref();
    });
    let messages: WAMessage[] | undefined;
    try {
      // The request names its time in milliseconds (oldestMsgTimestampMs).
      await sock.fetchMessageHistory(Math.min(request.limit, HISTORY_PAGE_MAX), key, until);
      messages = await answer;
    } catch (error) {
      this.#options.logger.warn({ err: error }, 'on-demand history request failed');
    } finally {
      clearTimeout(timer);
      if (waiter) this.#waiters.delete(waiter);
    }
    if (!messages) throw new AppError('ERR_FETCH_WAPP_MSG');
    const result: InboundMessage[] = [];
    for (const message of messages) {
      const inbound = await this.#options.toInbound(sock, message).catch(() => undefined);
      if (!inbound || inbound.providerId === anchor.providerId) continue;
      const time = inbound.timestamp.getTime();
      if (request.before ? time <= request.before.timestamp.getTime() : time >= anchor.timestamp.getTime()) result.push(inbound);
    }
    return result.sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime()).slice(-request.limit);
  }

  /** An ON_DEMAND history answer goes to the requests waiting for its chat. */
  onHistorySet(set: BaileysEventMap['messaging-history.set']): void {
    if (set.syncType !== proto.HistorySync.HistorySyncType.ON_DEMAND) return;
    for (const waiter of this.#waiters) {
      const mine = set.messages.filter((m) => [m.key.remoteJid, m.key.remoteJidAlt].some((jid) => jid && waiter.jids.has(jid)));
      // An empty answer for a chat still ends its wait: there is nothing older.
      if (mine.length > 0 || set.messages.length === 0 || set.chats.some((c) => typeof c.id === 'string' && waiter.jids.has(c.id))) {
        this.#waiters.delete(waiter);
        waiter.resolve(mine);
      }
    }
  }
}
