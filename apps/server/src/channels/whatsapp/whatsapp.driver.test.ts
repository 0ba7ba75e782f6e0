/**
 * The WhatsApp driver against a fake Baileys socket (never the real WhatsApp server): Baileys-shaped
 * events in, the channel contract's events and socket calls out. Credentials and keys go to the
 * real database of a test app (SQLite, or PostgreSQL with TEST_DATABASE_URL).
 */
import { EventEmitter } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  BufferJSON,
  cleanMessage,
  generateWAMessageContent,
  initAuthCreds,
  proto,
  type AnyMessageContent,
  type BaileysEventMap,
  type GroupMetadata,
  type SignalDataTypeMap,
  type UserFacingSocketConfig,
  type WACallEvent,
  type WAMessage,
  type WAMessageKey,
} from '@whiskeysockets/baileys';
// Baileys' own step that turns an arrived message into its derived events; not re-exported by its index.
import processMessage from '@whiskeysockets/baileys/lib/Utils/process-message.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { DbChannelAuthStore as ChannelAuthStore } from '../../features/whatsapps/channel-auth.repository.js';
import { createConnectionStore } from '../../features/whatsapps/connection-store.js';
import type { ChannelEvents, InboundMessage } from '../channel.js';
import { SessionManager } from '../session-manager.js';
import { chatJid, isIgnoredJid, personJid } from './jid.js';
import { loadWhatsappAuthState, makeDbSignalKeyStore, storedKeyId } from './whatsapp-auth-state.js';
import { WhatsappDriver } from './whatsapp.driver.js';
import { HISTORY_TIMEOUT_MS } from './whatsapp-history.js';
import { MAX_QR_ROUNDS, MAX_RECONNECT_ATTEMPTS, reconnectDelayMs, type MediaDownloader, type WASocketLike } from './whatsapp-socket.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const TS = 1_700_000_000;
const CUSTOMER = '5511988887777';
const CUSTOMER_JID = `${CUSTOMER}@s.whatsapp.net`;
const GROUP_JID = '120363025246125888@g.us';
const NEW_GROUP_JID = '120363000000000001@g.us';
/** The connection's own number, and its LID. */
const OWN = '5511000000001';
const OWN_JID = `${OWN}@s.whatsapp.net`;
const OWN_LID = '99988877766655';

class FakeEv {
  readonly #emitter = new EventEmitter();
  on<T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void): void {
    this.#emitter.on(event, listener);
  }
  off<T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void): void {
    this.#emitter.off(event, listener);
  }
  emit<T extends keyof BaileysEventMap>(event: T, arg: BaileysEventMap[T]): boolean {
    return this.#emitter.emit(event, arg);
  }
}

/** A Baileys socket stand-in: every method records its calls; answers can be changed per test. */
class FakeSocket implements WASocketLike {
  readonly ev = new FakeEv();
  readonly user = { id: `${OWN}:7@s.whatsapp.net`, lid: `${OWN_LID}:7@lid` };
  readonly pnByLid = new Map<string, string>();
  readonly signalRepository = { lidMapping: { getPNForLID: vi.fn(async (lid: string) => this.pnByLid.get(lid) ?? null) } };
  readonly sendMessage = vi.fn<WASocketLike['sendMessage']>(async (jid, _content, options) => ({
    key: { remoteJid: jid, fromMe: true, id: options?.messageId ?? 'NO-ID' },
    messageTimestamp: TS + 60,
  }));
  readonly readMessages = vi.fn<WASocketLike['readMessages']>(async () => undefined);
  readonly logout = vi.fn<WASocketLike['logout']>(async () => undefined);
  readonly end = vi.fn<WASocketLike['end']>(async () => undefined);
  readonly onWhatsApp = vi.fn<WASocketLike['onWhatsApp']>(async (jid) => [{ jid: jid ?? '', exists: true }]);
  readonly requestPairingCode = vi.fn<WASocketLike['requestPairingCode']>(async () => 'ABCD1234');
  readonly profilePictureUrl = vi.fn<WASocketLike['profilePictureUrl']>(async (jid) => `https://pps.example/${jid}.jpg`);
  readonly groupMetadata = vi.fn<WASocketLike['groupMetadata']>(async (jid) => ({ id: jid, subject: 'Support group', owner: undefined, participants: [] }));
  readonly updateMediaMessage = vi.fn<WASocketLike['updateMediaMessage']>(async (m) => m);
  readonly groupFetchAllParticipating = vi.fn<WASocketLike['groupFetchAllParticipating']>(async () => ({}));
  /** Adds everyone asked for, the connection's number as the group's creator. */
  readonly groupCreate = vi.fn<WASocketLike['groupCreate']>(async (subject, participants) => ({
    id: NEW_GROUP_JID,
    subject,
    owner: OWN_JID,
    participants: [{ id: OWN_JID, admin: 'superadmin' as const }, ...participants.map((id) => ({ id, admin: null }))],
  }));
  readonly groupUpdateSubject = vi.fn<WASocketLike['groupUpdateSubject']>(async () => undefined);
  readonly groupUpdateDescription = vi.fn<WASocketLike['groupUpdateDescription']>(async () => undefined);
  readonly groupSettingUpdate = vi.fn<WASocketLike['groupSettingUpdate']>(async () => undefined);
  readonly rejectCall = vi.fn<WASocketLike['rejectCall']>(async () => undefined);

  constructor(readonly config: UserFacingSocketConfig) {}

  connection(update: BaileysEventMap['connection.update']): void {
    this.ev.emit('connection.update', update);
  }

  close(statusCode: number, message = `closed ${statusCode}`): void {
    // Baileys closes with a Boom; the driver reads only output.statusCode and the message.
    this.connection({ connection: 'close', lastDisconnect: { error: Object.assign(new Error(message), { output: { statusCode } }), date: new Date() } });
  }

  upsert(messages: WAMessage[], type: 'notify' | 'append' = 'notify'): void {
    this.ev.emit('messages.upsert', { messages, type });
  }
}

type Seen = { [K in keyof ChannelEvents]: Parameters<ChannelEvents[K]>[] };

function record(driver: WhatsappDriver): Seen {
  const seen: Seen = { qr: [], pairingCode: [], status: [], message: [], ack: [], revoke: [], edit: [], reaction: [], contact: [], call: [] };
  driver.on('qr', (...args) => seen.qr.push(args));
  driver.on('pairingCode', (...args) => seen.pairingCode.push(args));
  driver.on('status', (...args) => seen.status.push(args));
  driver.on('message', (...args) => void seen.message.push(args));
  driver.on('ack', (...args) => seen.ack.push(args));
  driver.on('revoke', (...args) => seen.revoke.push(args));
  driver.on('edit', (...args) => seen.edit.push(args));
  driver.on('reaction', (...args) => seen.reaction.push(args));
  driver.on('contact', (...args) => seen.contact.push(args));
  driver.on('call', (...args) => void seen.call.push(args));
  return seen;
}

async function setup(options: { download?: MediaDownloader; historyTimeoutMs?: number } = {}) {
  const { id } = await t.insertWhatsapp();
  const auth = new ChannelAuthStore(t.ctx.db, id);
  const sockets: FakeSocket[] = [];
  const download = vi.fn<MediaDownloader>(options.download ?? (async () => Buffer.from('media-bytes')));
  const driver = new WhatsappDriver({
    whatsappId: id,
    auth,
    downloadMedia: download,
    ...(options.historyTimeoutMs ? { historyTimeoutMs: options.historyTimeoutMs } : {}),
    makeSocket: (config) => {
      const s = new FakeSocket(config);
      sockets.push(s);
      return s;
    },
  });
  const seen = record(driver);
  await driver.start();
  const sock = () => {
    const s = sockets.at(-1);
    if (!s) throw new Error('no socket was made');
    return s;
  };
  return { id, auth, driver, sockets, sock, seen, download };
}

async function connected(options: { download?: MediaDownloader; historyTimeoutMs?: number } = {}) {
  const s = await setup(options);
  s.sock().connection({ connection: 'open' });
  await s.driver.idle();
  return s;
}

async function authRows(whatsappId: number): Promise<{ type: string; keyId: string }[]> {
  return t.ctx.db.selectFrom('channelAuth').select(['type', 'keyId']).where('whatsappId', '=', whatsappId).orderBy('type').orderBy('keyId').execute();
}

function msg(options: {
  id: string;
  remoteJid?: string;
  fromMe?: boolean;
  participant?: string;
  remoteJidAlt?: string;
  participantAlt?: string;
  pushName?: string;
  message?: proto.IMessage | null;
  messageStubType?: number;
}): WAMessage {
  const key: WAMessageKey = {
    remoteJid: options.remoteJid ?? CUSTOMER_JID,
    fromMe: options.fromMe ?? false,
    id: options.id,
    ...(options.participant ? { participant: options.participant } : {}),
    ...(options.remoteJidAlt ? { remoteJidAlt: options.remoteJidAlt } : {}),
    ...(options.participantAlt ? { participantAlt: options.participantAlt } : {}),
  };
  return {
    key,
    messageTimestamp: TS,
    ...(options.pushName ? { pushName: options.pushName } : {}),
    ...(options.message !== undefined ? { message: options.message } : {}),
    ...(options.messageStubType !== undefined ? { messageStubType: options.messageStubType } : {}),
  };
}

/** What a plain message from the customer becomes, with the fields a test overrides. */
function fromCustomer(fields: Partial<InboundMessage>): InboundMessage {
  return { providerId: 'X', chat: { kind: 'person', number: CUSTOMER }, sender: { number: CUSTOMER, name: 'Maria' }, fromMe: false, body: '', timestamp: new Date(TS * 1000), ...fields };
}

async function receive(s: Awaited<ReturnType<typeof connected>>, message: WAMessage): Promise<InboundMessage[]> {
  const before = s.seen.message.length;
  s.sock().upsert([message]);
  await s.driver.idle();
  return s.seen.message.slice(before).map(([m]) => m);
}

