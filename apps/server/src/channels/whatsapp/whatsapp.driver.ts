/**
 * The WhatsApp channel through Baileys (a linked device of the customer's phone). Turns
 * Baileys' socket events into the channel contract's events and the contract's calls into
 * socket calls; knows nothing of tickets or contacts. A Baileys socket is single-use: every
 * reconnect makes a new one on the same database-backed auth state.
 */
import type { ConnectionStatus } from '@zapdesk/shared/domain';
import makeWASocket, {
  DisconnectReason,
  proto,
  downloadMediaMessage,
  generateMessageIDV2,
  isJidGroup,
  normalizeMessageContent,
  type AnyMessageContent,
  type BaileysEventMap,
  type ConnectionState,
  type Contact,
  type GroupMetadata,
  type MessageUserReceiptUpdate,
  type UserFacingSocketConfig,
  type WAMessage,
  type WAMessageKey,
  type WAMessageUpdate,
  type WASocket,
} from '@whiskeysockets/baileys';
import { AppError } from '../../core/errors.js';
import type { ChannelAuthStore } from '../connection-store.js';
import type { ChannelDriver, ChannelEvents, ChatAddress, HistoryRequest, InboundMessage, OutboundContent, SendResult } from '../channel.js';
import { ChannelEmitter } from '../channel-events.js';
import { BoundedMap } from './bounded-map.js';
import { chatJid, isIgnoredJid, jidUser, personJid, resolveKey, resolvePerson } from './jid.js';
import { loadWhatsappAuthState, type WhatsappAuthState } from './whatsapp-auth-state.js';
import { silentBaileysLogger, type BaileysLogger } from './whatsapp-logger.js';
import { ackOfReceipt, ackOfStatus, editedTextOf, isRevokeUpdate, readContent, revokedIdOf, timestampOf } from './whatsapp-message.js';

/** The part of Baileys' socket the driver uses: tests hand in a fake with this shape. */
export type WASocketLike = Pick<
  WASocket,
  'sendMessage' | 'readMessages' | 'logout' | 'end' | 'onWhatsApp' | 'requestPairingCode' | 'profilePictureUrl' | 'groupMetadata' | 'updateMediaMessage' | 'user'
> &
  Partial<Pick<WASocket, 'fetchMessageHistory'>> & {
    ev: Pick<WASocket['ev'], 'on'>;
    signalRepository: { lidMapping: Pick<WASocket['signalRepository']['lidMapping'], 'getPNForLID'> };
  };

export type MediaDownloader = (message: WAMessage, context: { reuploadRequest: (message: WAMessage) => Promise<WAMessage>; logger: BaileysLogger }) => Promise<Buffer>;

export type WhatsappDriverOptions = {
  whatsappId: number;
  auth: ChannelAuthStore;
  logger?: BaileysLogger;
  /** Builds the socket; Baileys' makeWASocket unless a test hands in a fake. */
  makeSocket?: (config: UserFacingSocketConfig) => WASocketLike;
  /** Reads a media message's bytes; Baileys' downloadMediaMessage unless a test hands in a fake. */
  downloadMedia?: MediaDownloader;
  /** How long fetchHistory waits for the phone's answer; HISTORY_TIMEOUT_MS unless a test shortens it. */
  historyTimeoutMs?: number;
};

/** Reconnect back-off after an unexpected close: 1 s, 2 s, 4 s ... 60 s, then give up. */
export const RECONNECT_BASE_MS = 1_000;
export const RECONNECT_MAX_MS = 60_000;
export const MAX_RECONNECT_ATTEMPTS = 15;
/** Baileys ends a socket with 408 once its QR codes run out (about 2.5 min); this many sockets, then TIMEOUT. */
export const MAX_QR_ROUNDS = 3;

