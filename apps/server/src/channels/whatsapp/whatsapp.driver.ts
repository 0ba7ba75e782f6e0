/**
 * The WhatsApp channel through Baileys (a linked device of the customer's phone). Owns the
 * socket's life (QR, pairing, reconnects, logout) and the contract's calls; inbound events are
 * read by WhatsappInbound, incoming calls by WhatsappCalls, addresses by WhatsappAddressing,
 * history by WhatsappHistory. Knows nothing of tickets or contacts. A Baileys socket is
 * single-use: every reconnect makes a new one on the same database-backed auth state.
 */
import type { ConnectionStatus } from '@zapdesk/shared/domain';
import makeWASocket, { generateMessageIDV2, type ConnectionState, type UserFacingSocketConfig } from '@whiskeysockets/baileys';
import { AppError } from '../../core/errors.js';
import type { ChannelDriver, ChannelEvents, ChatAddress, GroupChange, GroupCreated, GroupInfo, HistoryRequest, InboundMessage, OutboundContent, SendResult } from '../channel.js';
import { ChannelEmitter } from '../channel-events.js';
import { WhatsappAddressing } from './whatsapp-addressing.js';
import { WhatsappCalls } from './whatsapp-calls.js';
import { loadWhatsappAuthState, type WhatsappAuthState } from './whatsapp-auth-state.js';
import { WhatsappGroups } from './whatsapp-groups.js';
import { WhatsappHistory } from './whatsapp-history.js';
import { WhatsappInbound } from './whatsapp-inbound.js';
import { silentBaileysLogger, type BaileysLogger } from './whatsapp-logger.js';
import { WhatsappOutbound } from './whatsapp-outbound.js';
import { allIdle, SerialQueue } from './serial-queue.js';
import { closeOutcome, defaultDownload, MAX_QR_ROUNDS, MAX_RECONNECT_ATTEMPTS, reconnectDelayMs, statusCodeOf, type WASocketLike, type WhatsappDriverOptions } from './whatsapp-socket.js';

export class WhatsappDriver implements ChannelDriver {
  readonly #events = new ChannelEmitter();
  readonly #options: WhatsappDriverOptions;
  readonly #logger: BaileysLogger;
  readonly #makeSocket: (config: UserFacingSocketConfig) => WASocketLike;

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
  readonly #queue = new SerialQueue((error) => this.#logger.error({ err: error }, 'handling a WhatsApp event failed'));
  /** Connection updates, in order too, but never behind a slow message. */
  readonly #lifecycle = new SerialQueue((error) => this.#logger.error({ err: error }, 'connection update failed'));
  /** Incoming calls, never behind a slow message either: the caller's phone is ringing. */
  readonly #ringing = new SerialQueue((error) => this.#logger.error({ err: error }, 'handling a call failed'));

  readonly #addressing: WhatsappAddressing;
  readonly #groups: WhatsappGroups;
  readonly #inbound: WhatsappInbound;
  readonly #history: WhatsappHistory;
  readonly #outbound: WhatsappOutbound;
  readonly #calls: WhatsappCalls;