describe('WhatsApp auth state in the database', () => {
  it('round-trips credentials with their Buffers through a saved row', async () => {
    const { id } = await t.insertWhatsapp();
    const store = new ChannelAuthStore(t.ctx.db, id);
    const first = await loadWhatsappAuthState(store);
    expect(first.state.creds.registered).toBe(false);
    expect(await authRows(id)).toEqual([]);
    first.state.creds.me = { id: '5511000000001:7@s.whatsapp.net', lid: '98765432109876:7@lid', name: 'Shop' };
    await first.saveCreds();
    expect(await authRows(id)).toEqual([{ type: 'creds', keyId: 'creds' }]);

    const again = await loadWhatsappAuthState(store);
    const { creds } = again.state;
    expect(creds.me).toEqual({ id: '5511000000001:7@s.whatsapp.net', lid: '98765432109876:7@lid', name: 'Shop' });
    expect(Buffer.isBuffer(creds.noiseKey.private)).toBe(true);
    expect(Buffer.from(creds.noiseKey.private).equals(Buffer.from(first.state.creds.noiseKey.private))).toBe(true);
    expect(Buffer.from(creds.signedPreKey.signature).equals(Buffer.from(first.state.creds.signedPreKey.signature))).toBe(true);
    expect(creds.registrationId).toBe(first.state.creds.registrationId);
    expect(creds.advSecretKey).toBe(first.state.creds.advSecretKey);
  });

  it('writes each key as a row, reads it back with its Buffers, and deletes it on null', async () => {
    const { id } = await t.insertWhatsapp();
    const store = new ChannelAuthStore(t.ctx.db, id);
    const keys = makeDbSignalKeyStore(store);
    const preKey: SignalDataTypeMap['pre-key'] = { public: Buffer.from([1, 2, 3]), private: Buffer.from([4, 5, 6]) };
    const session = new Uint8Array([9, 8, 7, 6]);
    const syncKey: SignalDataTypeMap['app-state-sync-key'] = { keyData: Buffer.from('sync-key-bytes'), fingerprint: { rawId: 7, currentIndex: 1, deviceIndexes: [0, 1] }, timestamp: 1699999999 };
    const longId = `120363025246125888@g.us::${'9'.repeat(200)}@lid::0`;
    await keys.set({
      'pre-key': { '1': preKey, '2': { public: Buffer.from([0]), private: Buffer.from([1]) } },
      session: { '5511988887777.0': session },
      'app-state-sync-key': { AAAAAFx1: syncKey },
      'lid-mapping': { '5511988887777': '98765432109876', '98765432109876_reverse': '5511988887777' },
      'sender-key': { [longId]: new Uint8Array([42]) },
    });
    expect(await authRows(id)).toEqual(
      [
        { type: 'app-state-sync-key', keyId: 'AAAAAFx1' },
        { type: 'lid-mapping', keyId: '5511988887777' },
        { type: 'lid-mapping', keyId: '98765432109876_reverse' },
        { type: 'pre-key', keyId: '1' },
        { type: 'pre-key', keyId: '2' },
        { type: 'sender-key', keyId: storedKeyId(longId) },
        { type: 'session', keyId: '5511988887777.0' },
      ].sort((a, b) => (a.type === b.type ? (a.keyId < b.keyId ? -1 : 1) : a.type < b.type ? -1 : 1)),
    );
    expect(storedKeyId(longId)).toMatch(/^sha256:[0-9a-f]{64}$/);

    const fresh = makeDbSignalKeyStore(new ChannelAuthStore(t.ctx.db, id));
    const preKeys = await fresh.get('pre-key', ['1', 'missing']);
    expect(Object.keys(preKeys)).toEqual(['1']);
    expect(Buffer.isBuffer(preKeys['1']?.public)).toBe(true);
    expect([...(preKeys['1']?.public ?? [])]).toEqual([1, 2, 3]);
    expect([...(preKeys['1']?.private ?? [])]).toEqual([4, 5, 6]);
    expect([...((await fresh.get('session', ['5511988887777.0']))['5511988887777.0'] ?? [])]).toEqual([9, 8, 7, 6]);
    expect(await fresh.get('lid-mapping', ['98765432109876_reverse'])).toEqual({ '98765432109876_reverse': '5511988887777' });
    expect([...((await fresh.get('sender-key', [longId]))[longId] ?? [])]).toEqual([42]);
    const sync = (await fresh.get('app-state-sync-key', ['AAAAAFx1'])).AAAAAFx1;
    expect(sync).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect(Buffer.from(sync?.keyData ?? []).toString()).toBe('sync-key-bytes');
    expect(sync?.fingerprint?.deviceIndexes).toEqual([0, 1]);

    await fresh.set({ 'pre-key': { '1': null }, 'lid-mapping': { '5511988887777': null } });
    expect((await authRows(id)).map((r) => `${r.type}/${r.keyId}`)).not.toContain('pre-key/1');
    expect(await fresh.get('pre-key', ['1', '2'])).toEqual({ '2': { public: Buffer.from([0]), private: Buffer.from([1]) } });
    expect(await authRows(id)).toHaveLength(5);
  });

  it('stores values exactly as BufferJSON writes them', async () => {
    const { id } = await t.insertWhatsapp();
    const store = new ChannelAuthStore(t.ctx.db, id);
    await makeDbSignalKeyStore(store).set({ 'identity-key': { '5511988887777.0': Buffer.from([255, 0]) } });
    expect(await store.getOne('identity-key', '5511988887777.0')).toBe(JSON.stringify(Buffer.from([255, 0]), BufferJSON.replacer));
    expect(await store.getOne('identity-key', '5511988887777.0')).toBe('{"type":"Buffer","data":"/wA="}');
  });

  it('serves keys through the cache, and after clear() forgets everything and ignores late writes', async () => {
    const { id } = await t.insertWhatsapp();
    const store = new ChannelAuthStore(t.ctx.db, id);
    const auth = await loadWhatsappAuthState(store);
    await auth.state.keys.set({ 'pre-key': { '5': { public: Buffer.from([5]), private: Buffer.from([6]) } } });
    await auth.saveCreds();
    expect(await authRows(id)).toEqual([
      { type: 'creds', keyId: 'creds' },
      { type: 'pre-key', keyId: '5' },
    ]);
    expect([...((await auth.state.keys.get('pre-key', ['5']))['5']?.private ?? [])]).toEqual([6]);

    await auth.clear();
    expect(await authRows(id)).toEqual([]);
    await auth.saveCreds();
    await auth.state.keys.set({ 'pre-key': { '6': { public: Buffer.from([1]), private: Buffer.from([2]) } } });
    expect(await authRows(id)).toEqual([]);
    expect(await auth.state.keys.get('pre-key', ['5'])).toEqual({});
  });
});

describe('WhatsApp addresses', () => {
  it('builds JIDs only from digits and group ids', () => {
    expect(chatJid({ kind: 'person', number: CUSTOMER })).toBe(CUSTOMER_JID);
    expect(chatJid({ kind: 'person', number: '98765432109876' }, { viaLid: true })).toBe('98765432109876@lid');
    expect(chatJid({ kind: 'group', groupId: '120363025246125888' })).toBe(GROUP_JID);
    expect(chatJid({ kind: 'group', groupId: '5511999999999-1609459200' })).toBe('5511999999999-1609459200@g.us');
    expect(() => personJid('5511 9888-7777')).toThrow(expect.objectContaining({ code: 'ERR_WAPP_INVALID_CONTACT' }));
    expect(() => personJid('5511@g.us')).toThrow(expect.objectContaining({ code: 'ERR_WAPP_INVALID_CONTACT' }));
    expect(() => chatJid({ kind: 'group', groupId: 'abc@g.us' })).toThrow(expect.objectContaining({ code: 'ERR_WAPP_INVALID_CONTACT' }));
  });

  it('ignores status stories, broadcast lists and channels', () => {
    expect(isIgnoredJid('status@broadcast')).toBe(true);
    expect(isIgnoredJid('1699999999@broadcast')).toBe(true);
    expect(isIgnoredJid('120363144038483540@newsletter')).toBe(true);
    expect(isIgnoredJid(undefined)).toBe(true);
    expect(isIgnoredJid(CUSTOMER_JID)).toBe(false);
    expect(isIgnoredJid('98765432109876@lid')).toBe(false);
    expect(isIgnoredJid(GROUP_JID)).toBe(false);
  });
});