/** Kept small: Baileys sessions are known to grow in memory (see the notes on issue #2090). */
const RECENT_MESSAGES = 500;
const SEEN_IDS = 5_000;
const GROUP_CACHE_SIZE = 1_000;
/** A group whose metadata could not be read is asked again after this long, not on every message. */
const GROUP_RETRY_MS = 10 * 60_000;
/** On-demand history: WhatsApp answers at most this many messages per request (Baileys README). */
export const HISTORY_PAGE_MAX = 50;
/** How long to wait for the phone's answer (a messaging-history.set of type ON_DEMAND). */
export const HISTORY_TIMEOUT_MS = 30_000;
/** Rows in channelAuth naming the numbers that are LID digits (no phone number known). */
const LID_ONLY_TYPE = 'zapdesk-lid-only';

export function reconnectDelayMs(attempt: number): number {
  return Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.max(0, attempt - 1));
}

function statusCodeOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('output' in error)) return undefined;
  const output = error.output;
  if (typeof output !== 'object' || output === null || !('statusCode' in output)) return undefined;
  return typeof output.statusCode === 'number' ? output.statusCode : undefined;
}

const defaultDownload: MediaDownloader = (message, context) => downloadMediaMessage(message, 'buffer', {}, context);

export class WhatsappDriver implements ChannelDriver {
  readonly #events = new ChannelEmitter();
  readonly #options: WhatsappDriverOptions;
  readonly #logger: BaileysLogger;
  readonly #makeSocket: (config: UserFacingSocketConfig) => WASocketLike;
  readonly #download: MediaDownloader;

  #auth: WhatsappAuthState | undefined;
  #sock: WASocketLike | undefined;
  #open = false;
  #stopped = true;
  #status: ConnectionStatus | undefined;
  #qrShown = false;
  #qrRounds = 0;
  #attempts = 0;
  #reconnectTimer: NodeJS.Timeout | undefined;
  /** Message events are handled one after the other, in the order Baileys emitted them. */
  #queue: Promise<void> = Promise.resolve();
  /** Connection updates, in order too, but never behind a slow message. */
  #lifecycle: Promise<void> = Promise.resolve();

  /** Recent messages by id: quotes, delete/read keys and Baileys' retry `getMessage`. */
  readonly #recent = new BoundedMap<string, WAMessage>(RECENT_MESSAGES);
  readonly #seen = new BoundedMap<string, true>(SEEN_IDS);
  readonly #revoked = new BoundedMap<string, true>(SEEN_IDS);
  /** Ids of messages sent through send(): their echo is not handed on, the sender stores them. */
  readonly #ownSends = new BoundedMap<string, true>(RECENT_MESSAGES);
  readonly #lidOnly = new BoundedMap<string, true>(SEEN_IDS);
  readonly #groups = new BoundedMap<string, { metadata: GroupMetadata } | { failedAt: number }>(GROUP_CACHE_SIZE);
  readonly #groupFetches = new Map<string, Promise<void>>();
  /** Pending on-demand history requests, each waiting for its chat's answer. */
  readonly #historyWaiters = new Set<{ jids: Set<string>; resolve: (messages: WAMessage[]) => void }>();

  constructor(options: WhatsappDriverOptions) {
    this.#options = options;
    this.#logger = options.logger ?? silentBaileysLogger();
    this.#makeSocket = options.makeSocket ?? ((config) => makeWASocket(config));
    this.#download = options.downloadMedia ?? defaultDownload;
  }

  on<K extends keyof ChannelEvents>(event: K, listener: ChannelEvents[K]): void {
    this.#events.on(event, listener);
  }

  get connected(): boolean {
    return this.#open;
  }