  constructor(options: WhatsappDriverOptions) {
    this.#options = options;
    this.#logger = options.logger ?? silentBaileysLogger();
    this.#makeSocket = options.makeSocket ?? ((config) => makeWASocket(config));
    this.#addressing = new WhatsappAddressing(options.auth);
    this.#groups = new WhatsappGroups({ logger: this.#logger, addressing: this.#addressing, checkNumber: (sock, number) => this.#outbound.checkNumber(sock, number) });
    this.#inbound = new WhatsappInbound({
      events: this.#events,
      logger: this.#logger,
      addressing: this.#addressing,
      groups: this.#groups,
      download: options.downloadMedia ?? defaultDownload,
      currentSocket: () => this.#sock,
    });
    this.#outbound = new WhatsappOutbound({ logger: this.#logger, addressing: this.#addressing, inbound: this.#inbound });
    this.#calls = new WhatsappCalls({ events: this.#events, addressing: this.#addressing });
    this.#history = new WhatsappHistory({
      logger: this.#logger,
      addressing: this.#addressing,
      toInbound: (sock, message) => this.#inbound.toInbound(sock, message),
      timeoutMs: options.historyTimeoutMs,
    });
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
    const code = await this.#outbound.pairingCode(sock, phoneNumber);
    this.#events.emit('pairingCode', code);
    return code;
  }

  newMessageId(): string {
    return generateMessageIDV2(this.#sock?.user?.id);
  }

  async send(to: ChatAddress, content: OutboundContent, options: { providerId: string; quotedProviderId?: string | undefined }): Promise<SendResult> {
    return this.#outbound.send(this.#requireOpen(), to, content, options);
  }

  /** WhatsApp cannot be asked whether it holds a message: an ack for the id, if one comes, tells. */
  async confirmSent(): Promise<boolean | undefined> {
    return undefined;
  }

  async deleteForEveryone(chat: ChatAddress, providerId: string, fromMe: boolean): Promise<void> {
    return this.#outbound.deleteForEveryone(this.#requireOpen(), chat, providerId, fromMe);
  }

  async markRead(chat: ChatAddress, providerIds: string[]): Promise<void> {
    const sock = this.#sock;
    if (sock && this.#open) await this.#outbound.markRead(sock, chat, providerIds);
  }

  async rejectCall(callId: string, from: string): Promise<void> {
    return this.#calls.reject(this.#requireOpen(), callId, from);
  }

  async checkNumber(number: string): Promise<string | undefined> {
    return this.#outbound.checkNumber(this.#requireOpen(), number);
  }

  async profilePictureUrl(chat: ChatAddress): Promise<string | undefined> {
    const sock = this.#sock;
    return sock && this.#open ? this.#outbound.profilePictureUrl(sock, chat) : undefined;
  }

  /** The chat's messages before or since a stored one (see WhatsappHistory). */
  async fetchHistory(request: HistoryRequest): Promise<InboundMessage[]> {
    return this.#history.fetch(this.#requireOpen(), request);
  }

  async listGroups(): Promise<GroupInfo[]> {
    return this.#groups.listGroups(this.#requireOpen());
  }

  async groupInfo(groupId: string): Promise<GroupInfo> {
    return this.#groups.groupInfo(this.#requireOpen(), groupId);
  }

  async createGroup(subject: string, numbers: string[]): Promise<GroupCreated> {
    return this.#groups.createGroup(this.#requireOpen(), subject, numbers);
  }

  async updateGroup(groupId: string, change: GroupChange): Promise<void> {
    return this.#groups.updateGroup(this.#requireOpen(), groupId, change);
  }

  #openSocket(): void {
    const auth = this.#auth;
    if (!auth) throw new Error('auth state not loaded');
    const sock = this.#makeSocket({
      auth: auth.state,
      logger: this.#logger,
      markOnlineOnConnect: false,
      syncFullHistory: false,
      getMessage: async (key) => (key.id ? (this.#addressing.recent(key.id)?.message ?? undefined) : undefined),
      cachedGroupMetadata: async (jid) => this.#groups.cached(jid),
    });
    this.#sock = sock;
    this.#open = false;
    this.#qrShown = false;
    const current = () => this.#sock === sock && !this.#stopped;

    sock.ev.on('connection.update', (update) => {
      if (!current()) return;
      this.#lifecycle.push(() => this.#onConnectionUpdate(sock, update));
    });
    // Baileys has merged the update into auth.state.creds already: the whole document is saved.
    sock.ev.on('creds.update', () => void auth.saveCreds().catch((error: unknown) => this.#logger.error({ err: error }, 'saving credentials failed')));
    this.#inbound.listen(sock, (task) => {
      if (current()) this.#queue.push(task);
    });
    sock.ev.on('call', (calls) => {
      if (current()) this.#ringing.push(() => this.#calls.onCalls(sock, calls));
    });
    sock.ev.on('groups.upsert', (groups) => this.#groups.upsert(groups));
    sock.ev.on('groups.update', (updates) => this.#groups.update(updates));
    sock.ev.on('messaging-history.set', (set) => current() && this.#history.onHistorySet(set));
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

    switch (closeOutcome(code, this.#qrShown)) {
      case 'restart':
        return this.#reopen(reason);
      case 'logged-out':
        this.#stopped = true;
        await this.#forgetSession();
        return this.#setStatus('DISCONNECTED', { loggedOut: true, reason });
      case 'replaced':
        this.#stopped = true;
        return this.#setStatus('DISCONNECTED', { reason });
      case 'qr-expired':
        this.#qrRounds += 1;
        if (this.#qrRounds < MAX_QR_ROUNDS) return this.#reopen(reason);
        this.#stopped = true;
        return this.#setStatus('TIMEOUT', { reason: 'nobody scanned the QR code' });
      case 'lost':
        return this.#scheduleReconnect(reason);
    }
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
    this.#addressing.forgetLids();
    if (auth) await auth.clear();
    else await this.#options.auth.clear();
  }

  #setStatus(status: ConnectionStatus, info?: Parameters<ChannelEvents['status']>[1]): void {
    this.#status = status;
    this.#events.emit('status', status, info);
  }

  /** Resolves when every event received so far has been handled (tests, shutdown). */
  async idle(): Promise<void> {
    await allIdle([this.#queue, this.#lifecycle, this.#ringing]);
  }

  #requireOpen(): WASocketLike {
    const sock = this.#sock;
    if (!sock || !this.#open) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return sock;
  }
}