describe('WhatsApp driver: connection', () => {
  it('opens a socket on the stored auth state, without announcing presence or asking for full history', async () => {
    const s = await setup();
    expect(s.sockets).toHaveLength(1);
    const { config } = s.sock();
    expect(config.markOnlineOnConnect).toBe(false);
    expect(config.syncFullHistory).toBe(false);
    expect(config.auth.creds.registered).toBe(false);
    expect(typeof config.getMessage).toBe('function');
    expect(await config.getMessage?.({ remoteJid: CUSTOMER_JID, id: 'UNKNOWN', fromMe: false })).toBeUndefined();
    expect(s.seen.status).toEqual([['OPENING', undefined]]);
  });

  it('hands on each QR code with status qrcode, then CONNECTED with the QR cleared', async () => {
    const s = await setup();
    s.sock().connection({ connection: 'connecting', qr: undefined });
    s.sock().connection({ qr: '2@first-qr' });
    s.sock().connection({ qr: '2@second-qr' });
    await s.driver.idle();
    expect(s.seen.qr).toEqual([['2@first-qr'], ['2@second-qr']]);
    expect(s.seen.status.map(([status]) => status)).toEqual(['OPENING', 'qrcode', 'qrcode']);
    s.sock().connection({ connection: 'open' });
    await s.driver.idle();
    expect(s.seen.qr.at(-1)).toEqual(['']);
    expect(s.seen.status.at(-1)).toEqual(['CONNECTED', { retries: 0 }]);
    expect(s.driver.connected).toBe(true);
  });

  it('saves the credentials on creds.update', async () => {
    const s = await setup();
    expect(await authRows(s.id)).toEqual([]);
    s.sock().config.auth.creds.me = { id: '5511000000001:7@s.whatsapp.net', name: 'Shop' };
    s.sock().ev.emit('creds.update', { me: { id: '5511000000001:7@s.whatsapp.net', name: 'Shop' } });
    await vi.waitFor(async () => expect(await authRows(s.id)).toEqual([{ type: 'creds', keyId: 'creds' }]));
    const saved = await s.auth.getOne('creds', 'creds');
    expect(JSON.parse(saved ?? '{}').me).toEqual({ id: '5511000000001:7@s.whatsapp.net', name: 'Shop' });
  });

  it('after pairing (close 515) opens a new socket at once on the same credentials', async () => {
    const s = await setup();
    s.sock().connection({ qr: '2@qr' });
    s.sock().connection({ isNewLogin: true, qr: undefined });
    const first = s.sock();
    first.close(515, 'Stream Errored (restart required)');
    await s.driver.idle();
    expect(s.sockets).toHaveLength(2);
    expect(s.sock().config.auth.creds).toBe(first.config.auth.creds);
    expect(s.seen.status.map(([status]) => status)).toEqual(['OPENING', 'qrcode', 'PAIRING']);
    s.sock().connection({ connection: 'connecting' });
    s.sock().connection({ connection: 'open' });
    await s.driver.idle();
    expect(s.seen.status.map(([status]) => status)).toEqual(['OPENING', 'qrcode', 'PAIRING', 'OPENING', 'CONNECTED']);
  });

  it('on close 401 forgets the credentials, reports DISCONNECTED loggedOut and does not reconnect', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const s = await connected();
    await s.sock().config.auth.keys.set({ 'pre-key': { '1': { public: Buffer.from([1]), private: Buffer.from([2]) } } });
    await s.auth.set([{ type: 'creds', id: 'creds', value: '{}' }]);
    expect(await authRows(s.id)).toHaveLength(2);
    s.sock().close(401, 'Intentional Logout');
    await s.driver.idle();
    expect(await authRows(s.id)).toEqual([]);
    expect(s.seen.status.at(-1)).toEqual(['DISCONNECTED', { loggedOut: true, reason: 'Intentional Logout' }]);
    vi.advanceTimersByTime(10 * 60_000);
    await s.driver.idle();
    expect(s.sockets).toHaveLength(1);
    expect(s.driver.connected).toBe(false);
  });

  it('on close 403 also forgets the credentials', async () => {
    const s = await connected();
    await s.auth.set([{ type: 'creds', id: 'creds', value: '{}' }]);
    s.sock().close(403);
    await s.driver.idle();
    expect(await authRows(s.id)).toEqual([]);
    expect(s.seen.status.at(-1)).toEqual(['DISCONNECTED', { loggedOut: true, reason: 'closed 403' }]);
    expect(s.sockets).toHaveLength(1);
  });

  it('on close 440 (another socket took the session) stays disconnected and keeps the credentials', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const s = await connected();
    await s.auth.set([{ type: 'creds', id: 'creds', value: '{}' }]);
    s.sock().close(440, 'Stream Errored (conflict)');
    await s.driver.idle();
    expect(s.seen.status.at(-1)).toEqual(['DISCONNECTED', { reason: 'Stream Errored (conflict)' }]);
    vi.advanceTimersByTime(10 * 60_000);
    expect(s.sockets).toHaveLength(1);
    expect(await authRows(s.id)).toEqual([{ type: 'creds', keyId: 'creds' }]);
  });

  it('reconnects after other closes with a growing delay, counting the attempts, and gives up at the cap', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const s = await connected();
    s.sock().close(428, 'Connection Terminated');
    await s.driver.idle();
    expect(s.seen.status.at(-1)).toEqual(['DISCONNECTED', { reason: 'Connection Terminated', retries: 1 }]);
    vi.advanceTimersByTime(999);
    expect(s.sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(s.sockets).toHaveLength(2);

    s.sock().close(408, 'Connection was lost');
    await s.driver.idle();
    expect(s.seen.status.at(-1)).toEqual(['DISCONNECTED', { reason: 'Connection was lost', retries: 2 }]);
    vi.advanceTimersByTime(1999);
    expect(s.sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(s.sockets).toHaveLength(3);

    s.sock().connection({ connection: 'open' });
    await s.driver.idle();
    expect(s.seen.status.at(-1)).toEqual(['CONNECTED', { retries: 0 }]);
    s.sock().close(500, 'bad session');
    await s.driver.idle();
    expect(s.seen.status.at(-1)).toEqual(['DISCONNECTED', { reason: 'bad session', retries: 1 }]);

    expect([1, 2, 3, 6, 7, 8, 15].map(reconnectDelayMs)).toEqual([1000, 2000, 4000, 32000, 60000, 60000, 60000]);
    for (let attempt = 1; attempt < MAX_RECONNECT_ATTEMPTS; attempt += 1) {
      vi.advanceTimersByTime(reconnectDelayMs(attempt));
      s.sock().close(503, 'unavailable');
      await s.driver.idle();
    }
    expect(s.seen.status.at(-1)).toEqual(['DISCONNECTED', { reason: 'unavailable', retries: MAX_RECONNECT_ATTEMPTS }]);
    const sockets = s.sockets.length;
    vi.advanceTimersByTime(reconnectDelayMs(MAX_RECONNECT_ATTEMPTS));
    s.sock().close(503, 'unavailable');
    await s.driver.idle();
    expect(s.seen.status.at(-1)).toEqual(['DISCONNECTED', { reason: `gave up reconnecting after ${MAX_RECONNECT_ATTEMPTS} attempts: unavailable`, retries: MAX_RECONNECT_ATTEMPTS }]);
    vi.advanceTimersByTime(10 * 60_000);
    expect(s.sockets).toHaveLength(sockets + 1);
  });

  it('starts a new round of QR codes when one runs out, and reports TIMEOUT after the last round', async () => {
    const s = await setup();
    for (let round = 1; round <= MAX_QR_ROUNDS; round += 1) {
      s.sock().connection({ qr: `2@qr-round-${round}` });
      s.sock().close(408, 'QR refs attempts ended');
      await s.driver.idle();
    }
    expect(s.sockets).toHaveLength(MAX_QR_ROUNDS);
    expect(s.seen.qr).toEqual(Array.from({ length: MAX_QR_ROUNDS }, (_, i) => [`2@qr-round-${i + 1}`]));
    expect(s.seen.status.at(-1)).toEqual(['TIMEOUT', { reason: 'nobody scanned the QR code' }]);
    expect(s.seen.status.filter(([status]) => status === 'DISCONNECTED')).toEqual([]);
  });

  it('stop() ends the socket without unlinking; what the old socket says afterwards is ignored', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const s = await connected();
    await s.auth.set([{ type: 'creds', id: 'creds', value: '{}' }]);
    const sock = s.sock();
    await s.driver.stop();
    expect(sock.end).toHaveBeenCalledWith(undefined);
    expect(sock.logout).not.toHaveBeenCalled();
    sock.close(428);
    sock.upsert([msg({ id: 'LATE', message: { conversation: 'late' } })]);
    await s.driver.idle();
    vi.advanceTimersByTime(10 * 60_000);
    expect(s.sockets).toHaveLength(1);
    expect(s.seen.message).toEqual([]);
    expect(s.seen.status.at(-1)).toEqual(['CONNECTED', { retries: 0 }]);
    expect(await authRows(s.id)).toEqual([{ type: 'creds', keyId: 'creds' }]);
    await expect(s.driver.send({ kind: 'person', number: CUSTOMER }, { kind: 'text', body: 'hi' }, { providerId: s.driver.newMessageId() })).rejects.toMatchObject({
      code: 'ERR_WAPP_NOT_INITIALIZED',
    });
  });

  it('logout() unlinks the device and forgets the credentials', async () => {
    const s = await connected();
    await s.auth.set([{ type: 'creds', id: 'creds', value: '{}' }]);
    const sock = s.sock();
    await s.driver.logout();
    expect(sock.logout).toHaveBeenCalledTimes(1);
    sock.close(401, 'Intentional Logout');
    await s.driver.idle();
    expect(await authRows(s.id)).toEqual([]);
    expect(s.seen.status.filter(([status]) => status === 'DISCONNECTED')).toEqual([['DISCONNECTED', { loggedOut: true }]]);
  });

  it('asks for a pairing code while waiting to be linked', async () => {
    const s = await setup();
    s.sock().connection({ qr: '2@qr' });
    expect(await s.driver.requestPairingCode('+55 (11) 98888-7777')).toBe('ABCD1234');
    expect(s.sock().requestPairingCode).toHaveBeenCalledWith('5511988887777');
    expect(s.seen.pairingCode).toEqual([['ABCD1234']]);
    s.sock().requestPairingCode.mockRejectedValueOnce(new Error('rate-overlimit'));
    await expect(s.driver.requestPairingCode('5511988887777')).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
  });

  it('the session manager stores the retries the driver counts', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { id } = await t.insertWhatsapp();
    const sockets: FakeSocket[] = [];
    const makeSocket = (config: UserFacingSocketConfig) => {
      const sock = new FakeSocket(config);
      sockets.push(sock);
      return sock;
    };
    const sessions = new SessionManager(t.ctx, createConnectionStore(t.ctx.db), ({ whatsappId, auth }) => new WhatsappDriver({ whatsappId, auth, makeSocket }));
    await sessions.start(id);
    const row = async () => t.ctx.db.selectFrom('whatsapps').select(['status', 'retries', 'qrcode']).where('id', '=', id).executeTakeFirstOrThrow();
    sockets[0]?.connection({ qr: '2@qr' });
    await vi.waitFor(async () => expect(await row()).toEqual({ status: 'qrcode', retries: 0, qrcode: '2@qr' }));
    sockets[0]?.connection({ connection: 'open' });
    await vi.waitFor(async () => expect(await row()).toEqual({ status: 'CONNECTED', retries: 0, qrcode: '' }));
    sockets[0]?.close(428);
    await vi.waitFor(async () => expect(await row()).toEqual({ status: 'DISCONNECTED', retries: 1, qrcode: '' }));
    vi.advanceTimersByTime(1000);
    sockets[1]?.close(428);
    await vi.waitFor(async () => expect(await row()).toEqual({ status: 'DISCONNECTED', retries: 2, qrcode: '' }));
    // A restart (the Retry button) is a new driver counting from zero: the row follows its count.
    await sessions.start(id);
    expect(sockets).toHaveLength(3);
    sockets[2]?.close(428);
    await vi.waitFor(async () => expect(await row()).toEqual({ status: 'DISCONNECTED', retries: 1, qrcode: '' }));
    await sessions.closeAll();
  });
});

