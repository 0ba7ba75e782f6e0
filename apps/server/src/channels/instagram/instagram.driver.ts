/**
 * Instagram direct messages behind the channel contract, on Meta's official Instagram API. There
 * is no live session: 'connected' means the Graph API took the token at start. Inbound messages
 * arrive by webhook (features/instagram hands each verified delivery to `deliver`, which resolves
 * once every message is stored, so Meta's delivery is acknowledged only then). A person is their
 * Instagram-scoped id (IGSID), which stands where a phone number would.
 */
import { randomUUID } from 'node:crypto';
import type { MediaType } from '@zapdesk/shared/domain';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { fetchUrl } from '../../core/net/fetch-url.js';
import { isSealed, unseal } from '../../core/secret-box.js';
import { BoundedMap } from '../bounded-map.js';
import type { ChannelDriver, ChannelEvents, ChatAddress, GroupCreated, GroupInfo, HistoryRequest, InboundMessage, OutboundContent, SendResult } from '../channel.js';
import { ChannelEmitter } from '../channel-events.js';
import type { ChannelAuthStore } from '../connection-store.js';
import { GraphClient, type GraphProfile } from './graph.client.js';
import type { IgMessagingEvent } from './webhook-body.js';
import { reactionOfEvent } from './instagram-reaction.js';

/** Where a connection keeps its Instagram configuration: the secrets sealed, the state in clear. */
export const IG_AUTH_TYPE = 'instagram';
export const IG_CONFIG_KEY = 'config';
export const IG_STATE_KEY = 'state';

export type InstagramConfig = { accountId: string; accessToken: string; appSecret: string; verifyToken: string };
export type InstagramStateRecord = { accountId: string; username: string | null; tokenValid: boolean | null; webhookVerifiedAt: string | null; error: string | null };

/** A start that could not reach the Graph API is tried again after this long. */
const START_RETRY_MS = 30_000;

/** A file a person sent is read from Meta's CDN at most this big. */
const MAX_INBOUND_MEDIA_BYTES = 25 * 1024 * 1024;

const ATTACHMENT_TYPES: Record<string, { mediaType: MediaType; mimetype: string; extension: string }> = {
  image: { mediaType: 'image', mimetype: 'image/jpeg', extension: 'jpg' },
  video: { mediaType: 'video', mimetype: 'video/mp4', extension: 'mp4' },
  audio: { mediaType: 'audio', mimetype: 'audio/mp4', extension: 'm4a' },
  file: { mediaType: 'other', mimetype: 'application/octet-stream', extension: 'bin' },
};

export async function readInstagramConfig(auth: ChannelAuthStore, key: Buffer): Promise<InstagramConfig | undefined> {
  const stored = await auth.getOne(IG_AUTH_TYPE, IG_CONFIG_KEY);
  if (!stored) return undefined;
  try {
    return JSON.parse(isSealed(stored) ? unseal(key, stored) : stored) as InstagramConfig;
  } catch {
    return undefined;
  }
}

export async function readInstagramState(auth: ChannelAuthStore): Promise<InstagramStateRecord | undefined> {
  const stored = await auth.getOne(IG_AUTH_TYPE, IG_STATE_KEY);
  return stored ? (JSON.parse(stored) as InstagramStateRecord) : undefined;
}

export async function writeInstagramState(auth: ChannelAuthStore, change: Partial<InstagramStateRecord> & { accountId: string }): Promise<void> {
  const current = await readInstagramState(auth);
  const next: InstagramStateRecord = { username: null, tokenValid: null, webhookVerifiedAt: null, error: null, ...current, ...change };
  await auth.set([{ type: IG_AUTH_TYPE, id: IG_STATE_KEY, value: JSON.stringify(next) }]);
}

export class InstagramDriver implements ChannelDriver {
  readonly #events = new ChannelEmitter();
  readonly #profiles = new BoundedMap<string, GraphProfile>(5_000);
  /** Ids of messages this server sent: their echoes are already stored. */
  readonly #sent = new BoundedMap<string, true>(5_000);
  #config: InstagramConfig | undefined;
  #connected = false;
  #stopped = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(private readonly options: { whatsappId: number; auth: ChannelAuthStore; ctx: AppContext }) {}

  get connected(): boolean {
    return this.#connected;
  }

  get accountId(): string | undefined {
    return this.#config?.accountId;
  }

  on<K extends keyof ChannelEvents>(event: K, listener: ChannelEvents[K]): void {
    this.#events.on(event, listener);
  }

  #graph(): GraphClient {
    if (!this.#config) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return new GraphClient(this.options.ctx.config.instagramGraphUrl, this.#config.accessToken);
  }

