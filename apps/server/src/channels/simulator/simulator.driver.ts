/**
 * The simulator: an in-process stand-in for a phone, with the same contract as the WhatsApp
 * driver. A QR code that a test or the demo 'scans', contacts that write in, react and call, acks that
 * move sent -> delivered -> read, a stored history and a disconnect. Enabled with SIMULATOR=on.
 */
import { randomBytes } from 'node:crypto';
import type { TSimulatorCallItem, TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import { AppError } from '../../core/errors.js';
import type { ChatAddress, ChannelDriver, ChannelEvents, GroupChange, GroupCreated, GroupInfo, HistoryRequest, InboundMessage, OutboundContent, SendResult } from '../channel.js';
import { ChannelEmitter } from '../channel-events.js';
import type { ChannelAuthStore } from '../connection-store.js';
import { chatKey, SimulatorPhone, type PhoneLog, type SimGroup } from './simulator-phone.js';

export { chatKey } from './simulator-phone.js';

export type SimulatorOptions = {
  whatsappId: number;
  auth: ChannelAuthStore;
  /** Delays from send to delivered (ack 2) and to read (ack 3). */
  ackDelaysMs?: { delivered: number; read: number };
  qrRefreshMs?: number;
  /** Where the phone keeps what it received and its history (a file, or a log in the database); in memory only when absent. */
  state?: string | PhoneLog;
};

import { simulatedNumberExists, SimulatorGroups, simulatorOwnNumber, type AddedGroup } from './simulator-groups.js';

export class SimulatorDriver implements ChannelDriver {
  readonly #events = new ChannelEmitter();
  readonly #options: SimulatorOptions;
  #qr = '';
  #connected = false;
  #qrTimer: NodeJS.Timeout | undefined;
  readonly #ackTimers = new Set<NodeJS.Timeout>();
  readonly #phone: SimulatorPhone;
  readonly #groups: SimulatorGroups;

  constructor(options: SimulatorOptions) {
    this.#options = options;
    this.#phone = new SimulatorPhone(options.state);
    this.#groups = new SimulatorGroups(this.#phone, simulatorOwnNumber(options.whatsappId));
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
    await this.#phone.load();
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
    this.#groups.joinOnMessage(message);
    this.#phone.remember(message);
    await this.#events.emitAndWait('message', message);
  }

  get ownNumber(): string {
    return simulatorOwnNumber(this.#options.whatsappId);
  }

  /** Groups as the phone holds them: what tests set up and what the product changed. */
  groups(): SimGroup[] {
    return this.#phone.groups();
  }

  /** A group the phone belongs to (created by someone else): members, admins, settings. */
  addGroup(input: AddedGroup): SimGroup {
    return this.#groups.add(input);
  }

  /** The author of a message changes its text on the phone. */
  edit(providerId: string, body: string): void {
    this.#requireConnected();
    this.#phone.edit(providerId, body);
    this.#events.emit('edit', { providerId, body });
  }

  /**
   * A person reacts to a message by its provider id (or the phone's owner, `fromMe`); an empty
   * emoji takes their reaction away. As on WhatsApp, the phone does not wait for the product.
   */
  react(input: { providerId: string; from: string; name?: string | undefined; emoji: string; fromMe: boolean }): void {
    this.#requireConnected();
    const sender = input.fromMe ? {} : { sender: { number: input.from, ...(input.name ? { name: input.name } : {}) } };
    this.#events.emit('reaction', { providerId: input.providerId, ...sender, emoji: input.emoji, fromMe: input.fromMe });
  }

  /** A contact changes the name they go by, or sets (a new address) or removes their picture. */
  updateContact(update: { number: string; name?: string; pictureUrl?: string | null }): void {
    this.#requireConnected();
    if (update.pictureUrl === null) this.profilePictures.delete(update.number);
    else if (update.pictureUrl !== undefined) this.profilePictures.set(update.number, update.pictureUrl);
    const picture = update.pictureUrl === undefined ? undefined : update.pictureUrl === null ? 'removed' : 'changed';
    this.#events.emit('contact', { number: update.number, ...(update.name ? { name: update.name } : {}), ...(picture ? { picture } : {}) });
  }

  /**
   * A contact calls the phone (in a group, when `groupId` is given). The same id again is the
   * same call offered again, as WhatsApp may do. Answers the call as the phone holds it once the
   * product has handled the offer: rejected, or still ringing.
   */
  async placeCall(input: { id?: string | undefined; from: string; video?: boolean | undefined; groupId?: string | undefined }): Promise<TSimulatorCallItem> {
    this.#requireConnected();
    const id = input.id ?? `SIMCALL${randomBytes(8).toString('hex').toUpperCase()}`;
    const known = this.#phone.call(id);
    const call = known ?? { id, from: input.from, groupId: input.groupId ?? null, video: input.video ?? false, status: 'ringing' as const, at: new Date().toISOString() };
    if (!known) this.#phone.saveCall(call);
    await this.#events.emitAndWait('call', { callId: id, from: call.from, isGroup: call.groupId !== null, isVideo: call.video, timestamp: new Date(call.at) });
    return this.#phone.call(id) ?? call;
  }

  /** The calls the phone got, and whether the product rejected them. */
  calls(): TSimulatorCallItem[] {
    return this.#phone.calls();
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
    if (to.kind === 'group') {
      this.#groups.checkMaySend(to.groupId);
    }
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
    // Answered once the phone has it stored.
    await this.#phone.flushed();
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

  async rejectCall(callId: string, from: string): Promise<void> {
    this.#requireConnected();
    const call = this.#phone.call(callId);
    if (call?.from === from && call.status === 'ringing') this.#phone.saveCall({ ...call, status: 'rejected' });
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
    for (const message of messages) {
      this.#groups.joinOnMessage(message);
      this.#phone.remember(message);
    }
  }

  async listGroups(): Promise<GroupInfo[]> {
    this.#requireConnected();
    return this.#groups.list();
  }

  async groupInfo(groupId: string): Promise<GroupInfo> {
    this.#requireConnected();
    return this.#groups.info(groupId);
  }

  async createGroup(subject: string, numbers: string[]): Promise<GroupCreated> {
    this.#requireConnected();
    return this.#groups.create(subject, numbers);
  }

  async updateGroup(groupId: string, change: GroupChange): Promise<void> {
    this.#requireConnected();
    this.#groups.update(groupId, change);
  }

  #requireConnected(): void {
    if (!this.#connected) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  }
}