describe('WhatsApp driver: inbound messages', () => {
  it('hands on a text message with the sender and the push name', async () => {
    const s = await connected();
    expect(await receive(s, msg({ id: 'TXT1', pushName: 'Maria', message: { conversation: 'Hello there' } }))).toEqual([fromCustomer({ providerId: 'TXT1', body: 'Hello there' })]);
  });

  it('hands on an extended text with the id of the message it quotes', async () => {
    const s = await connected();
    const received = await receive(
      s,
      msg({
        id: 'TXT2',
        pushName: 'Maria',
        message: { extendedTextMessage: { text: 'About this one', contextInfo: { stanzaId: 'QUOTED1', participant: CUSTOMER_JID, quotedMessage: { conversation: 'older' } } } },
      }),
    );
    expect(received).toEqual([fromCustomer({ providerId: 'TXT2', body: 'About this one', quotedProviderId: 'QUOTED1' })]);
  });

  it('unwraps disappearing and view-once wrappers', async () => {
    const s = await connected();
    const received = await receive(s, msg({ id: 'EPH1', pushName: 'Maria', message: { ephemeralMessage: { message: { extendedTextMessage: { text: 'Vanishing' } } } } }));
    expect(received).toEqual([fromCustomer({ providerId: 'EPH1', body: 'Vanishing' })]);
  });

  it('hands on an image with its caption, and loads the bytes only when asked', async () => {
    const s = await connected({ download: async () => Buffer.from('jpeg-bytes') });
    const message = msg({ id: 'IMG1', pushName: 'Maria', message: { imageMessage: { caption: 'My receipt', mimetype: 'image/jpeg', contextInfo: { stanzaId: 'Q9' } } } });
    const [received] = await receive(s, message);
    expect(received).toEqual(
      fromCustomer({ providerId: 'IMG1', body: 'My receipt', quotedProviderId: 'Q9', media: { mediaType: 'image', mimetype: 'image/jpeg', filename: 'image.jpg', load: expect.any(Function) } }),
    );
    expect(s.download).not.toHaveBeenCalled();
    expect((await received?.media?.load())?.toString()).toBe('jpeg-bytes');
    expect(s.download).toHaveBeenCalledTimes(1);
    const [downloaded, context] = s.download.mock.calls[0] ?? [];
    expect(downloaded).toBe(message);
    const reuploaded = await context?.reuploadRequest(message);
    expect(reuploaded).toBe(message);
    expect(s.sock().updateMediaMessage).toHaveBeenCalledWith(message);
  });

  it('turns a failed download into ERR_WAPP_DOWNLOAD_MEDIA, keeping the message', async () => {
    const s = await connected({ download: async () => Promise.reject(new Error('410 gone')) });
    const [received] = await receive(s, msg({ id: 'IMG2', message: { imageMessage: { mimetype: 'image/png' } } }));
    expect(received?.media).toEqual({ mediaType: 'image', mimetype: 'image/png', filename: 'image.png', load: expect.any(Function) });
    await expect(received?.media?.load()).rejects.toMatchObject({ code: 'ERR_WAPP_DOWNLOAD_MEDIA' });
  });

  it('hands on voice notes, audio, video, documents and stickers as media', async () => {
    const s = await connected();
    const cases: [proto.IMessage, Partial<InboundMessage>][] = [
      [
        { audioMessage: { ptt: true, mimetype: 'audio/ogg; codecs=opus', seconds: 4 } },
        { body: '', media: { mediaType: 'audio', mimetype: 'audio/ogg; codecs=opus', filename: 'voice.ogg', load: expect.any(Function) } },
      ],
      [{ audioMessage: { ptt: false, mimetype: 'audio/mpeg' } }, { body: '', media: { mediaType: 'audio', mimetype: 'audio/mpeg', filename: 'audio.mp3', load: expect.any(Function) } }],
      [{ videoMessage: { caption: 'Look', mimetype: 'video/mp4' } }, { body: 'Look', media: { mediaType: 'video', mimetype: 'video/mp4', filename: 'video.mp4', load: expect.any(Function) } }],
      [
        { documentMessage: { fileName: 'invoice-42.pdf', mimetype: 'application/pdf', caption: 'Invoice' } },
        { body: 'Invoice', media: { mediaType: 'other', mimetype: 'application/pdf', filename: 'invoice-42.pdf', load: expect.any(Function) } },
      ],
      [
        { documentWithCaptionMessage: { message: { documentMessage: { fileName: 'terms.pdf', mimetype: 'application/pdf', caption: 'Terms' } } } },
        { body: 'Terms', media: { mediaType: 'other', mimetype: 'application/pdf', filename: 'terms.pdf', load: expect.any(Function) } },
      ],
      [{ stickerMessage: { mimetype: 'image/webp' } }, { body: '', media: { mediaType: 'image', mimetype: 'image/webp', filename: 'sticker.webp', load: expect.any(Function) } }],
    ];
    for (const [index, [message, expected]] of cases.entries()) {
      expect(await receive(s, msg({ id: `MEDIA${index}`, pushName: 'Maria', message }))).toEqual([fromCustomer({ providerId: `MEDIA${index}`, ...expected })]);
    }
  });

  it('hands on a location with its name and address', async () => {
    const s = await connected();
    const received = await receive(
      s,
      msg({ id: 'LOC1', pushName: 'Maria', message: { locationMessage: { degreesLatitude: -23.5505, degreesLongitude: -46.6333, name: 'Shop', address: 'Av. Paulista, 1000' } } }),
    );
    expect(received).toEqual([fromCustomer({ providerId: 'LOC1', location: { latitude: -23.5505, longitude: -46.6333, description: 'Shop\nAv. Paulista, 1000' } })]);
    const bare = await receive(s, msg({ id: 'LOC2', pushName: 'Maria', message: { locationMessage: { degreesLatitude: 1.5, degreesLongitude: 2.5 } } }));
    expect(bare).toEqual([fromCustomer({ providerId: 'LOC2', location: { latitude: 1.5, longitude: 2.5 } })]);
  });

  it('hands on contact cards as vcards', async () => {
    const s = await connected();
    const card = 'BEGIN:VCARD\nVERSION:3.0\nFN:João\nTEL;type=CELL;waid=5511977776666:+55 11 97777-6666\nEND:VCARD';
    const other = 'BEGIN:VCARD\nVERSION:3.0\nFN:Ana\nEND:VCARD';
    expect(await receive(s, msg({ id: 'VC1', pushName: 'Maria', message: { contactMessage: { displayName: 'João', vcard: card } } }))).toEqual([
      fromCustomer({ providerId: 'VC1', body: 'João', vcard: card }),
    ]);
    expect(await receive(s, msg({ id: 'VC2', pushName: 'Maria', message: { contactsArrayMessage: { displayName: '2 contacts', contacts: [{ vcard: card }, { vcard: other }] } } }))).toEqual([
      fromCustomer({ providerId: 'VC2', body: '2 contacts', vcard: `${card}\n${other}` }),
    ]);
  });

  it('hands on a message typed on the phone as fromMe, without a sender', async () => {
    const s = await connected();
    const received = await receive(s, msg({ id: 'OWN1', fromMe: true, pushName: 'Shop', message: { conversation: 'Sent from the phone' } }));
    expect(received).toEqual([{ providerId: 'OWN1', chat: { kind: 'person', number: CUSTOMER }, fromMe: true, body: 'Sent from the phone', timestamp: new Date(TS * 1000) }]);
  });

  it('hands on group messages with the participant as sender and the subject read once per group', async () => {
    const s = await connected();
    const first = await receive(s, msg({ id: 'GRP1', remoteJid: GROUP_JID, participant: '5511977776666@s.whatsapp.net', pushName: 'João', message: { conversation: 'Hi all' } }));
    expect(first).toEqual([
      {
        providerId: 'GRP1',
        chat: { kind: 'group', groupId: '120363025246125888' },
        sender: { number: '5511977776666', name: 'João' },
        fromMe: false,
        body: 'Hi all',
        group: { subject: 'Support group' },
        timestamp: new Date(TS * 1000),
      },
    ]);
    s.sock().ev.emit('groups.update', [{ id: GROUP_JID, subject: 'Renamed group' }]);
    const second = await receive(s, msg({ id: 'GRP2', remoteJid: GROUP_JID, participant: '98765432109876@lid', participantAlt: '5511955554444@s.whatsapp.net', message: { conversation: 'Me too' } }));
    expect(second).toEqual([
      {
        providerId: 'GRP2',
        chat: { kind: 'group', groupId: '120363025246125888' },
        sender: { number: '5511955554444' },
        fromMe: false,
        body: 'Me too',
        group: { subject: 'Renamed group' },
        timestamp: new Date(TS * 1000),
      },
    ]);
    expect(s.sock().groupMetadata).toHaveBeenCalledTimes(1);
    expect(s.sock().groupMetadata).toHaveBeenCalledWith(GROUP_JID);
    expect(await s.sock().config.cachedGroupMetadata?.(GROUP_JID)).toMatchObject({ id: GROUP_JID, subject: 'Renamed group' });
  });

  it('hands on a group message without a subject when the metadata cannot be read, and does not ask again per message', async () => {
    const s = await connected();
    s.sock().groupMetadata.mockRejectedValue(new Error('rate-overlimit'));
    const first = await receive(s, msg({ id: 'GRP3', remoteJid: GROUP_JID, participant: '5511977776666@s.whatsapp.net', message: { conversation: 'one' } }));
    await receive(s, msg({ id: 'GRP4', remoteJid: GROUP_JID, participant: '5511977776666@s.whatsapp.net', message: { conversation: 'two' } }));
    expect(first[0]?.group).toBeUndefined();
    expect(first[0]?.chat).toEqual({ kind: 'group', groupId: '120363025246125888' });
    expect(s.sock().groupMetadata).toHaveBeenCalledTimes(1);
  });

  it('keys a LID-addressed sender on the phone number from remoteJidAlt', async () => {
    const s = await connected();
    const received = await receive(s, msg({ id: 'LID1', remoteJid: '98765432109876@lid', remoteJidAlt: CUSTOMER_JID, pushName: 'Maria', message: { conversation: 'via lid' } }));
    expect(received).toEqual([fromCustomer({ providerId: 'LID1', body: 'via lid' })]);
    expect(s.sock().signalRepository.lidMapping.getPNForLID).not.toHaveBeenCalled();
  });

  it('keys a LID-only sender on the phone number from the stored LID mapping', async () => {
    const s = await connected();
    s.sock().pnByLid.set('98765432109876@lid', `${CUSTOMER}:3@s.whatsapp.net`);
    const received = await receive(s, msg({ id: 'LID2', remoteJid: '98765432109876@lid', pushName: 'Maria', message: { conversation: 'mapped' } }));
    expect(received).toEqual([fromCustomer({ providerId: 'LID2', body: 'mapped' })]);
    expect(s.sock().signalRepository.lidMapping.getPNForLID).toHaveBeenCalledWith('98765432109876@lid');
  });

  it('falls back to the LID digits when no phone number is known, and replies go to the LID', async () => {
    const s = await connected();
    const received = await receive(s, msg({ id: 'LID3', remoteJid: '11122233344455@lid', pushName: 'Ghost', message: { conversation: 'who am I' } }));
    expect(received).toEqual([
      { providerId: 'LID3', chat: { kind: 'person', number: '11122233344455' }, sender: { number: '11122233344455', name: 'Ghost' }, fromMe: false, body: 'who am I', timestamp: new Date(TS * 1000) },
    ]);
    expect(await s.auth.getOne('zapdesk-lid-only', '11122233344455')).toBe('1');

    await s.driver.send({ kind: 'person', number: '11122233344455' }, { kind: 'text', body: 'Hello' }, { providerId: s.driver.newMessageId() });
    expect(s.sock().sendMessage.mock.calls.at(-1)?.[0]).toBe('11122233344455@lid');

    // After a restart, a new driver of the same connection remembers it from the database.
    const later = new FakeSocket(s.sock().config);
    const restarted = new WhatsappDriver({ whatsappId: s.id, auth: new ChannelAuthStore(t.ctx.db, s.id), makeSocket: () => later });
    await restarted.start();
    later.connection({ connection: 'open' });
    await restarted.idle();
    await restarted.send({ kind: 'person', number: '11122233344455' }, { kind: 'text', body: 'After restart' }, { providerId: restarted.newMessageId() });
    expect(later.sendMessage.mock.calls[0]?.[0]).toBe('11122233344455@lid');
    await restarted.stop();

    // Once WhatsApp tells the phone number, replies go there.
    s.sock().pnByLid.set('11122233344455@lid', '5511944443333@s.whatsapp.net');
    await s.driver.send({ kind: 'person', number: '11122233344455' }, { kind: 'text', body: 'Again' }, { providerId: s.driver.newMessageId() });
    expect(s.sock().sendMessage.mock.calls.at(-1)?.[0]).toBe('5511944443333@s.whatsapp.net');
  });

  it('hands a redelivered message on once', async () => {
    const s = await connected();
    const message = msg({ id: 'DUP1', pushName: 'Maria', message: { conversation: 'once' } });
    s.sock().upsert([message], 'notify');
    s.sock().upsert([message], 'append');
    s.sock().upsert([msg({ id: 'DUP1', pushName: 'Maria', message: { conversation: 'once' } })], 'append');
    await s.driver.idle();
    expect(s.seen.message.map(([m]) => m.providerId)).toEqual(['DUP1']);
  });

  it('takes messages queued while offline (append) like live ones', async () => {
    const s = await connected();
    s.sock().upsert([msg({ id: 'OFF1', message: { conversation: 'while you were away' } }), msg({ id: 'OFF2', message: { conversation: 'still there?' } })], 'append');
    await s.driver.idle();
    expect(s.seen.message.map(([m]) => [m.providerId, m.body])).toEqual([
      ['OFF1', 'while you were away'],
      ['OFF2', 'still there?'],
    ]);
  });

  it('skips status stories, channels, broadcast lists, reactions, protocol messages and stubs without content', async () => {
    const s = await connected();
    s.sock().upsert([
      msg({ id: 'S1', remoteJid: 'status@broadcast', participant: CUSTOMER_JID, message: { conversation: 'my story' } }),
      msg({ id: 'S2', remoteJid: '120363144038483540@newsletter', message: { conversation: 'news' } }),
      msg({ id: 'S3', remoteJid: '1699999999@broadcast', message: { conversation: 'to a list' } }),
      msg({ id: 'S4', message: { reactionMessage: { key: { remoteJid: CUSTOMER_JID, id: 'TXT1', fromMe: true }, text: '👍' } } }),
      msg({ id: 'S5', message: { protocolMessage: { type: proto.Message.ProtocolMessage.Type.EPHEMERAL_SETTING, ephemeralExpiration: 86400 } } }),
      msg({ id: 'S6', messageStubType: proto.WebMessageInfo.StubType.CIPHERTEXT }),
      msg({ id: 'S7', remoteJid: GROUP_JID, messageStubType: proto.WebMessageInfo.StubType.GROUP_PARTICIPANT_ADD }),
      msg({ id: 'S8', message: { pollCreationMessage: { name: 'Lunch?' } } }),
    ]);
    await s.driver.idle();
    expect(s.seen.message).toEqual([]);
    expect(s.seen.revoke).toEqual([]);
    expect(s.sock().groupMetadata).not.toHaveBeenCalled();
    // An undecryptable message that Baileys later gets again is handed on then.
    expect(await receive(s, msg({ id: 'S6', pushName: 'Maria', message: { conversation: 'decrypted at last' } }))).toEqual([fromCustomer({ providerId: 'S6', body: 'decrypted at last' })]);
  });
});

