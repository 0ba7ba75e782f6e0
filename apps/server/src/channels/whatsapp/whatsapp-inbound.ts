/**
 * Baileys' inbound events as the channel contract's events: messages (once each, never the
 * echo of our own sends), revokes, edits, reactions, acks, receipts and contact names.
 */
import { isJidGroup, normalizeMessageContent, type Contact, type MessageUserReceiptUpdate, type WAMessage, type WAMessageUpdate } from '@whiskeysockets/baileys';
import { AppError } from '../../core/errors.js';
import type { InboundMessage } from '../channel.js';
import type { ChannelEmitter } from '../channel-events.js';
import { BoundedMap } from '../bounded-map.js';
import { isIgnoredJid, resolveKey, resolvePerson } from './jid.js';
import { RECENT_MESSAGES, type WhatsappAddressing } from './whatsapp-addressing.js';
import type { WhatsappGroups } from './whatsapp-groups.js';
import type { BaileysLogger } from './whatsapp-logger.js';
import { ackOfReceipt, ackOfStatus, editedTextOf, isRevokeUpdate, reactionOf, readContent, revokedIdOf, timestampOf } from './whatsapp-message.js';
import type { MediaDownloader, WASocketLike } from './whatsapp-socket.js';

const SEEN_IDS = 5_000;

export type WhatsappInboundOptions = {
  events: ChannelEmitter;
  logger: BaileysLogger;
  addressing: WhatsappAddressing;
  groups: WhatsappGroups;
  download: MediaDownloader;
  /** The live socket, for media that must be uploaded again by the phone. */
  currentSocket: () => WASocketLike | undefined;
};

export class WhatsappInbound {
  readonly #o: WhatsappInboundOptions;
  readonly #seen = new BoundedMap<string, true>(SEEN_IDS);
  readonly #revoked = new BoundedMap<string, true>(SEEN_IDS);
  /** Ids of messages sent through send(): their echo is not handed on, the sender stores them. */
  readonly #ownSends = new BoundedMap<string, true>(RECENT_MESSAGES);

  constructor(options: WhatsappInboundOptions) {
    this.#o = options;
  }

  markOwnSend(providerId: string): void {
    this.#ownSends.set(providerId, true);
  }

  /**
   * Hands the socket's inbound events to `run`, which handles them in order. Reactions are read
   * from their reactionMessage upserts only: Baileys derives messages.reaction from those same
   * upserts (and, while it buffers events, folds it into a buffered upsert of the reacted
   * message instead of emitting it), so listening to both would hand each reaction on twice.
   */
  listen(sock: WASocketLike, run: (task: () => Promise<void>) => void): void {
    sock.ev.on('messages.upsert', ({ messages }) => run(() => this.onMessages(sock, messages)));
    sock.ev.on('messages.update', (updates) => run(async () => this.onUpdates(updates)));
    sock.ev.on('message-receipt.update', (receipts) => run(async () => this.onReceipts(receipts)));
    sock.ev.on('contacts.upsert', (contacts) => run(() => this.onContacts(sock, contacts)));
    sock.ev.on('contacts.update', (updates) => run(() => this.onContacts(sock, updates)));
  }

