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

/**
 * Numbers starting with 000, or with the country code 999 (assigned to no country, so it can be
 * typed as +999…), have no account on the simulated network.
 */
export function simulatedNumberExists(number: string): boolean {
  return /^\d{8,15}$/.test(number) && !number.startsWith('000') && !number.startsWith('999');
}

/** Numbers starting with 001, or with the country code 997 (assigned to none), have an account but refuse being added to groups. */
export function simulatedNumberRefusesGroups(number: string): boolean {
  return number.startsWith('001') || number.startsWith('997');
}

/** The simulated phone's own number: 55119 followed by the connection id on eight digits. */
export function simulatorOwnNumber(whatsappId: number): string {
  return `55119${String(whatsappId).padStart(8, '0')}`;
}

/** A group id as WhatsApp makes them: 18 digits starting 120363. */
function newGroupId(): string {
  const digits = [...randomBytes(12)].map((b) => String(b % 10)).join('');
  return `120363${digits}`;
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
    this.#phone = new SimulatorPhone(options.state);
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
    this.#joinOnMessage(message);
    this.#phone.remember(message);
    await this.#events.emitAndWait('message', message);
  }

  /** A message from a group the phone did not know yet: it is a member (not admin), and so is the sender. */
  #joinOnMessage(message: InboundMessage): void {
    if (message.chat.kind !== 'group') return;
    const known = this.#phone.group(message.chat.groupId);
    const sender = message.sender?.number;
    if (known && (!sender || known.participants.some((p) => p.number === sender))) return;
    const group: SimGroup = known ?? {
      id: message.chat.groupId,
      subject: message.group?.subject ?? '',
      description: '',
      announce: false,
      restrict: false,
      participants: [{ number: this.ownNumber, admin: false }],
    };
    if (sender && !group.participants.some((p) => p.number === sender)) group.participants.push({ number: sender, admin: false });
    this.#phone.saveGroup(group);
  }

  get ownNumber(): string {
    return simulatorOwnNumber(this.#options.whatsappId);
  }

  /** Groups as the phone holds them: what tests set up and what the product changed. */
  groups(): SimGroup[] {
    return this.#phone.groups();
  }

  /** A group the phone belongs to (created by someone else): members, admins, settings. */
  addGroup(input: {
    id?: string | undefined;
    subject: string;
    description?: string | undefined;
    announce?: boolean | undefined;
    restrict?: boolean | undefined;
    phoneIsAdmin: boolean;
    participants: { number: string; admin: boolean }[];
  }): SimGroup {
    const id = input.id ?? newGroupId();
    const others = input.participants.filter((p) => p.number !== this.ownNumber);
    const group: SimGroup = {
      id,
      subject: input.subject,
      description: input.description ?? '',
      announce: input.announce ?? false,
      restrict: input.restrict ?? false,
      participants: [{ number: this.ownNumber, admin: input.phoneIsAdmin }, ...others],
    };
    this.#phone.saveGroup(group);
    return group;
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
      const group = this.#memberOf(to.groupId);
      if (group.announce && !this.#isAdmin(group)) throw new AppError('ERR_GROUP_NOT_ADMIN');
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
      this.#joinOnMessage(message);
      this.#phone.remember(message);
    }
  }

  async listGroups(): Promise<GroupInfo[]> {
    this.#requireConnected();
    return this.#phone
      .groups()
      .filter((g) => g.participants.some((p) => p.number === this.ownNumber))
      .map((g) => this.#info(g));
  }

  async groupInfo(groupId: string): Promise<GroupInfo> {
    this.#requireConnected();
    return this.#info(this.#memberOf(groupId));
  }

  async createGroup(subject: string, numbers: string[]): Promise<GroupCreated> {
    this.#requireConnected();
    const failed: GroupCreated['failed'] = [];
    const members: SimGroup['participants'] = [];
    for (const number of new Set(numbers)) {
      if (number === this.ownNumber) continue;
      if (!simulatedNumberExists(number)) failed.push({ number, error: 'ERR_WAPP_INVALID_CONTACT' });
      else if (simulatedNumberRefusesGroups(number)) failed.push({ number, error: 'ERR_GROUP_ADD_REFUSED' });
      else members.push({ number, admin: false });
    }
    const group: SimGroup = { id: newGroupId(), subject, description: '', announce: false, restrict: false, participants: [{ number: this.ownNumber, admin: true }, ...members] };
    this.#phone.saveGroup(group);
    return { group: this.#info(group), failed };
  }

  async updateGroup(groupId: string, change: GroupChange): Promise<void> {
    this.#requireConnected();
    const group = this.#memberOf(groupId);
    const admin = this.#isAdmin(group);
    if ('announce' in change) {
      if (!admin) throw new AppError('ERR_GROUP_NOT_ADMIN');
      group.announce = change.announce;
    } else {
      if (group.restrict && !admin) throw new AppError('ERR_GROUP_NOT_ADMIN');
      if ('subject' in change) group.subject = change.subject;
      else group.description = change.description;
    }
    this.#phone.saveGroup(group);
  }

  #memberOf(groupId: string): SimGroup {
    const group = this.#phone.group(groupId);
    if (!group?.participants.some((p) => p.number === this.ownNumber)) throw new AppError('ERR_GROUP_NOT_FOUND');
    return group;
  }

  #isAdmin(group: SimGroup): boolean {
    return group.participants.some((p) => p.number === this.ownNumber && p.admin);
  }

  #info(group: SimGroup): GroupInfo {
    return {
      groupId: group.id,
      subject: group.subject,
      description: group.description,
      announce: group.announce,
      restrict: group.restrict,
      participants: group.participants.map((p) => ({ number: p.number, admin: p.admin, me: p.number === this.ownNumber })),
    };
  }

  #requireConnected(): void {
    if (!this.#connected) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  }
}