describe('WhatsApp driver: acks and revokes', () => {
  it('turns status updates of own messages into acks (status - 1)', async () => {
    const s = await connected();
    const key = { remoteJid: CUSTOMER_JID, fromMe: true, id: 'OUT1' };
    s.sock().ev.emit('messages.update', [
      { key, update: { status: proto.WebMessageInfo.Status.SERVER_ACK } },
      { key, update: { status: proto.WebMessageInfo.Status.DELIVERY_ACK } },
      { key, update: { status: proto.WebMessageInfo.Status.READ } },
      { key, update: { status: proto.WebMessageInfo.Status.PLAYED } },
      { key, update: { status: proto.WebMessageInfo.Status.ERROR, messageStubParameters: ['479'] } },
      { key: { remoteJid: CUSTOMER_JID, fromMe: false, id: 'IN1' }, update: { status: proto.WebMessageInfo.Status.READ } },
      { key: { remoteJid: 'status@broadcast', fromMe: true, id: 'STORY' }, update: { status: proto.WebMessageInfo.Status.READ } },
    ]);
    await s.driver.idle();
    expect(s.seen.ack).toEqual([[{ providerId: 'OUT1', ack: 1 }], [{ providerId: 'OUT1', ack: 2 }], [{ providerId: 'OUT1', ack: 3 }], [{ providerId: 'OUT1', ack: 4 }]]);
  });

  it('turns group receipts into acks: delivered 2, read 3', async () => {
    const s = await connected();
    const key = { remoteJid: GROUP_JID, fromMe: true, id: 'GOUT1' };
    s.sock().ev.emit('message-receipt.update', [
      { key, receipt: { userJid: '5511977776666@s.whatsapp.net', receiptTimestamp: TS } },
      { key, receipt: { userJid: '5511977776666@s.whatsapp.net', readTimestamp: TS + 5 } },
      { key: { remoteJid: GROUP_JID, fromMe: false, id: 'GIN1' }, receipt: { userJid: '5511977776666@s.whatsapp.net', readTimestamp: TS } },
    ]);
    await s.driver.idle();
    expect(s.seen.ack).toEqual([[{ providerId: 'GOUT1', ack: 2 }], [{ providerId: 'GOUT1', ack: 3 }]]);
  });

  it('hands on a revoke once, whether it comes as a stub update or as a protocol message', async () => {
    const s = await connected();
    s.sock().ev.emit('messages.update', [{ key: { remoteJid: CUSTOMER_JID, fromMe: false, id: 'GONE1' }, update: { message: null, messageStubType: proto.WebMessageInfo.StubType.REVOKE } }]);
    s.sock().upsert([msg({ id: 'PROTO1', message: { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { remoteJid: CUSTOMER_JID, fromMe: false, id: 'GONE1' } } } })]);
    s.sock().upsert([msg({ id: 'PROTO2', message: { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { remoteJid: CUSTOMER_JID, fromMe: false, id: 'GONE2' } } } })]);
    await s.driver.idle();
    expect(s.seen.revoke).toEqual([[{ providerId: 'GONE1' }], [{ providerId: 'GONE2' }]]);
    expect(s.seen.message).toEqual([]);
  });
});

describe('WhatsApp driver: edits, reactions and contact updates', () => {
  it('hands on an edit as the new text (or caption), and not its protocol-message echo as a message', async () => {
    const s = await connected();
    const edited = (message: proto.IMessage) => ({ editedMessage: { message } });
    // What Baileys emits for MESSAGE_EDIT: the key of the edited message and its new content.
    s.sock().ev.emit('messages.update', [
      { key: { remoteJid: CUSTOMER_JID, fromMe: false, id: 'ED1' }, update: { message: edited({ conversation: 'fixed typo' }), messageTimestamp: TS + 5 } },
      { key: { remoteJid: CUSTOMER_JID, fromMe: true, id: 'ED2' }, update: { message: edited({ extendedTextMessage: { text: 'own edit' } }) } },
      { key: { remoteJid: CUSTOMER_JID, fromMe: false, id: 'ED3' }, update: { message: edited({ imageMessage: { caption: 'new caption' } }) } },
      { key: { remoteJid: CUSTOMER_JID, fromMe: false, id: 'ED4' }, update: { message: edited({ imageMessage: {} }) } },
    ]);
    s.sock().upsert([
      msg({
        id: 'EDPROTO',
        message: { protocolMessage: { type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT, key: { remoteJid: CUSTOMER_JID, id: 'ED1' }, editedMessage: { conversation: 'fixed typo' } } },
      }),
    ]);
    await s.driver.idle();
    expect(s.seen.edit).toEqual([[{ providerId: 'ED1', body: 'fixed typo' }], [{ providerId: 'ED2', body: 'own edit' }], [{ providerId: 'ED3', body: 'new caption' }]]);
    expect(s.seen.message).toEqual([]);
  });

  /**
   * What reaches the socket when a person's phone sends `content`: Baileys builds it as their
   * phone would (generateWAMessageContent), cleans it on arrival (cleanMessage), emits the upsert,
   * then derives its events from it (processMessage: messages.update for an edit,
   * messages.reaction for a reaction), all on the same socket as a real session.
   */
  async function sendLikeAPhone(s: Awaited<ReturnType<typeof connected>>, key: WAMessageKey, content: AnyMessageContent, pushName = 'Maria'): Promise<void> {
    const message: WAMessage = { key, messageTimestamp: TS, pushName, message: await generateWAMessageContent(content, { upload: async () => ({ mediaUrl: '', directPath: '' }) }) };
    const me = { id: OWN_JID, lid: `${OWN_LID}@lid`, name: 'Shop' };
    cleanMessage(message, me.id, me.lid);
    s.sock().upsert([message]);
    const creds = { ...initAuthCreds(), me };
    const keyStore = { get: async () => ({}), set: async () => undefined, transaction: async <T>(work: () => Promise<T>) => work(), isInTransaction: () => false };
    await processMessage(message, {
      shouldProcessHistoryMsg: false,
      ev: s.sock().ev as never,
      creds,
      keyStore: keyStore as never,
      signalRepository: s.sock().signalRepository as never,
      logger: undefined,
      options: {},
      getMessage: async () => undefined,
    });
    await s.driver.idle();
  }

  it("hands on a customer's reaction to the agent's message once, changed and taken away, though Baileys reports it twice", async () => {
    const s = await connected();
    // On the customer's phone the agent's message is someone else's, in the chat with the connection's number.
    const agentMessage = () => ({ remoteJid: OWN_JID, fromMe: false, id: 'AGENT1' });
    const fromCustomer = (id: string): WAMessageKey => ({ remoteJid: CUSTOMER_JID, fromMe: false, id });
    const derived: BaileysEventMap['messages.reaction'] = [];
    s.sock().ev.on('messages.reaction', (reactions) => derived.push(...reactions));
    await sendLikeAPhone(s, fromCustomer('R1'), { react: { text: '❤️', key: agentMessage() } });
    await sendLikeAPhone(s, fromCustomer('R2'), { react: { text: '👍', key: agentMessage() } });
    await sendLikeAPhone(s, fromCustomer('R3'), { react: { text: '', key: agentMessage() } });
    const customer = { number: CUSTOMER, name: 'Maria' };
    expect(s.seen.reaction).toEqual([
      [{ providerId: 'AGENT1', sender: customer, emoji: '❤️', fromMe: false }],
      [{ providerId: 'AGENT1', sender: customer, emoji: '👍', fromMe: false }],
      [{ providerId: 'AGENT1', sender: customer, emoji: '', fromMe: false }],
    ]);
    expect(s.seen.message).toEqual([]);
    // Baileys' second report of each, from its own reading of the same upsert: the reacted message, now seen as the connection's own.
    expect(derived.map((r) => [r.key.id, r.key.fromMe, r.reaction.text])).toEqual([
      ['AGENT1', true, '❤️'],
      ['AGENT1', true, '👍'],
      ['AGENT1', true, ''],
    ]);
  });

  it("hands on a group member's reaction keyed on their phone number (LID addressed), and the own phone's reaction as fromMe", async () => {
    const s = await connected();
    const member: WAMessageKey = { remoteJid: GROUP_JID, fromMe: false, id: 'GR1', participant: '98765432109876@lid', participantAlt: '5511955554444@s.whatsapp.net', addressingMode: 'lid' };
    await sendLikeAPhone(s, member, { react: { text: '😂', key: { remoteJid: GROUP_JID, fromMe: false, id: 'GMSG1', participant: CUSTOMER_JID } } }, 'Joana');
    await sendLikeAPhone(s, { remoteJid: CUSTOMER_JID, fromMe: true, id: 'OWNR1' }, { react: { text: '🙏', key: { remoteJid: CUSTOMER_JID, fromMe: false, id: 'CUST1' } } }, 'Shop');
    expect(s.seen.reaction).toEqual([[{ providerId: 'GMSG1', sender: { number: '5511955554444', name: 'Joana' }, emoji: '😂', fromMe: false }], [{ providerId: 'CUST1', emoji: '🙏', fromMe: true }]]);
  });

  it("hands on a customer's edit of their message once, as their phone sends it and Baileys processes it", async () => {
    const s = await connected();
    await sendLikeAPhone(s, { remoteJid: CUSTOMER_JID, fromMe: false, id: 'EDIT-PROTO' }, { text: 'o valor certo é R$ 150', edit: { remoteJid: OWN_JID, fromMe: true, id: 'CUSTMSG1' } });
    expect(s.seen.edit).toEqual([[{ providerId: 'CUSTMSG1', body: 'o valor certo é R$ 150' }]]);
    expect(s.seen.message).toEqual([]);
  });

  it('hands on contact names and picture changes keyed on the phone number, LIDs resolved, groups and silent updates skipped', async () => {
    const s = await connected();
    s.sock().pnByLid.set('98765432109876@lid', `${CUSTOMER}:2@s.whatsapp.net`);
    s.sock().ev.emit('contacts.upsert', [
      { id: CUSTOMER_JID, name: 'Maria (book)', notify: 'Maria' },
      { id: '5511977776666@s.whatsapp.net', notify: '  Joao  ' },
      { id: GROUP_JID, name: 'Family' },
      { id: '5511966665555@s.whatsapp.net' },
    ]);
    s.sock().ev.emit('contacts.update', [
      { id: '98765432109876@lid', imgUrl: 'changed' },
      { id: '5511955554444@s.whatsapp.net', imgUrl: 'removed', verifiedName: 'Shop Ltd' },
      { id: '11122233344455@lid', notify: 'Ghost' },
    ]);
    await s.driver.idle();
    expect(s.seen.contact).toEqual([
      [{ number: CUSTOMER, name: 'Maria (book)' }],
      [{ number: '5511977776666', name: 'Joao' }],
      [{ number: CUSTOMER, picture: 'changed' }],
      [{ number: '5511955554444', name: 'Shop Ltd', picture: 'removed' }],
      [{ number: '11122233344455', name: 'Ghost' }],
    ]);
  });
});

