/** The channel contract's calls on a WhatsApp socket: pairing code, send, delete, read, number check, picture. */
import type { WAMessage } from '@whiskeysockets/baileys';
import { AppError } from '../../core/errors.js';
import type { ChatAddress, OutboundContent, SendResult } from '../channel.js';
import { jidUser, personJid } from './jid.js';
import type { WhatsappAddressing } from './whatsapp-addressing.js';
import type { WhatsappInbound } from './whatsapp-inbound.js';
import type { BaileysLogger } from './whatsapp-logger.js';
import { outboundMessage, timestampOf } from './whatsapp-message.js';
import type { WASocketLike } from './whatsapp-socket.js';

export type WhatsappOutboundOptions = { logger: BaileysLogger; addressing: WhatsappAddressing; inbound: WhatsappInbound };

export class WhatsappOutbound {
  readonly #o: WhatsappOutboundOptions;

  constructor(options: WhatsappOutboundOptions) {
    this.#o = options;
  }

  /** A code to type on the phone instead of scanning the QR code. */
  async pairingCode(sock: WASocketLike, phoneNumber: string): Promise<string> {
    const digits = phoneNumber.replace(/\D/g, '');
    personJid(digits); // validates the number
    try {
      return await sock.requestPairingCode(digits);
    } catch (error) {
      this.#o.logger.warn({ err: error }, 'pairing code request failed');
      throw new AppError('ERR_WAPP_NOT_INITIALIZED', { message: 'WhatsApp did not give a pairing code. Try again, or scan the QR code.' });
    }
  }

  async send(sock: WASocketLike, to: ChatAddress, content: OutboundContent, options: { providerId: string; quotedProviderId?: string | undefined }): Promise<SendResult> {
    const jid = await this.#o.addressing.jidFor(sock, to);
    const quoted = options.quotedProviderId ? this.#o.addressing.recent(options.quotedProviderId) : undefined;
    // Our own id, known before Baileys echoes the message back through messages.upsert. A send
    // repeated after a crash goes out under the same id, which WhatsApp keeps as one message.
    const messageId = options.providerId;
    this.#o.inbound.markOwnSend(messageId);
    let sent: WAMessage | undefined;
    try {
      sent = await sock.sendMessage(jid, outboundMessage(content), { messageId, ...(quoted ? { quoted } : {}) });
    } catch (error) {
      this.#o.logger.warn({ err: error, jid }, 'sending failed');
      throw new AppError('ERR_SENDING_WAPP_MSG');
    }
    const providerId = sent?.key.id;
    if (!sent || !providerId) throw new AppError('ERR_SENDING_WAPP_MSG');
    this.#o.inbound.markOwnSend(providerId);
    this.#o.addressing.remember(providerId, sent);
    return { providerId, timestamp: timestampOf(sent) };
  }

  async deleteForEveryone(sock: WASocketLike, chat: ChatAddress, providerId: string, fromMe: boolean): Promise<void> {
    const key = await this.#o.addressing.keyFor(sock, chat, providerId, fromMe);
    try {
      await sock.sendMessage(key.remoteJid ?? (await this.#o.addressing.jidFor(sock, chat)), { delete: key });
    } catch (error) {
      this.#o.logger.warn({ err: error, id: providerId }, 'delete for everyone failed');
      throw new AppError('ERR_DELETE_WAPP_MSG');
    }
  }

  async markRead(sock: WASocketLike, chat: ChatAddress, providerIds: string[]): Promise<void> {
    if (providerIds.length === 0) return;
    const keys = await Promise.all(providerIds.map((id) => this.#o.addressing.keyFor(sock, chat, id, false)));
    await sock.readMessages(keys);
  }

  async checkNumber(sock: WASocketLike, number: string): Promise<string | undefined> {
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
      this.#o.logger.warn({ err: error }, 'number check failed');
      throw new AppError('ERR_WAPP_CHECK_CONTACT');
    }
    const found = results?.find((r) => r.exists);
    return found ? jidUser(found.jid) : undefined;
  }

  async profilePictureUrl(sock: WASocketLike, chat: ChatAddress): Promise<string | undefined> {
    try {
      return (await sock.profilePictureUrl(await this.#o.addressing.jidFor(sock, chat), 'image')) || undefined;
    } catch {
      return undefined; // no picture, or hidden by the contact's privacy settings
    }
  }
}
