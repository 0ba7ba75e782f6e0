/**
 * The simulator: an in-process stand-in for a phone, with the same contract as the WhatsApp
 * driver. A QR code that a test or the demo 'scans', contacts that write in, acks that move
 * sent -> delivered -> read, a stored history and a disconnect. Enabled with SIMULATOR=on.
 */
import { randomBytes } from 'node:crypto';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/messaging';
import { AppError } from '../../core/errors.js';
import type { ChatAddress, ChannelDriver, ChannelEvents, HistoryRequest, InboundMessage, OutboundContent, SendResult } from '../channel.js';
import { ChannelEmitter } from '../channel-events.js';
import type { ChannelAuthStore } from '../connection-store.js';
import { chatKey, SimulatorPhone } from './simulator-phone.js';

export { chatKey } from './simulator-phone.js';

export type SimulatorOptions = {
  whatsappId: number;
  auth: ChannelAuthStore;
  /** Delays from send to delivered (ack 2) and to read (ack 3). */
  ackDelaysMs?: { delivered: number; read: number };
  qrRefreshMs?: number;
  /** Where the phone keeps what it received and its history; in memory only when absent. */
  stateFile?: string;
};

/** Numbers starting with 000 have no account on the simulated network. */
export function simulatedNumberExists(number: string): boolean {
  return /^\d{8,15}$/.test(number) && !number.startsWith('000');
}

export class SimulatorDriver implements ChannelDriver {
  readonly #events = new ChannelEmitter();
  readonly #options: SimulatorOptions;
  #qr = '';
  #connected = false;
  #qrTimer: NodeJS.Timeout | undefined;
  readonly #ackTimers = new Set<NodeJS.Timeout>();
  readonly #phone: SimulatorPhone;

  constructor(options: SimulatorOptions) {
    this.#options = options;
    this.#phone = new SimulatorPhone(options.stateFile);
  }

  /** Ids of the messages the phone marked read, in order. */
  get readReceipts(): readonly string[] {
    return this.#phone.readReceipts;
  }

  on<K extends keyof ChannelEvents>(event: K, listener: ChannelEvents[K]): void {
    this.#events.on(event, listener);
  }

  get connected(): boolean {
    return this.#connected;
  }

  get qr(): string {
    return this.#qr;
  }

  async start(): Promise<void> {
    this.#events.emit('status', 'OPENING');
    const paired = (await this.#options.auth.getOne('simulator', 'creds')) !== undefined;
    if (paired) {
      this.#connected = true;
      this.#events.emit('status', 'CONNECTED');
      return;
    }
    this.#newQr();
    this.#qrTimer = setInterval(() => this.#newQr(), this.#options.qrRefreshMs ?? 60_000);
    this.#qrTimer.unref();
  }

  #newQr(): void {
    this.#qr = `SIM-${this.#options.whatsappId}-${randomBytes(12).toString('base64url')}`;
    this.#events.emit('qr', this.#qr);
  }