describe('WhatsApp driver: calls', () => {
  /** A Baileys call event from the customer, with the fields a test overrides. */
  const callEvent = (fields: Partial<WACallEvent>): WACallEvent => ({
    chatId: CUSTOMER_JID,
    from: CUSTOMER_JID,
    id: 'CALL1',
    date: new Date(TS * 1000),
    status: 'offer',
    offline: false,
    isVideo: false,
    isGroup: false,
    ...fields,
  });

  it('hands on the first offer of each call, the caller keyed on the phone number, and rejects it with rejectCall(id, from)', async () => {
    const s = await connected();
    s.sock().pnByLid.set('98765432109876@lid', `${CUSTOMER}:4@s.whatsapp.net`);
    s.sock().ev.emit('call', [callEvent({}), callEvent({ status: 'ringing' })]);
    // The same call offered again, and its end: nothing more to hand on.
    s.sock().ev.emit('call', [callEvent({})]);
    s.sock().ev.emit('call', [callEvent({ status: 'terminate' })]);
    s.sock().ev.emit('call', [callEvent({ id: 'CALL2', from: '98765432109876@lid', chatId: '98765432109876@lid', isVideo: true })]);
    s.sock().ev.emit('call', [callEvent({ id: 'CALL3', from: '11122233344455@lid', chatId: '11122233344455@lid' })]);
    s.sock().ev.emit('call', [callEvent({ id: 'CALL4', from: '5511977776666@s.whatsapp.net', isGroup: true, groupJid: GROUP_JID })]);
    await s.driver.idle();
    const at = new Date(TS * 1000);
    expect(s.seen.call).toEqual([
      [{ callId: 'CALL1', from: CUSTOMER, isGroup: false, isVideo: false, timestamp: at }],
      [{ callId: 'CALL2', from: CUSTOMER, isGroup: false, isVideo: true, timestamp: at }],
      [{ callId: 'CALL3', from: '11122233344455', isGroup: false, isVideo: false, timestamp: at }],
      [{ callId: 'CALL4', from: '5511977776666', isGroup: true, isVideo: false, timestamp: at }],
    ]);
    // A caller known only by LID gets their notice at the LID.
    expect(await s.auth.getOne('zapdesk-lid-only', '11122233344455')).toBe('1');

    // Rejected at the address the offer came from; a call no longer remembered, at the caller's number.
    await s.driver.rejectCall('CALL1', CUSTOMER);
    await s.driver.rejectCall('CALL2', CUSTOMER);
    await s.driver.rejectCall('CALL3', '11122233344455');
    await s.driver.rejectCall('CALL-OLD', CUSTOMER);
    expect(s.sock().rejectCall.mock.calls).toEqual([
      ['CALL1', CUSTOMER_JID],
      ['CALL2', '98765432109876@lid'],
      ['CALL3', '11122233344455@lid'],
      ['CALL-OLD', CUSTOMER_JID],
    ]);
  });

  it('refuses to reject a call while not connected', async () => {
    const s = await setup();
    await expect(s.driver.rejectCall('CALL1', CUSTOMER)).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    expect(s.sock().rejectCall).not.toHaveBeenCalled();
  });
});