  async start(): Promise<void> {
    const previous = this.#detach();
    if (previous) await previous.end(undefined).catch((error: unknown) => this.#logger.warn({ err: error }, 'ending the socket failed'));
    this.#cancelReconnect();
    this.#stopped = false;
    this.#attempts = 0;
    this.#qrRounds = 0;
    this.#setStatus('OPENING');
    this.#auth ??= await loadWhatsappAuthState(this.#options.auth, this.#logger);
    if (this.#stopped) return;
    this.#openSocket();
  }

  /** Ends the live socket; the credentials stay, so the next start() resumes the session. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#cancelReconnect();
    const sock = this.#detach();
    if (sock) await sock.end(undefined).catch((error: unknown) => this.#logger.warn({ err: error }, 'ending the socket failed'));
  }

  async logout(): Promise<void> {
    this.#stopped = true;
    this.#cancelReconnect();
    const wasOpen = this.#open;
    const sock = this.#detach();
    if (sock && wasOpen) await sock.logout().catch((error: unknown) => this.#logger.warn({ err: error }, 'unlinking the device failed'));
    else if (sock) await sock.end(undefined).catch((error: unknown) => this.#logger.warn({ err: error }, 'ending the socket failed'));
    await this.#forgetSession();
    this.#setStatus('DISCONNECTED', { loggedOut: true });
  }

  async requestPairingCode(phoneNumber: string): Promise<string> {
    const sock = this.#sock;
    if (!sock || this.#open) throw new AppError('ERR_WAPP_NOT_INITIALIZED', { message: 'A pairing code can only be asked for while the connection waits to be linked.' });
    const digits = phoneNumber.replace(/\D/g, '');
    personJid(digits); // validates the number
    let code: string;
    try {
      code = await sock.requestPairingCode(digits);
    } catch (error) {
      this.#logger.warn({ err: error }, 'pairing code request failed');
      throw new AppError('ERR_WAPP_NOT_INITIALIZED', { message: 'WhatsApp did not give a pairing code. Try again, or scan the QR code.' });
    }
    this.#events.emit('pairingCode', code);
    return code;
  }

  newMessageId(): string {
    return generateMessageIDV2(this.#sock?.user?.id);
  }

  async send(to: ChatAddress, content: OutboundContent, options: { providerId: string; quotedProviderId?: string | undefined }): Promise<SendResult> {
    const sock = this.#requireOpen();
    const jid = await this.#jidFor(sock, to);
    const quoted = options.quotedProviderId ? this.#recent.get(options.quotedProviderId) : undefined;
    // Our own id, known before Baileys echoes the message back through messages.upsert. A send
    // repeated after a crash goes out under the same id, which WhatsApp keeps as one message.
    const messageId = options.providerId;
    this.#ownSends.set(messageId, true);
    let sent: WAMessage | undefined;
    try {
      sent = await sock.sendMessage(jid, outboundMessage(content), { messageId, ...(quoted ? { quoted } : {}) });
    } catch (error) {
      this.#logger.warn({ err: error, jid }, 'sending failed');
      throw new AppError('ERR_SENDING_WAPP_MSG');
    }
    const providerId = sent?.key.id;
    if (!sent || !providerId) throw new AppError('ERR_SENDING_WAPP_MSG');
    this.#ownSends.set(providerId, true);
    this.#recent.set(providerId, sent);
    return { providerId, timestamp: timestampOf(sent) };
  }

  async deleteForEveryone(chat: ChatAddress, providerId: string, fromMe: boolean): Promise<void> {
    const sock = this.#requireOpen();
    const key = await this.#keyFor(sock, chat, providerId, fromMe);
    try {
      await sock.sendMessage(key.remoteJid ?? (await this.#jidFor(sock, chat)), { delete: key });
    } catch (error) {
      this.#logger.warn({ err: error, id: providerId }, 'delete for everyone failed');
      throw new AppError('ERR_DELETE_WAPP_MSG');
    }
  }

  async markRead(chat: ChatAddress, providerIds: string[]): Promise<void> {
    const sock = this.#sock;
    if (!sock || !this.#open || providerIds.length === 0) return;
    const keys = await Promise.all(providerIds.map((id) => this.#keyFor(sock, chat, id, false)));
    await sock.readMessages(keys);
  }

  async checkNumber(number: string): Promise<string | undefined> {
    const sock = this.#requireOpen();
    let jid: string;
    try {
      jid = personJid(number);
    } catch {
      return undefined;
    }
    let results: { jid: string; exists: boolean }[] | undefined;
    try {
      results = await sock.onWhatsApp(jid);
    } catch (error) {
      this.#logger.warn({ err: error }, 'number check failed');
      throw new AppError('ERR_WAPP_CHECK_CONTACT');
    }
    const found = results?.find((r) => r.exists);
    return found ? jidUser(found.jid) : undefined;
  }

  async profilePictureUrl(chat: ChatAddress): Promise<string | undefined> {
    const sock = this.#sock;
    if (!sock || !this.#open) return undefined;
    try {
      return (await sock.profilePictureUrl(await this.#jidFor(sock, chat), 'image')) || undefined;
    } catch {
      return undefined; // no picture, or hidden by the contact's privacy settings
    }
  }

  /**
   * Asks the phone for the messages before `request.before`, or since `request.after` (Baileys'
   * fetchMessageHistory, at most HISTORY_PAGE_MAX); they come back later as a
   * messaging-history.set of type ON_DEMAND for that chat. No anchor, a refused request or no
   * answer in time: ERR_FETCH_WAPP_MSG.
   */
  async fetchHistory(request: HistoryRequest): Promise<InboundMessage[]> {
    const sock = this.#requireOpen();
    const anchor = request.before ?? request.after;
    if (!anchor || !sock.fetchMessageHistory) throw new AppError('ERR_FETCH_WAPP_MSG', { message: 'WhatsApp sends older messages only relative to a message already stored for this chat.' });
    const key = await this.#keyFor(sock, request.chat, anchor.providerId, anchor.fromMe);
    // The phone answers with the messages before the time given: the anchor's own time for older
    // messages; now, for the ones since the anchor (those before it are dropped below).
    const until = request.before ? request.before.timestamp.getTime() : Date.now();
    const jids = new Set([key.remoteJid, chatJid(request.chat)].filter((j): j is string => Boolean(j)));
    let waiter: { jids: Set<string>; resolve: (messages: WAMessage[]) => void } | undefined;
    let timer: NodeJS.Timeout | undefined;
    const answer = new Promise<WAMessage[] | undefined>((resolve) => {
      waiter = { jids, resolve };
      this.#historyWaiters.add(waiter);
      timer = setTimeout(() => resolve(undefined), this.#options.historyTimeoutMs ?? HISTORY_TIMEOUT_MS);
      timer.unref();
    });
    let messages: WAMessage[] | undefined;
    try {
      // The request names its time in milliseconds (oldestMsgTimestampMs).
      await sock.fetchMessageHistory(Math.min(request.limit, HISTORY_PAGE_MAX), key, until);
      messages = await answer;
    } catch (error) {
      this.#logger.warn({ err: error }, 'on-demand history request failed');
    } finally {
      clearTimeout(timer);
      if (waiter) this.#historyWaiters.delete(waiter);
    }
    if (!messages) throw new AppError('ERR_FETCH_WAPP_MSG');
    const result: InboundMessage[] = [];
    for (const message of messages) {
      const inbound = await this.#toInbound(sock, message).catch(() => undefined);
      if (!inbound || inbound.providerId === anchor.providerId) continue;
      const time = inbound.timestamp.getTime();
      if (request.before ? time <= request.before.timestamp.getTime() : time >= anchor.timestamp.getTime()) result.push(inbound);
    }
    return result.sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime()).slice(-request.limit);
  }

  /** An ON_DEMAND history answer goes to the requests waiting for its chat. */
  #onHistorySet(set: BaileysEventMap['messaging-history.set']): void {
    if (set.syncType !== proto.HistorySync.HistorySyncType.ON_DEMAND) return;
    for (const waiter of this.#historyWaiters) {
      const mine = set.messages.filter((m) => [m.key.remoteJid, m.key.remoteJidAlt].some((jid) => jid && waiter.jids.has(jid)));
      // An empty answer for a chat still ends its wait: there is nothing older.
      if (mine.length > 0 || set.messages.length === 0 || set.chats.some((c) => typeof c.id === 'string' && waiter.jids.has(c.id))) {
        this.#historyWaiters.delete(waiter);
        waiter.resolve(mine);
      }
    }
  }

  // --- socket lifecycle ---------------------------------------------------------------------

  #openSocket(): void {
    const auth = this.#auth;
    if (!auth) throw new Error('auth state not loaded');
    const sock = this.#makeSocket({
      auth: auth.state,
      logger: this.#logger,
      markOnlineOnConnect: false,
      syncFullHistory: false,
      getMessage: async (key) => (key.id ? (this.#recent.get(key.id)?.message ?? undefined) : undefined),
      cachedGroupMetadata: async (jid) => {
        const cached = this.#groups.get(jid);
        return cached && 'metadata' in cached ? cached.metadata : undefined;
      },
    });
    this.#sock = sock;
    this.#open = false;
    this.#qrShown = false;
    const current = () => this.#sock === sock && !this.#stopped;
    const log = (what: string) => (error: unknown) => this.#logger.error({ err: error }, what);

    sock.ev.on('connection.update', (update) => {
      if (!current()) return;
      this.#lifecycle = this.#lifecycle.then(() => this.#onConnectionUpdate(sock, update)).catch(log('connection update failed'));
    });
    // Baileys has merged the update into auth.state.creds already: the whole document is saved.
    sock.ev.on('creds.update', () => void auth.saveCreds().catch(log('saving credentials failed')));
    sock.ev.on('messages.upsert', ({ messages }) => {
      if (current()) this.#enqueue(() => this.#onMessages(sock, messages));
    });
    sock.ev.on('messages.update', (updates) => {
      if (current()) this.#enqueue(async () => this.#onUpdates(updates));
    });
    sock.ev.on('message-receipt.update', (receipts) => {
      if (current()) this.#enqueue(async () => this.#onReceipts(receipts));
    });
    sock.ev.on('groups.upsert', (groups) => {
      for (const g of groups) this.#groups.set(g.id, { metadata: g });
    });
    sock.ev.on('groups.update', (updates) => this.#onGroupUpdates(updates));
    sock.ev.on('contacts.upsert', (contacts) => {
      if (current()) this.#enqueue(() => this.#onContacts(sock, contacts));
    });
    sock.ev.on('contacts.update', (updates) => {
      if (current()) this.#enqueue(() => this.#onContacts(sock, updates));
    });
    // Reactions (messages.reaction, and reactionMessage upserts, which readContent skips) are
    // not handed on: the inbox does not show them (see README, Decisions).
    sock.ev.on('messaging-history.set', (set) => {
      if (current()) this.#onHistorySet(set);
    });
  }

  async #onConnectionUpdate(sock: WASocketLike, update: Partial<ConnectionState>): Promise<void> {
    if (update.qr) {
      this.#qrShown = true;
      this.#events.emit('qr', update.qr);
      this.#setStatus('qrcode');
    }
    if (update.isNewLogin) this.#setStatus('PAIRING');
    if (update.connection === 'connecting' && this.#status !== 'OPENING') this.#setStatus('OPENING');
    if (update.connection === 'open') {
      this.#open = true;
      this.#attempts = 0;
      this.#qrRounds = 0;
      this.#qrShown = false;
      this.#events.emit('qr', '');
      this.#setStatus('CONNECTED', { retries: 0 });
    }
    if (update.connection === 'close') await this.#onClose(sock, update.lastDisconnect?.error);
  }

  async #onClose(sock: WASocketLike, error: Error | undefined): Promise<void> {
    if (this.#sock !== sock) return;
    this.#detach();
    const code = statusCodeOf(error);
    const reason = error?.message ?? 'connection closed';
    this.#logger.info({ code, reason }, 'connection closed');

    if (code === DisconnectReason.restartRequired) {
      // Normal right after pairing: the server wants a fresh socket with the new credentials.
      this.#reopen(reason);
      return;
    }
    if (code === DisconnectReason.loggedOut || code === DisconnectReason.forbidden) {
      this.#stopped = true;
      await this.#forgetSession();
      this.#setStatus('DISCONNECTED', { loggedOut: true, reason });
      return;
    }
    if (code === DisconnectReason.connectionReplaced) {
      // Another socket took these credentials over: reconnecting would only take them back.
      this.#stopped = true;
      this.#setStatus('DISCONNECTED', { reason });
      return;
    }
    if (code === DisconnectReason.timedOut && this.#qrShown) {
      this.#qrRounds += 1;
      if (this.#qrRounds >= MAX_QR_ROUNDS) {
        this.#stopped = true;
        this.#setStatus('TIMEOUT', { reason: 'nobody scanned the QR code' });
        return;
      }
      this.#reopen(reason);
      return;
    }
    this.#scheduleReconnect(reason);
  }

  /** A new socket at once (restart after pairing, a new round of QR codes). */
  #reopen(reason: string): void {
    try {
      this.#openSocket();
    } catch (error) {
      this.#logger.error({ err: error }, 'opening a socket failed');
      this.#scheduleReconnect(reason);
    }
  }