  /** The phone scans the QR code shown: the device is linked. */
  async scan(): Promise<void> {
    if (!this.#qr) throw new AppError('ERR_WAPP_NOT_INITIALIZED', { message: 'There is no QR code to scan: the session is not waiting for one.' });
    clearInterval(this.#qrTimer);
    this.#qr = '';
    await this.#options.auth.set([{ type: 'simulator', id: 'creds', value: JSON.stringify({ pairedAt: new Date().toISOString() }) }]);
    this.#events.emit('status', 'PAIRING');
    this.#connected = true;
    this.#events.emit('status', 'CONNECTED');
  }

  /**
   * A contact writes in (or the phone's owner writes from the phone, `fromMe`). Settles once the
   * product has stored the message: only then has it been acknowledged to the sender.
   */
  async deliver(message: InboundMessage): Promise<void> {
    this.#requireConnected();
    this.#phone.remember(message);
    await this.#events.emitAndWait('message', message);
  }

  /** The author of a message changes its text on the phone. */
  edit(providerId: string, body: string): void {
    this.#requireConnected();
    this.#phone.edit(providerId, body);
    this.#events.emit('edit', { providerId, body });
  }

  /** A contact changes the name they go by, or sets (a new address) or removes their picture. */
  updateContact(update: { number: string; name?: string; pictureUrl?: string | null }): void {
    this.#requireConnected();
    if (update.pictureUrl === null) this.profilePictures.delete(update.number);
    else if (update.pictureUrl !== undefined) this.profilePictures.set(update.number, update.pictureUrl);
    const picture = update.pictureUrl === undefined ? undefined : update.pictureUrl === null ? 'removed' : 'changed';
    this.#events.emit('contact', { number: update.number, ...(update.name ? { name: update.name } : {}), ...(picture ? { picture } : {}) });
  }

  /** The phone loses its connection. */
  drop(): void {
    this.#connected = false;
    this.#events.emit('status', 'DISCONNECTED', { reason: 'simulated disconnect' });
  }

  outbox(): TSimulatorOutboxItem[] {
    return this.#phone.outbox();
  }

  async stop(): Promise<void> {
    clearInterval(this.#qrTimer);
    for (const t of this.#ackTimers) clearTimeout(t);
    this.#ackTimers.clear();
    this.#connected = false;
    this.#qr = '';
    this.#events.clear();
  }

  async logout(): Promise<void> {
    await this.#options.auth.clear();
    this.#connected = false;
    this.#events.emit('status', 'DISCONNECTED', { loggedOut: true });
    await this.stop();
  }

  async requestPairingCode(phoneNumber: string): Promise<string> {
    if (!this.#qr) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    const code = randomBytes(4).toString('hex').toUpperCase();
    this.#events.emit('pairingCode', code);
    void phoneNumber;
    return code;
  }

  newMessageId(): string {
    return `SIMOUT${randomBytes(8).toString('hex').toUpperCase()}`;
  }

  async send(to: ChatAddress, content: OutboundContent, options: { providerId: string; quotedProviderId?: string | undefined }): Promise<SendResult> {
    this.#requireConnected();
    if (to.kind === 'person' && !simulatedNumberExists(to.number)) throw new AppError('ERR_WAPP_INVALID_CONTACT');
    const providerId = options.providerId;
    // The same id again (a send repeated after a crash) is the message the phone already has.
    const receivedAt = this.#phone.receivedAt(providerId);
    if (receivedAt) return { providerId, timestamp: new Date(receivedAt) };
    const timestamp = new Date();
    const body = content.kind === 'text' ? content.body : content.kind === 'media' ? (content.caption ?? '') : '';
    this.#phone.receive({
      id: providerId,
      to: chatKey(to),
      kind: content.kind,
      body,
      mimetype: content.kind === 'text' ? null : content.mimetype,
      filename: content.kind === 'media' ? content.filename : null,
      quotedId: options.quotedProviderId ?? null,
      ack: 1,
      sentAt: timestamp.toISOString(),
    });
    this.#phone.remember({ providerId, chat: to, fromMe: true, body, timestamp });
    const delays = this.#options.ackDelaysMs ?? { delivered: 300, read: 1500 };
    this.#scheduleAck(providerId, 2, delays.delivered);
    this.#scheduleAck(providerId, 3, delays.read);
    return { providerId, timestamp };
  }

  /** The phone knows what it received, also across restarts of the server (its state file). */
  async confirmSent(_to: ChatAddress, providerId: string): Promise<boolean | undefined> {
    return this.#phone.receivedAt(providerId) !== undefined;
  }

  #scheduleAck(providerId: string, ack: number, delay: number): void {
    const timer = setTimeout(() => {
      this.#ackTimers.delete(timer);
      this.#phone.ack(providerId, ack);
      this.#events.emit('ack', { providerId, ack });
    }, delay);
    timer.unref();
    this.#ackTimers.add(timer);
  }

  async deleteForEveryone(chat: ChatAddress, providerId: string): Promise<void> {
    this.#requireConnected();
    this.#phone.receive({ id: providerId, to: chatKey(chat), kind: 'delete', body: '', mimetype: null, filename: null, quotedId: null, ack: 1, sentAt: new Date().toISOString() });
  }

  async markRead(_chat: ChatAddress, providerIds: string[]): Promise<void> {
    if (!this.#connected) return;
    this.#phone.read(providerIds);
  }

  async checkNumber(number: string): Promise<string | undefined> {
    this.#requireConnected();
    return simulatedNumberExists(number) ? number : undefined;
  }

  /** Profile pictures of simulated contacts, and how often they were asked for. */
  readonly profilePictures = new Map<string, string>();
  profilePictureRequests = 0;

  async profilePictureUrl(chat: ChatAddress): Promise<string | undefined> {
    this.profilePictureRequests += 1;
    return this.profilePictures.get(chatKey(chat));
  }

  async fetchHistory(request: HistoryRequest): Promise<InboundMessage[]> {
    this.#requireConnected();
    const all = this.#phone.history(request.chat).sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime());
    const { before, after } = request;
    const chosen = all.filter((m) => {
      if (before) return m.providerId !== before.providerId && m.timestamp.getTime() <= before.timestamp.getTime();
      if (after) return m.providerId !== after.providerId && m.timestamp.getTime() >= after.timestamp.getTime();
      return true;
    });
    return chosen.slice(-request.limit);
  }

  /** Old messages the phone holds for a chat (written before it was linked): kept, not delivered. */
  seedHistory(messages: InboundMessage[]): void {
    this.#requireConnected();
    for (const message of messages) this.#phone.remember(message);
  }

  #requireConnected(): void {
    if (!this.#connected) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  }
}