describe('WhatsApp driver: outbound', () => {
  it('sends text without a link preview, under an id it chose, and does not hand the echo back', async () => {
    const s = await connected();
    const result = await s.driver.send({ kind: 'person', number: CUSTOMER }, { kind: 'text', body: 'See https://example.com' }, { providerId: s.driver.newMessageId() });
    const [jid, content, options] = s.sock().sendMessage.mock.calls[0] ?? [];
    expect(jid).toBe(CUSTOMER_JID);
    expect(content).toEqual({ text: 'See https://example.com', linkPreview: null });
    expect(options?.messageId).toMatch(/^[0-9A-F]{10,}$/);
    expect(result).toEqual({ providerId: options?.messageId, timestamp: new Date((TS + 60) * 1000) });

    s.sock().upsert([msg({ id: result.providerId, fromMe: true, message: { extendedTextMessage: { text: 'See https://example.com' } } })], 'append');
    await s.driver.idle();
    expect(s.seen.message).toEqual([]);
  });

  it('sends images, videos, documents, audio and voice notes', async () => {
    const s = await connected();
    const data = Buffer.from('bytes');
    const to = { kind: 'person', number: CUSTOMER } as const;
    await s.driver.send(to, { kind: 'media', mediaType: 'image', data, mimetype: 'image/png', filename: 'a.png', caption: 'Photo' }, { providerId: s.driver.newMessageId() });
    await s.driver.send(to, { kind: 'media', mediaType: 'video', data, mimetype: 'video/mp4', filename: 'a.mp4' }, { providerId: s.driver.newMessageId() });
    await s.driver.send(to, { kind: 'media', mediaType: 'other', data, mimetype: 'application/pdf', filename: 'invoice.pdf', caption: 'Invoice' }, { providerId: s.driver.newMessageId() });
    await s.driver.send(to, { kind: 'media', mediaType: 'audio', data, mimetype: 'audio/mpeg', filename: 'song.mp3' }, { providerId: s.driver.newMessageId() });
    await s.driver.send(to, { kind: 'voice', data, mimetype: 'audio/ogg' }, { providerId: s.driver.newMessageId() });
    expect(s.sock().sendMessage.mock.calls.map(([, content]) => content)).toEqual([
      { image: data, mimetype: 'image/png', caption: 'Photo' },
      { video: data, mimetype: 'video/mp4' },
      { document: data, mimetype: 'application/pdf', fileName: 'invoice.pdf', caption: 'Invoice' },
      { audio: data, mimetype: 'audio/mpeg', ptt: false },
      { audio: data, ptt: true, mimetype: 'audio/ogg; codecs=opus' },
    ]);
  });

  it('sends to groups at their group JID', async () => {
    const s = await connected();
    await s.driver.send({ kind: 'group', groupId: '120363025246125888' }, { kind: 'text', body: 'Hello group' }, { providerId: s.driver.newMessageId() });
    expect(s.sock().sendMessage.mock.calls[0]?.[0]).toBe(GROUP_JID);
  });

  it('quotes a recent message, and sends without a quote when the message is unknown', async () => {
    const s = await connected();
    const original = msg({ id: 'ASK1', pushName: 'Maria', message: { conversation: 'Is it open?' } });
    await receive(s, original);
    await s.driver.send({ kind: 'person', number: CUSTOMER }, { kind: 'text', body: 'Yes' }, { providerId: s.driver.newMessageId(), quotedProviderId: 'ASK1' });
    expect(s.sock().sendMessage.mock.calls[0]?.[2]?.quoted).toBe(original);
    await s.driver.send({ kind: 'person', number: CUSTOMER }, { kind: 'text', body: 'Also' }, { providerId: s.driver.newMessageId(), quotedProviderId: 'NEVER-SEEN' });
    expect(s.sock().sendMessage.mock.calls[1]?.[2]).not.toHaveProperty('quoted');
    // A message we sent can be quoted too, and Baileys can fetch it again for a retry.
    const sent = await s.driver.send({ kind: 'person', number: CUSTOMER }, { kind: 'text', body: 'Third' }, { providerId: s.driver.newMessageId() });
    await s.driver.send({ kind: 'person', number: CUSTOMER }, { kind: 'text', body: 'Fourth' }, { providerId: s.driver.newMessageId(), quotedProviderId: sent.providerId });
    expect(s.sock().sendMessage.mock.calls[3]?.[2]?.quoted?.key.id).toBe(sent.providerId);
    expect(await s.sock().config.getMessage?.({ remoteJid: CUSTOMER_JID, id: 'ASK1', fromMe: false })).toEqual({ conversation: 'Is it open?' });
  });

  it('maps send failures to ERR_SENDING_WAPP_MSG, and refuses to send while not connected', async () => {
    const s = await connected();
    s.sock().sendMessage.mockRejectedValueOnce(new Error('timed out'));
    await expect(s.driver.send({ kind: 'person', number: CUSTOMER }, { kind: 'text', body: 'x' }, { providerId: s.driver.newMessageId() })).rejects.toMatchObject({ code: 'ERR_SENDING_WAPP_MSG' });
    await expect(s.driver.send({ kind: 'person', number: 'not-a-number' }, { kind: 'text', body: 'x' }, { providerId: s.driver.newMessageId() })).rejects.toMatchObject({
      code: 'ERR_WAPP_INVALID_CONTACT',
    });
    const waiting = await setup();
    await expect(waiting.driver.send({ kind: 'person', number: CUSTOMER }, { kind: 'text', body: 'x' }, { providerId: waiting.driver.newMessageId() })).rejects.toMatchObject({
      code: 'ERR_WAPP_NOT_INITIALIZED',
    });
    expect(waiting.sock().sendMessage).not.toHaveBeenCalled();
  });

  it('deletes for everyone with the message key, and maps failures to ERR_DELETE_WAPP_MSG', async () => {
    const s = await connected();
    const inGroup = msg({ id: 'GDEL', remoteJid: GROUP_JID, participant: '5511977776666@s.whatsapp.net', message: { conversation: 'spam' } });
    await receive(s, inGroup);
    await s.driver.deleteForEveryone({ kind: 'group', groupId: '120363025246125888' }, 'GDEL', false);
    await s.driver.deleteForEveryone({ kind: 'person', number: CUSTOMER }, 'OLD1', true);
    expect(s.sock().sendMessage.mock.calls.map(([jid, content]) => [jid, content])).toEqual([
      [GROUP_JID, { delete: inGroup.key }],
      [CUSTOMER_JID, { delete: { remoteJid: CUSTOMER_JID, id: 'OLD1', fromMe: true } }],
    ]);
    s.sock().sendMessage.mockRejectedValueOnce(new Error('forbidden'));
    await expect(s.driver.deleteForEveryone({ kind: 'person', number: CUSTOMER }, 'OLD2', true)).rejects.toMatchObject({ code: 'ERR_DELETE_WAPP_MSG' });
  });

  it('marks messages read with their keys', async () => {
    const s = await connected();
    const known = msg({ id: 'R1', remoteJid: '98765432109876@lid', remoteJidAlt: CUSTOMER_JID, message: { conversation: 'read me' } });
    await receive(s, known);
    await s.driver.markRead({ kind: 'person', number: CUSTOMER }, ['R1', 'R2']);
    expect(s.sock().readMessages).toHaveBeenCalledWith([known.key, { remoteJid: CUSTOMER_JID, id: 'R2', fromMe: false }]);
  });

  it('checks numbers, answering the canonical number or undefined', async () => {
    const s = await connected();
    s.sock().onWhatsApp.mockResolvedValueOnce([{ jid: '551188887777@s.whatsapp.net', exists: true }]);
    expect(await s.driver.checkNumber('5511988887777')).toBe('551188887777');
    expect(s.sock().onWhatsApp).toHaveBeenCalledWith(CUSTOMER_JID);
    s.sock().onWhatsApp.mockResolvedValueOnce([]);
    expect(await s.driver.checkNumber('5500000000000')).toBeUndefined();
    expect(await s.driver.checkNumber('abc')).toBeUndefined();
    s.sock().onWhatsApp.mockRejectedValueOnce(new Error('timed out'));
    await expect(s.driver.checkNumber('5511988887777')).rejects.toMatchObject({ code: 'ERR_WAPP_CHECK_CONTACT' });
  });

  it('reads profile pictures, undefined when hidden or missing', async () => {
    const s = await connected();
    expect(await s.driver.profilePictureUrl({ kind: 'person', number: CUSTOMER })).toBe(`https://pps.example/${CUSTOMER_JID}.jpg`);
    expect(s.sock().profilePictureUrl).toHaveBeenCalledWith(CUSTOMER_JID, 'image');
    s.sock().profilePictureUrl.mockRejectedValueOnce(Object.assign(new Error('item-not-found'), { output: { statusCode: 404 } }));
    expect(await s.driver.profilePictureUrl({ kind: 'group', groupId: '120363025246125888' })).toBeUndefined();
  });

  it('fetches history on demand before a known message and maps the ON_DEMAND answer for that chat', async () => {
    const s = await connected();
    const fetchMessageHistory = vi.fn<NonNullable<WASocketLike['fetchMessageHistory']>>(async () => 'PDO-1');
    Object.assign(s.sock(), { fetchMessageHistory });
    const before = { providerId: 'ANCHOR', fromMe: false, timestamp: new Date((TS + 100) * 1000) };
    const pending = s.driver.fetchHistory({ chat: { kind: 'person', number: CUSTOMER }, limit: 80, before });
    await vi.waitFor(() => expect(fetchMessageHistory).toHaveBeenCalled());
    // At most 50 per request; the anchor's key and its time in milliseconds.
    expect(fetchMessageHistory).toHaveBeenCalledWith(50, { remoteJid: CUSTOMER_JID, id: 'ANCHOR', fromMe: false }, (TS + 100) * 1000);
    const old = (id: string, text: string, at: number, fromMe = false): WAMessage => ({ ...msg({ id, fromMe, message: { conversation: text } }), messageTimestamp: at });
    // Another chat's answer, and the initial sync, are not this request's answer.
    s.sock().ev.emit('messaging-history.set', { chats: [], contacts: [], messages: [old('X1', 'other', TS, false)], syncType: proto.HistorySync.HistorySyncType.RECENT });
    s.sock().ev.emit('messaging-history.set', {
      chats: [],
      contacts: [],
      messages: [{ ...old('G1', 'group', TS), key: { remoteJid: GROUP_JID, id: 'G1', fromMe: false, participant: CUSTOMER_JID } }],
      syncType: proto.HistorySync.HistorySyncType.ON_DEMAND,
    });
    s.sock().ev.emit('messaging-history.set', {
      chats: [],
      contacts: [],
      messages: [old('H2', 'second', TS + 20, true), old('H1', 'first', TS + 10), old('ANCHOR', 'anchor', TS + 100)],
      syncType: proto.HistorySync.HistorySyncType.ON_DEMAND,
    });
    const messages = await pending;
    expect(messages.map((m) => [m.providerId, m.body, m.fromMe])).toEqual([
      ['H1', 'first', false],
      ['H2', 'second', true],
    ]);
    expect(messages[0]).toMatchObject({ chat: { kind: 'person', number: CUSTOMER }, timestamp: new Date((TS + 10) * 1000) });
    // History is returned, never emitted as new messages.
    expect(s.seen.message).toHaveLength(0);
  });

  it('fetches what arrived since the newest stored message: the latest messages before now, none older than the anchor', async () => {
    const s = await connected();
    const fetchMessageHistory = vi.fn<NonNullable<WASocketLike['fetchMessageHistory']>>(async () => 'PDO-3');
    Object.assign(s.sock(), { fetchMessageHistory });
    const after = { providerId: 'NEWEST', fromMe: false, timestamp: new Date((TS + 100) * 1000) };
    const askedAt = Date.now();
    const pending = s.driver.fetchHistory({ chat: { kind: 'person', number: CUSTOMER }, limit: 50, after });
    await vi.waitFor(() => expect(fetchMessageHistory).toHaveBeenCalled());
    const [count, key, until] = fetchMessageHistory.mock.calls[0] ?? [];
    expect([count, key]).toEqual([50, { remoteJid: CUSTOMER_JID, id: 'NEWEST', fromMe: false }]);
    expect(Number(until)).toBeGreaterThanOrEqual(askedAt);
    const at = (id: string, text: string, seconds: number): WAMessage => ({ ...msg({ id, message: { conversation: text } }), messageTimestamp: seconds });
    s.sock().ev.emit('messaging-history.set', {
      chats: [],
      contacts: [],
      messages: [at('OLD', 'stored long ago', TS + 10), at('NEWEST', 'stored', TS + 100), at('LOST1', 'lost in the crash', TS + 110), at('LOST2', 'also lost', TS + 120)],
      syncType: proto.HistorySync.HistorySyncType.ON_DEMAND,
    });
    expect((await pending).map((m) => m.providerId)).toEqual(['LOST1', 'LOST2']);
  });

  it('answers ERR_FETCH_WAPP_MSG without an anchor, when the request fails and when no answer comes in time', async () => {
    expect(HISTORY_TIMEOUT_MS).toBe(30_000);
    const s = await connected({ historyTimeoutMs: 50 });
    const chat = { kind: 'person', number: CUSTOMER } as const;
    const before = { providerId: 'ANCHOR', fromMe: true, timestamp: new Date(TS * 1000) };
    await expect(s.driver.fetchHistory({ chat, limit: 20 })).rejects.toMatchObject({ code: 'ERR_FETCH_WAPP_MSG' });
    Object.assign(s.sock(), { fetchMessageHistory: vi.fn(async () => Promise.reject(new Error('not authenticated'))) });
    await expect(s.driver.fetchHistory({ chat, limit: 20, before })).rejects.toMatchObject({ code: 'ERR_FETCH_WAPP_MSG' });
    Object.assign(s.sock(), { fetchMessageHistory: vi.fn(async () => 'PDO-2') });
    await expect(s.driver.fetchHistory({ chat, limit: 20, before })).rejects.toMatchObject({ code: 'ERR_FETCH_WAPP_MSG' });
  });

  it('refuses history while the socket is not open', async () => {
    const s = await setup();
    await expect(s.driver.fetchHistory({ chat: { kind: 'person', number: CUSTOMER }, limit: 5 })).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
  });
});