  #scheduleReconnect(reason: string): void {
    if (this.#stopped) return;
    if (this.#attempts >= MAX_RECONNECT_ATTEMPTS) {
      this.#stopped = true;
      this.#setStatus('DISCONNECTED', { reason: `gave up reconnecting after ${this.#attempts} attempts: ${reason}`, retries: this.#attempts });
      return;
    }
    this.#attempts += 1;
    this.#setStatus('DISCONNECTED', { reason, retries: this.#attempts });
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = undefined;
      if (!this.#stopped) this.#reopen(reason);
    }, reconnectDelayMs(this.#attempts));
    this.#reconnectTimer.unref();
  }

  #cancelReconnect(): void {
    clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = undefined;
  }

  /** Drops the current socket: whatever it still emits is ignored from here on. */
  #detach(): WASocketLike | undefined {
    const sock = this.#sock;
    this.#sock = undefined;
    this.#open = false;
    return sock;
  }

  async #forgetSession(): Promise<void> {
    const auth = this.#auth;
    this.#auth = undefined;
    this.#lidOnly.clear();
    if (auth) await auth.clear();
    else await this.#options.auth.clear();
  }

  #setStatus(status: ConnectionStatus, info?: Parameters<ChannelEvents['status']>[1]): void {
    this.#status = status;
    this.#events.emit('status', status, info);
  }

  #enqueue(task: () => Promise<void>): void {
    this.#queue = this.#queue.then(task).catch((error: unknown) => this.#logger.error({ err: error }, 'handling a WhatsApp event failed'));
  }

  /** Resolves when every event received so far has been handled (tests, shutdown). */
  async idle(): Promise<void> {
    let queue: Promise<void>;
    let lifecycle: Promise<void>;
    do {
      queue = this.#queue;
      lifecycle = this.#lifecycle;
      await Promise.all([queue, lifecycle]);
    } while (queue !== this.#queue || lifecycle !== this.#lifecycle);
  }

  #requireOpen(): WASocketLike {
    const sock = this.#sock;
    if (!sock || !this.#open) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return sock;
  }

  // --- inbound ------------------------------------------------------------------------------

  async #onMessages(sock: WASocketLike, messages: WAMessage[]): Promise<void> {
    for (const message of messages) {
      try {
        await this.#onMessage(sock, message);
      } catch (error) {
        this.#logger.error({ err: error, id: message.key.id }, 'handling a message failed');
      }
    }
  }

  async #onMessage(sock: WASocketLike, message: WAMessage): Promise<void> {
    const { key } = message;
    const id = key.id;
    if (!id || this.#seen.has(id) || isIgnoredJid(key.remoteJid)) return;
    // No content: an undecryptable message (Baileys asks for it again) or a group notice.
    const content = normalizeMessageContent(message.message);
    if (!content) return;
    const revoked = revokedIdOf(content);
    if (revoked) {
      this.#emitRevoke(revoked);
      return;
    }
    if (key.fromMe && this.#ownSends.has(id)) return;
    const inbound = await this.#toInbound(sock, message);
    if (!inbound) return;
    if (this.#seen.has(id)) return; // delivered twice while this one was being resolved
    this.#seen.set(id, true);
    this.#recent.set(id, message);
    this.#events.emit('message', inbound);
  }

  /** A Baileys message as the contract's message; undefined for what the product does not keep. */
  async #toInbound(sock: WASocketLike, message: WAMessage): Promise<InboundMessage | undefined> {
    const { key } = message;
    const id = key.id;
    if (!id || isIgnoredJid(key.remoteJid)) return undefined;
    const content = normalizeMessageContent(message.message);
    if (!content || revokedIdOf(content)) return undefined;
    const read = readContent(content, () => this.#loadMedia(message));
    if (!read) return undefined;
    const resolved = await resolveKey(key, (lid) => sock.signalRepository.lidMapping.getPNForLID(lid));
    if (!resolved) return undefined;
    await this.#rememberLidOnly(resolved.lidOnly);
    const group = resolved.chat.kind === 'group' && key.remoteJid ? await this.#groupOf(sock, key.remoteJid) : undefined;
    const name = message.pushName?.trim();
    return {
      providerId: id,
      chat: resolved.chat,
      ...(resolved.sender ? { sender: { number: resolved.sender.number, ...(name ? { name } : {}) } } : {}),
      fromMe: Boolean(key.fromMe),
      ...read,
      ...(group ? { group } : {}),
      timestamp: timestampOf(message),
    };
  }

  #onUpdates(updates: WAMessageUpdate[]): void {
    for (const { key, update } of updates) {
      if (!key.id || isIgnoredJid(key.remoteJid)) continue;
      if (isRevokeUpdate(update)) {
        this.#emitRevoke(key.id);
        continue;
      }
      // An edit also arrives as a protocolMessage upsert, which readContent skips: this is the one path.
      const edited = editedTextOf(update);
      if (edited !== undefined) {
        this.#events.emit('edit', { providerId: key.id, body: edited });
        continue;
      }
      // Acks describe our own messages' way to the other side.
      if (key.fromMe && typeof update.status === 'number') {
        const ack = ackOfStatus(update.status);
        if (ack !== undefined) this.#events.emit('ack', { providerId: key.id, ack });
      }
    }
  }

  /** Groups report delivery and reading per participant; the first one moves the ack. */
  #onReceipts(receipts: MessageUserReceiptUpdate[]): void {
    for (const { key, receipt } of receipts) {
      if (!key.id || !key.fromMe || isIgnoredJid(key.remoteJid)) continue;
      const ack = ackOfReceipt(receipt);
      if (ack !== undefined) this.#events.emit('ack', { providerId: key.id, ack });
    }
  }

  /**
   * Names and picture changes of people (contacts.upsert at sync, contacts.update later): the
   * address-book name on the linked phone, else the name they gave themself (`notify`), else
   * their business name; `imgUrl` 'changed' or 'removed'. LIDs resolve to the phone number
   * when it is known. Groups are not contacts here.
   */
  async #onContacts(sock: WASocketLike, contacts: Partial<Contact>[]): Promise<void> {
    for (const c of contacts) {
      if (!c.id || isJidGroup(c.id) || isIgnoredJid(c.id)) continue;
      const name = [c.name, c.notify, c.verifiedName].map((n) => n?.trim()).find((n) => n);
      const picture = c.imgUrl === 'removed' ? 'removed' : c.imgUrl === 'changed' ? 'changed' : undefined;
      if (!name && !picture) continue;
      const person = await resolvePerson(c.id, c.phoneNumber, (lid) => sock.signalRepository.lidMapping.getPNForLID(lid));
      if (!person) continue;
      this.#events.emit('contact', { number: person.number, ...(name ? { name } : {}), ...(picture ? { picture } : {}) });
    }
  }

  #emitRevoke(providerId: string): void {
    if (this.#revoked.has(providerId)) return;
    this.#revoked.set(providerId, true);
    this.#events.emit('revoke', { providerId });
  }

  async #loadMedia(message: WAMessage): Promise<Buffer> {
    const sock = this.#sock;
    try {
      return await this.#download(message, {
        logger: this.#logger,
        // Old media leave WhatsApp's servers; the phone can upload them again.
        reuploadRequest: (m) => (sock ? sock.updateMediaMessage(m) : Promise.reject(new Error('not connected'))),
      });
    } catch (error) {
      this.#logger.warn({ err: error, id: message.key.id }, 'media download failed');
      throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA');
    }
  }

  /** The group's subject, from metadata read once per group (never once per message). */
  async #groupOf(sock: WASocketLike, jid: string): Promise<{ subject: string } | undefined> {
    const cached = this.#groups.get(jid);
    if (!cached || ('failedAt' in cached && Date.now() - cached.failedAt > GROUP_RETRY_MS)) {
      let pending = this.#groupFetches.get(jid);
      if (!pending) {
        pending = sock
          .groupMetadata(jid)
          .then(
            (metadata) => this.#groups.set(jid, { metadata }),
            (error: unknown) => {
              this.#logger.warn({ err: error, jid }, 'group metadata unavailable');
              this.#groups.set(jid, { failedAt: Date.now() });
            },
          )
          .finally(() => this.#groupFetches.delete(jid));
        this.#groupFetches.set(jid, pending);
      }
      await pending;
    }
    const entry = this.#groups.get(jid);
    return entry && 'metadata' in entry && entry.metadata.subject ? { subject: entry.metadata.subject } : undefined;
  }

  #onGroupUpdates(updates: BaileysEventMap['groups.update']): void {
    for (const update of updates) {
      const cached = update.id ? this.#groups.get(update.id) : undefined;
      if (update.id && cached && 'metadata' in cached && update.subject) this.#groups.set(update.id, { metadata: { ...cached.metadata, subject: update.subject } });
    }
  }

  // --- addressing ---------------------------------------------------------------------------

  async #rememberLidOnly(numbers: string[]): Promise<void> {
    const fresh = numbers.filter((n) => !this.#lidOnly.has(n));
    if (fresh.length === 0) return;
    for (const n of fresh) this.#lidOnly.set(n, true);
    await this.#options.auth.set(fresh.map((n) => ({ type: LID_ONLY_TYPE, id: n, value: '1' })));
  }

  /**
   * Where to send. A person known only by LID digits is written to at the LID, or at the phone
   * number if WhatsApp has told us it since.
   */
  async #jidFor(sock: WASocketLike, chat: ChatAddress): Promise<string> {
    if (chat.kind === 'group') return chatJid(chat);
    const viaLid = this.#lidOnly.has(chat.number) || (await this.#options.auth.getOne(LID_ONLY_TYPE, chat.number)) !== undefined;
    if (!viaLid) return chatJid(chat);
    const lid = chatJid(chat, { viaLid: true });
    const pn = await sock.signalRepository.lidMapping.getPNForLID(lid).catch(() => null);
    const pnUser = pn ? jidUser(pn) : undefined;
    return pnUser ? personJid(pnUser) : lid;
  }

  async #keyFor(sock: WASocketLike, chat: ChatAddress, id: string, fromMe: boolean): Promise<WAMessageKey> {
    const known = this.#recent.get(id)?.key;
    if (known) return known;
    return { remoteJid: await this.#jidFor(sock, chat), id, fromMe };
  }
}

/** The contract's outbound content as Baileys message content. */
export function outboundMessage(content: OutboundContent): AnyMessageContent {
  switch (content.kind) {
    case 'text':
      // linkPreview: null stops Baileys fetching the first URL of the text for a preview.
      return { text: content.body, linkPreview: null };
    case 'voice':
      return { audio: content.data, ptt: true, mimetype: 'audio/ogg; codecs=opus' };
    case 'media': {
      const caption = content.caption ? { caption: content.caption } : {};
      if (content.mediaType === 'image') return { image: content.data, mimetype: content.mimetype, ...caption };
      if (content.mediaType === 'video') return { video: content.data, mimetype: content.mimetype, ...caption };
      if (content.mediaType === 'audio') return { audio: content.data, mimetype: content.mimetype, ptt: false };
      return { document: content.data, mimetype: content.mimetype, fileName: content.filename, ...caption };
    }
  }
}