  async onMessages(sock: WASocketLike, messages: WAMessage[]): Promise<void> {
    for (const message of messages) {
      try {
        await this.#onMessage(sock, message);
      } catch (error) {
        this.#o.logger.error({ err: error, id: message.key.id }, 'handling a message failed');
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
    const reaction = reactionOf(content);
    if (reaction) {
      await this.#onReaction(sock, message, reaction);
      return;
    }
    if (key.fromMe && this.#ownSends.has(id)) return;
    const inbound = await this.toInbound(sock, message);
    if (!inbound) return;
    if (this.#seen.has(id)) return; // delivered twice while this one was being resolved
    this.#seen.set(id, true);
    this.#o.addressing.remember(id, message);
    this.#o.events.emit('message', inbound);
  }

  /** A Baileys message as the contract's message; undefined for what the product does not keep. */
  async toInbound(sock: WASocketLike, message: WAMessage): Promise<InboundMessage | undefined> {
    const { key } = message;
    const id = key.id;
    if (!id || isIgnoredJid(key.remoteJid)) return undefined;
    const content = normalizeMessageContent(message.message);
    if (!content || revokedIdOf(content)) return undefined;
    const read = readContent(content, () => this.#loadMedia(message));
    if (!read) return undefined;
    const resolved = await resolveKey(key, (lid) => sock.signalRepository.lidMapping.getPNForLID(lid));
    if (!resolved) return undefined;
    await this.#o.addressing.rememberLidOnly(resolved.lidOnly);
    const group = resolved.chat.kind === 'group' && key.remoteJid ? await this.#o.groups.subjectOf(sock, key.remoteJid) : undefined;
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

  /** Who reacted (a group's member, the customer, or the connection's own phone) and with what. */
  async #onReaction(sock: WASocketLike, message: WAMessage, reaction: { targetId: string; emoji: string }): Promise<void> {
    const { key } = message;
    const resolved = await resolveKey(key, (lid) => sock.signalRepository.lidMapping.getPNForLID(lid));
    if (!resolved || !key.id || this.#seen.has(key.id)) return;
    this.#seen.set(key.id, true);
    const name = message.pushName?.trim();
    const sender = resolved.sender ? { sender: { number: resolved.sender.number, ...(name ? { name } : {}) } } : {};
    this.#o.events.emit('reaction', { providerId: reaction.targetId, ...sender, emoji: reaction.emoji, fromMe: Boolean(key.fromMe) });
  }

  onUpdates(updates: WAMessageUpdate[]): void {
    for (const { key, update } of updates) {
      if (!key.id || isIgnoredJid(key.remoteJid)) continue;
      if (isRevokeUpdate(update)) {
        this.#emitRevoke(key.id);
        continue;
      }
      // An edit also arrives as a protocolMessage upsert, which readContent skips: this is the one path.
      const edited = editedTextOf(update);
      if (edited !== undefined) {
        this.#o.events.emit('edit', { providerId: key.id, body: edited });
        continue;
      }
      // Acks describe our own messages' way to the other side.
      if (key.fromMe && typeof update.status === 'number') {
        const ack = ackOfStatus(update.status);
        if (ack !== undefined) this.#o.events.emit('ack', { providerId: key.id, ack });
      }
    }
  }

  /** Groups report delivery and reading per participant; the first one moves the ack. */
  onReceipts(receipts: MessageUserReceiptUpdate[]): void {
    for (const { key, receipt } of receipts) {
      if (!key.id || !key.fromMe || isIgnoredJid(key.remoteJid)) continue;
      const ack = ackOfReceipt(receipt);
      if (ack !== undefined) this.#o.events.emit('ack', { providerId: key.id, ack });
    }
  }

  /**
   * Names and picture changes of people (contacts.upsert at sync, contacts.update later): the
   * address-book name on the linked phone, else the name they gave themself (`notify`), else
   * their business name; `imgUrl` 'changed' or 'removed'. LIDs resolve to the phone number
   * when it is known. Groups are not contacts here.
   */
  async onContacts(sock: WASocketLike, contacts: Partial<Contact>[]): Promise<void> {
    for (const c of contacts) {
      if (!c.id || isJidGroup(c.id) || isIgnoredJid(c.id)) continue;
      const name = [c.name, c.notify, c.verifiedName].map((n) => n?.trim()).find((n) => n);
      const picture = c.imgUrl === 'removed' ? 'removed' : c.imgUrl === 'changed' ? 'changed' : undefined;
      if (!name && !picture) continue;
      const person = await resolvePerson(c.id, c.phoneNumber, (lid) => sock.signalRepository.lidMapping.getPNForLID(lid));
      if (!person) continue;
      this.#o.events.emit('contact', { number: person.number, ...(name ? { name } : {}), ...(picture ? { picture } : {}) });
    }
  }

  #emitRevoke(providerId: string): void {
    if (this.#revoked.has(providerId)) return;
    this.#revoked.set(providerId, true);
    this.#o.events.emit('revoke', { providerId });
  }

  async #loadMedia(message: WAMessage): Promise<Buffer> {
    const sock = this.#o.currentSocket();
    try {
      return await this.#o.download(message, {
        logger: this.#o.logger,
        // Old media leave WhatsApp's servers; the phone can upload them again.
        reuploadRequest: (m) => (sock ? sock.updateMediaMessage(m) : Promise.reject(new Error('not connected'))),
      });
    } catch (error) {
      this.#o.logger.warn({ err: error, id: message.key.id }, 'media download failed');
      throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA');
    }
  }
}