describe('WhatsApp driver: groups', () => {
  const groupMeta = (id: string, fields: Partial<GroupMetadata> = {}): GroupMetadata => ({ id, subject: 'Support group', owner: undefined, participants: [], ...fields });
  /** A Boom as Baileys throws it for an error answer: the code in `data`, statusCode 500. */
  const iqError = (text: string, code: number) => Object.assign(new Error(text), { output: { statusCode: 500 }, data: code });

  it('lists groups with their settings and members keyed on phone numbers, the own number flagged, communities left out', async () => {
    const s = await connected();
    s.sock().pnByLid.set('98765432109876@lid', '5511955554444:2@s.whatsapp.net');
    s.sock().groupFetchAllParticipating.mockResolvedValueOnce({
      [GROUP_JID]: groupMeta(GROUP_JID, {
        desc: 'Ask here',
        announce: true,
        restrict: true,
        participants: [
          { id: OWN_JID, admin: 'superadmin' },
          { id: CUSTOMER_JID, admin: 'admin' },
          { id: '22233344455566@lid', phoneNumber: '5511977776666@s.whatsapp.net', admin: null },
          { id: '98765432109876@lid', admin: null },
          { id: '11122233344455@lid', admin: null },
        ],
      }),
      '120363000000000777@g.us': groupMeta('120363000000000777@g.us', { subject: 'Suppliers', participants: [{ id: `${OWN_LID}@lid`, admin: null }] }),
      '120363000000000999@g.us': groupMeta('120363000000000999@g.us', { subject: 'Community', isCommunity: true, participants: [{ id: OWN_JID, admin: 'superadmin' }] }),
    });
    expect(await s.driver.listGroups()).toEqual([
      {
        groupId: '120363025246125888',
        subject: 'Support group',
        description: 'Ask here',
        announce: true,
        restrict: true,
        participants: [
          { number: OWN, admin: true, me: true },
          { number: CUSTOMER, admin: true, me: false },
          { number: '5511977776666', admin: false, me: false },
          { number: '5511955554444', admin: false, me: false },
          { number: '11122233344455', admin: false, me: false },
        ],
      },
      { groupId: '120363000000000777', subject: 'Suppliers', description: '', announce: false, restrict: false, participants: [{ number: OWN, admin: false, me: true }] },
    ]);
    // A member known only by LID is written to at the LID.
    expect(await s.auth.getOne('zapdesk-lid-only', '11122233344455')).toBe('1');
    await s.driver.send({ kind: 'person', number: '11122233344455' }, { kind: 'text', body: 'Hello' }, { providerId: s.driver.newMessageId() });
    expect(s.sock().sendMessage.mock.calls.at(-1)?.[0]).toBe('11122233344455@lid');
    // Baileys reads the listed groups from the cache, not from WhatsApp.
    expect(await s.sock().config.cachedGroupMetadata?.(GROUP_JID)).toMatchObject({ subject: 'Support group', desc: 'Ask here' });
    const received = await receive(s, msg({ id: 'GL1', remoteJid: GROUP_JID, participant: CUSTOMER_JID, message: { conversation: 'hi' } }));
    expect(received[0]?.group).toEqual({ subject: 'Support group' });
    expect(s.sock().groupMetadata).not.toHaveBeenCalled();
  });

  it('reads one group, and answers ERR_GROUP_NOT_FOUND for a group the number is not in', async () => {
    const s = await connected();
    s.sock().groupMetadata.mockResolvedValueOnce(groupMeta(GROUP_JID, { subject: 'Orders', participants: [{ id: `${OWN_LID}@lid`, phoneNumber: OWN_JID, admin: 'admin' }] }));
    expect(await s.driver.groupInfo('120363025246125888')).toEqual({
      groupId: '120363025246125888',
      subject: 'Orders',
      description: '',
      announce: false,
      restrict: false,
      participants: [{ number: OWN, admin: true, me: true }],
    });
    expect(s.sock().groupMetadata).toHaveBeenCalledWith(GROUP_JID);
    expect(await s.sock().config.cachedGroupMetadata?.(GROUP_JID)).toMatchObject({ subject: 'Orders' });

    s.sock().groupMetadata.mockRejectedValueOnce(Object.assign(new Error('item-not-found'), { output: { statusCode: 404 } }));
    await expect(s.driver.groupInfo('120363025246125888')).rejects.toMatchObject({ code: 'ERR_GROUP_NOT_FOUND' });
    s.sock().groupMetadata.mockRejectedValueOnce(iqError('forbidden', 403));
    await expect(s.driver.groupInfo('120363025246125888')).rejects.toMatchObject({ code: 'ERR_GROUP_NOT_FOUND' });
    s.sock().groupMetadata.mockRejectedValueOnce(Object.assign(new Error('Timed Out'), { output: { statusCode: 408 } }));
    await expect(s.driver.groupInfo('120363025246125888')).rejects.toMatchObject({ code: 'ERR_GROUP_ACTION_FAILED' });
  });

  it('creates a group with the numbers that have an account, and reports the ones not added', async () => {
    const s = await connected();
    s.sock().onWhatsApp.mockImplementation(async (jid) => {
      if (jid === '5500000000000@s.whatsapp.net') return [];
      if (jid === '5500000000001@s.whatsapp.net') return [{ jid, exists: false }];
      return [{ jid: jid ?? '', exists: true }];
    });
    const members = [
      { id: OWN_JID, admin: 'superadmin' as const },
      { id: CUSTOMER_JID, admin: null },
      { id: '22233344455566@lid', phoneNumber: '5511966665555@s.whatsapp.net', admin: null },
    ];
    // The create answer lists the refused member too; the group read again does not.
    s.sock().groupCreate.mockImplementationOnce(async (subject) => groupMeta(NEW_GROUP_JID, { subject, participants: [...members, { id: '5511977776666@s.whatsapp.net', admin: null }] }));
    s.sock().groupMetadata.mockImplementationOnce(async () => groupMeta(NEW_GROUP_JID, { subject: 'Clients', participants: members }));
    const created = await s.driver.createGroup('Clients', [CUSTOMER, '5500000000000', '5511977776666', '5511966665555', '5500000000001', CUSTOMER, OWN]);
    expect(s.sock().groupCreate).toHaveBeenCalledWith('Clients', [CUSTOMER_JID, '5511977776666@s.whatsapp.net', '5511966665555@s.whatsapp.net']);
    expect(s.sock().groupMetadata).toHaveBeenCalledWith(NEW_GROUP_JID);
    expect(created).toEqual({
      group: {
        groupId: '120363000000000001',
        subject: 'Clients',
        description: '',
        announce: false,
        restrict: false,
        participants: [
          { number: OWN, admin: true, me: true },
          { number: CUSTOMER, admin: false, me: false },
          { number: '5511966665555', admin: false, me: false },
        ],
      },
      failed: [
        { number: '5500000000000', error: 'ERR_WAPP_INVALID_CONTACT' },
        { number: '5511977776666', error: 'ERR_GROUP_ADD_REFUSED' },
        { number: '5500000000001', error: 'ERR_WAPP_INVALID_CONTACT' },
      ],
    });
    s.sock().groupCreate.mockRejectedValueOnce(iqError('bad-request', 400));
    await expect(s.driver.createGroup('Clients', [CUSTOMER])).rejects.toMatchObject({ code: 'ERR_GROUP_ACTION_FAILED' });
  });

  it('changes the subject, the description and who may send, and keeps the cached metadata right', async () => {
    const s = await connected();
    await s.driver.groupInfo('120363025246125888');
    await s.driver.updateGroup('120363025246125888', { subject: 'New name' });
    await s.driver.updateGroup('120363025246125888', { description: 'House rules' });
    await s.driver.updateGroup('120363025246125888', { announce: false });
    await s.driver.updateGroup('120363025246125888', { announce: true });
    expect(s.sock().groupUpdateSubject).toHaveBeenCalledWith(GROUP_JID, 'New name');
    expect(s.sock().groupUpdateDescription).toHaveBeenCalledWith(GROUP_JID, 'House rules');
    expect(s.sock().groupSettingUpdate.mock.calls).toEqual([
      [GROUP_JID, 'not_announcement'],
      [GROUP_JID, 'announcement'],
    ]);
    expect(await s.sock().config.cachedGroupMetadata?.(GROUP_JID)).toMatchObject({ subject: 'New name', desc: 'House rules', announce: true });
  });

  it('answers ERR_GROUP_NOT_ADMIN, ERR_GROUP_NOT_FOUND or ERR_GROUP_ACTION_FAILED when WhatsApp refuses a change', async () => {
    const s = await connected();
    s.sock().groupSettingUpdate.mockRejectedValueOnce(Object.assign(new Error('forbidden'), { output: { statusCode: 403 } }));
    await expect(s.driver.updateGroup('120363025246125888', { announce: true })).rejects.toMatchObject({ code: 'ERR_GROUP_NOT_ADMIN' });
    s.sock().groupUpdateSubject.mockRejectedValueOnce(iqError('not-authorized', 401));
    await expect(s.driver.updateGroup('120363025246125888', { subject: 'x' })).rejects.toMatchObject({ code: 'ERR_GROUP_NOT_ADMIN' });
    s.sock().groupUpdateDescription.mockRejectedValueOnce(Object.assign(new Error('item-not-found'), { output: { statusCode: 404 } }));
    await expect(s.driver.updateGroup('120363025246125888', { description: 'x' })).rejects.toMatchObject({ code: 'ERR_GROUP_NOT_FOUND' });
    s.sock().groupUpdateSubject.mockRejectedValueOnce(iqError('rate-overlimit', 429));
    await expect(s.driver.updateGroup('120363025246125888', { subject: 'x' })).rejects.toMatchObject({ code: 'ERR_GROUP_ACTION_FAILED', message: expect.stringMatching(/slow down/) });
    s.sock().groupUpdateSubject.mockRejectedValueOnce(new Error('Connection Closed'));
    await expect(s.driver.updateGroup('120363025246125888', { subject: 'x' })).rejects.toMatchObject({ code: 'ERR_GROUP_ACTION_FAILED' });
  });

  it('refuses group calls while not connected', async () => {
    const s = await setup();
    await expect(s.driver.listGroups()).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    await expect(s.driver.groupInfo('120363025246125888')).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    await expect(s.driver.createGroup('Clients', [CUSTOMER])).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    await expect(s.driver.updateGroup('120363025246125888', { subject: 'x' })).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    expect(s.sock().groupFetchAllParticipating).not.toHaveBeenCalled();
    expect(s.sock().groupCreate).not.toHaveBeenCalled();
  });
});

it('initAuthCreds is what a fresh connection gets', async () => {
  const { id } = await t.insertWhatsapp();
  const auth = await loadWhatsappAuthState(new ChannelAuthStore(t.ctx.db, id));
  expect(Object.keys(auth.state.creds).sort()).toEqual(Object.keys(initAuthCreds()).sort());
});