  /** Checks the token with the Graph API: CONNECTED with the account's username, or DISCONNECTED with the reason. */
  async start(): Promise<void> {
    this.#stopped = false;
    clearTimeout(this.#retry);
    this.#events.emit('status', 'OPENING');
    this.#config = await readInstagramConfig(this.options.auth, this.options.ctx.secrets.settingsKey);
    if (!this.#config) {
      this.#connected = false;
      this.#events.emit('status', 'DISCONNECTED', { reason: 'ERR_IG_CONFIG_REQUIRED' });
      return;
    }
    const accountId = this.#config.accountId;
    try {
      const me = await this.#graph().me();
      await writeInstagramState(this.options.auth, { accountId, username: me.username ?? null, tokenValid: true, error: null });
      this.#connected = true;
      this.#events.emit('status', 'CONNECTED');
    } catch (error) {
      const code = error instanceof AppError ? error.code : 'ERR_SENDING_WAPP_MSG';
      await writeInstagramState(this.options.auth, { accountId, tokenValid: code === 'ERR_IG_TOKEN' ? false : null, error: code });
      this.#connected = false;
      this.#events.emit('status', 'DISCONNECTED', { reason: code });
      // The Graph API could not be reached (not a refused token): tried again by itself.
      if (code !== 'ERR_IG_TOKEN' && !this.#stopped) {
        this.#retry = setTimeout(() => void this.start().catch(() => undefined), START_RETRY_MS);
        this.#retry.unref();
      }
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retry);
    this.#connected = false;
  }

  /**
   * 'Disconnect': nothing is sent or received until it is started again. The account and its
   * secrets are the connection's configuration, not a session: they stay until the connection
   * is deleted (its rows go with it).
   */
  async logout(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retry);
    this.#connected = false;
    this.#events.emit('status', 'DISCONNECTED', { loggedOut: true });
  }

  requestPairingCode(): Promise<string> {
    return Promise.reject(new AppError('ERR_IG_NOT_SUPPORTED'));
  }

  newMessageId(): string {
    return `ig-${randomUUID()}`;
  }

  /**
   * Through the Send API: text as text; a file as an attachment Meta fetches from its public
   * address (`url`), its caption as a text after it. The id Meta gives is remembered so that the
   * webhook's echo of it is not stored a second time.
   */
  async send(to: ChatAddress, content: OutboundContent): Promise<SendResult> {
    if (to.kind !== 'person') throw new AppError('ERR_IG_NOT_SUPPORTED');
    if (!this.#connected) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    const accountId = this.#config?.accountId ?? '';
    const graph = this.#graph();
    const recipient = { id: to.number };
    const remember = (mid: string | undefined) => {
      if (mid) this.#sent.set(mid, true);
      return mid;
    };
    let mid: string | undefined;
    if (content.kind === 'text') {
      mid = remember((await graph.send(accountId, { recipient, message: { text: content.body } })).message_id);
    } else {
      if (!content.url) throw new AppError('ERR_IG_MEDIA_NEEDS_PUBLIC_URL');
      const type = content.kind === 'voice' ? 'audio' : content.mediaType === 'image' || content.mediaType === 'video' || content.mediaType === 'audio' ? content.mediaType : 'file';
      mid = remember((await graph.send(accountId, { recipient, message: { attachment: { type, payload: { url: content.url } } } })).message_id);
      if (content.kind === 'media' && content.caption) remember((await graph.send(accountId, { recipient, message: { text: content.caption } })).message_id);
    }
    return { providerId: mid ?? `ig-sent-${randomUUID()}`, timestamp: new Date() };
  }

  /** Meta cannot be asked whether a message went out. */
  async confirmSent(): Promise<boolean | undefined> {
    return undefined;
  }

  deleteForEveryone(): Promise<void> {
    return Promise.reject(new AppError('ERR_IG_NOT_SUPPORTED'));
  }

  /** Instagram hands no calls to the product. */
  rejectCall(): Promise<void> {
    return Promise.reject(new AppError('ERR_IG_NOT_SUPPORTED'));
  }

  /** The person sees their messages as seen. */
  async markRead(chat: ChatAddress): Promise<void> {
    if (chat.kind !== 'person' || !this.#connected) return;
    await this.#graph()
      .send(this.#config?.accountId ?? '', { recipient: { id: chat.number }, sender_action: 'mark_seen' })
      .catch(() => undefined);
  }

  /** An IGSID is an address as it is. */
  async checkNumber(number: string): Promise<string | undefined> {
    return /^\d{5,25}$/.test(number) ? number : undefined;
  }

  async profilePictureUrl(chat: ChatAddress): Promise<string | undefined> {
    if (chat.kind !== 'person') return undefined;
    return (await this.#profile(chat.number))?.profile_pic;
  }

  /**
   * Instagram does not hand out past messages. A catch-up after an unclean stop (`after`) has
   * nothing to read: Meta delivers again every webhook that was not acknowledged.
   */
  async fetchHistory(request: HistoryRequest): Promise<InboundMessage[]> {
    if (request.after) return [];
    throw new AppError('ERR_FETCH_WAPP_MSG', { message: 'Instagram does not hand out past messages.' });
  }

  listGroups(): Promise<GroupInfo[]> {
    return Promise.reject(new AppError('ERR_IG_NOT_SUPPORTED'));
  }

  groupInfo(): Promise<GroupInfo> {
    return Promise.reject(new AppError('ERR_IG_NOT_SUPPORTED'));
  }

  createGroup(): Promise<GroupCreated> {
    return Promise.reject(new AppError('ERR_IG_NOT_SUPPORTED'));
  }

  updateGroup(): Promise<void> {
    return Promise.reject(new AppError('ERR_IG_NOT_SUPPORTED'));
  }

  /** Username to IGSID of everyone who has a conversation with the account (the only people it may message). */
  async participants(): Promise<{ id: string; username: string }[]> {
    return this.#graph().participants(this.#config?.accountId ?? '');
  }

  async #profile(igsid: string): Promise<GraphProfile | undefined> {
    const known = this.#profiles.get(igsid);
    if (known) return known;
    try {
      const profile = await this.#graph().profile(igsid);
      this.#profiles.set(igsid, profile);
      return profile;
    } catch {
      return undefined;
    }
  }

  /**
   * Messages of a verified webhook delivery, stored before this resolves. A reaction lands on
   * the message it reacts to; read marks are left out; a message deleted by its author is revoked.
   */
  async deliver(events: IgMessagingEvent[]): Promise<void> {
    const accountId = this.#config?.accountId;
    if (!accountId) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    for (const event of events) {
      const reaction = reactionOfEvent(event, accountId);
      if (reaction) this.#events.emit('reaction', reaction);
      const message = event.message;
      if (!message?.mid) continue;
      if (message.is_deleted) {
        this.#events.emit('revoke', { providerId: message.mid });
        continue;
      }
      const fromMe = message.is_echo === true || event.sender?.id === accountId;
      if (fromMe && this.#sent.has(message.mid)) continue;
      const person = fromMe ? event.recipient?.id : event.sender?.id;
      if (!person) continue;
      const profile = fromMe ? undefined : await this.#profile(person);
      const inbound = this.#toInbound(message, person, fromMe, profile, event.timestamp);
      await this.#events.emitAndWait('message', inbound);
    }
  }

  #toInbound(message: NonNullable<IgMessagingEvent['message']>, person: string, fromMe: boolean, profile: GraphProfile | undefined, timestamp: number | null | undefined): InboundMessage {
    const lines: string[] = [];
    if (message.reply_to?.story?.url) lines.push(`↩️ Story: ${message.reply_to.story.url}`);
    let media: InboundMessage['media'];
    for (const attachment of message.attachments ?? []) {
      const url = attachment.payload?.url;
      const kind = ATTACHMENT_TYPES[attachment.type ?? ''];
      if (kind && url && !media) {
        media = { mediaType: kind.mediaType, mimetype: kind.mimetype, filename: `instagram-${attachment.type ?? 'file'}.${kind.extension}`, load: () => this.#download(url) };
      } else if (url) {
        // Shared posts, reels and story mentions: a link to open.
        lines.push(`🔗 ${attachment.payload?.title ? `${attachment.payload.title} ` : ''}${url}`);
      }
    }
    if (message.text) lines.push(message.text);
    if (message.is_unsupported && lines.length === 0 && !media) lines.push('(Instagram: a message this app cannot show)');
    const name = profile?.name || (profile?.username ? `@${profile.username}` : undefined);
    return {
      providerId: message.mid ?? '',
      chat: { kind: 'person', number: person },
      ...(fromMe ? {} : { sender: { number: person, ...(name ? { name } : {}) } }),
      fromMe,
      body: lines.join('\n'),
      ...(media ? { media } : {}),
      ...(message.reply_to?.mid ? { quotedProviderId: message.reply_to.mid } : {}),
      timestamp: timestamp ? new Date(timestamp) : new Date(),
    };
  }

  async #download(url: string): Promise<Buffer> {
    const file = await fetchUrl(url, { allowPrivate: this.options.ctx.config.allowPrivateMediaUrls, maxBytes: MAX_INBOUND_MEDIA_BYTES, timeoutMs: 30_000 });
    return file.data;
  }
}
