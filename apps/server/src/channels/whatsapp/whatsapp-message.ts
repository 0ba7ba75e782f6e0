/**
 * What a WhatsApp message says, in the product's terms: body, media, location, contact card,
 * quoted id; and the delivery acks. Pure functions over Baileys' protobuf shapes.
 */
import type { MediaType } from '@zapdesk/shared/domain';
import { proto, toNumber, WAMessageStatus, type AnyMessageContent, type WAMessage } from '@whiskeysockets/baileys';
import { placeDescription, type InboundMedia, type InboundMessage, type MediaData, type OutboundContent } from '../channel.js';

export type MessageContent = Pick<InboundMessage, 'body' | 'media' | 'location' | 'vcard' | 'quotedProviderId'>;

const MIME_EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'video/3gpp': '3gp',
  'video/quicktime': 'mov',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/amr': 'amr',
  'application/pdf': 'pdf',
};

function extensionOf(mimetype: string): string {
  return MIME_EXTENSIONS[mimetype.split(';')[0]?.trim().toLowerCase() ?? ''] ?? 'bin';
}

/** fileLength: the size the sender announces (a protobuf Long or a number). */
type MediaSpec = { mediaType: MediaType; mimetype: string; filename: string; fileLength?: Parameters<typeof toNumber>[0] };

function media({ fileLength, ...spec }: MediaSpec, load: () => Promise<Buffer>): InboundMedia {
  const size = fileLength ? toNumber(fileLength) : 0;
  return { ...spec, ...(size > 0 ? { size } : {}), load };
}

/** The id of the message this one answers, wherever the content keeps its context. */
function quotedIdOf(content: proto.IMessage): string | undefined {
  const holders = [
    content.extendedTextMessage,
    content.imageMessage,
    content.videoMessage,
    content.audioMessage,
    content.documentMessage,
    content.stickerMessage,
    content.locationMessage,
    content.liveLocationMessage,
    content.contactMessage,
    content.contactsArrayMessage,
  ];
  for (const holder of holders) {
    const id = holder?.contextInfo?.stanzaId;
    if (id) return id;
  }
  return undefined;
}

/**
 * The product's reading of a normalized content (wrappers already removed); undefined for
 * what the inbox does not show (reactions, protocol messages, polls, buttons, ...).
 */
export function readContent(content: proto.IMessage, load: () => Promise<Buffer>): MessageContent | undefined {
  const quoted = quotedIdOf(content);
  const withQuote = <T extends Omit<MessageContent, 'quotedProviderId'>>(value: T): MessageContent => (quoted ? { ...value, quotedProviderId: quoted } : value);

  if (typeof content.conversation === 'string' && content.conversation) return withQuote({ body: content.conversation });
  if (content.extendedTextMessage) return withQuote({ body: content.extendedTextMessage.text ?? '' });
  if (content.imageMessage) {
    const m = content.imageMessage;
    const mimetype = m.mimetype || 'image/jpeg';
    return withQuote({ body: m.caption ?? '', media: media({ mediaType: 'image', mimetype, filename: `image.${extensionOf(mimetype)}`, fileLength: m.fileLength }, load) });
  }
  if (content.videoMessage) {
    const m = content.videoMessage;
    const mimetype = m.mimetype || 'video/mp4';
    return withQuote({ body: m.caption ?? '', media: media({ mediaType: 'video', mimetype, filename: `video.${extensionOf(mimetype)}`, fileLength: m.fileLength }, load) });
  }
  if (content.audioMessage) {
    const m = content.audioMessage;
    const mimetype = m.mimetype || 'audio/ogg; codecs=opus';
    return withQuote({ body: '', media: media({ mediaType: 'audio', mimetype, filename: `${m.ptt ? 'voice' : 'audio'}.${extensionOf(mimetype)}`, fileLength: m.fileLength }, load) });
  }
  if (content.documentMessage) {
    const m = content.documentMessage;
    const mimetype = m.mimetype || 'application/octet-stream';
    return withQuote({ body: m.caption ?? '', media: media({ mediaType: 'other', mimetype, filename: m.fileName || `document.${extensionOf(mimetype)}`, fileLength: m.fileLength }, load) });
  }
  if (content.stickerMessage) {
    const mimetype = content.stickerMessage.mimetype || 'image/webp';
    return withQuote({ body: '', media: media({ mediaType: 'image', mimetype, filename: `sticker.${extensionOf(mimetype)}` }, load) });
  }
  if (content.locationMessage) {
    const m = content.locationMessage;
    const description = placeDescription(m.name, m.address);
    return withQuote({ body: '', location: { latitude: m.degreesLatitude ?? 0, longitude: m.degreesLongitude ?? 0, ...(description ? { description } : {}) } });
  }
  if (content.liveLocationMessage) {
    const m = content.liveLocationMessage;
    const description = placeDescription(m.caption, undefined);
    return withQuote({ body: '', location: { latitude: m.degreesLatitude ?? 0, longitude: m.degreesLongitude ?? 0, ...(description ? { description } : {}) } });
  }
  if (content.contactMessage) {
    const m = content.contactMessage;
    return withQuote({ body: m.displayName ?? '', vcard: m.vcard ?? '' });
  }
  if (content.contactsArrayMessage) {
    const m = content.contactsArrayMessage;
    const cards = (m.contacts ?? []).map((c) => c.vcard ?? '').filter(Boolean);
    return withQuote({ body: m.displayName ?? '', vcard: cards.join('\n') });
  }
  return undefined;
}

/** The id of the message a protocol message revokes, if it is a revoke. */
export function revokedIdOf(content: proto.IMessage): string | undefined {
  const p = content.protocolMessage;
  if (!p || p.type !== proto.Message.ProtocolMessage.Type.REVOKE) return undefined;
  return p.key?.id ?? undefined;
}

/**
 * The new text of an edited message, from the `messages.update` Baileys emits for an edit
 * (`update.message.editedMessage.message`, the protocolMessage MESSAGE_EDIT unwrapped): the
 * text or the media caption. Undefined when the update is no edit, or not of a text.
 */
export function editedTextOf(update: Partial<WAMessage>): string | undefined {
  const edited = update.message?.editedMessage?.message;
  if (!edited) return undefined;
  const content = edited.protocolMessage?.editedMessage ?? edited;
  if (typeof content.conversation === 'string' && content.conversation) return content.conversation;
  const text = content.extendedTextMessage?.text ?? content.imageMessage?.caption ?? content.videoMessage?.caption ?? content.documentMessage?.caption;
  return typeof text === 'string' && text ? text : undefined;
}

/**
 * A reaction (reactionMessage): the id of the message it reacts to and the emoji, '' when the
 * reaction was taken away. Undefined when the content is no reaction.
 */
export function reactionOf(content: proto.IMessage): { targetId: string; emoji: string } | undefined {
  const r = content.reactionMessage;
  const targetId = r?.key?.id;
  if (!r || !targetId) return undefined;
  return { targetId, emoji: r.text ?? '' };
}

/** Whether a `messages.update` says the message was deleted for everyone. */
export function isRevokeUpdate(update: Partial<WAMessage>): boolean {
  if (update.messageStubType === proto.WebMessageInfo.StubType.REVOKE) return true;
  return Boolean(update.message?.protocolMessage && update.message.protocolMessage.type === proto.Message.ProtocolMessage.Type.REVOKE);
}

/**
 * The product's ack (0 clock .. 4 played) of a WhatsApp status: PENDING 1 -> 0, SERVER_ACK 2 -> 1,
 * DELIVERY_ACK 3 -> 2, READ 4 -> 3, PLAYED 5 -> 4. ERROR has no ack: undefined.
 */
export function ackOfStatus(status: number): number | undefined {
  if (status === Number(WAMessageStatus.ERROR)) return undefined;
  return Math.min(4, Math.max(0, status - 1));
}

/** A group receipt: delivered to a participant (DELIVERY_ACK) or read / played by one (READ). */
export function ackOfReceipt(receipt: proto.IUserReceipt): number | undefined {
  if (receipt.readTimestamp || receipt.playedTimestamp) return ackOfStatus(WAMessageStatus.READ);
  if (receipt.receiptTimestamp) return ackOfStatus(WAMessageStatus.DELIVERY_ACK);
  return undefined;
}

export function timestampOf(message: Pick<WAMessage, 'messageTimestamp'>, fallback = new Date()): Date {
  const seconds = toNumber(message.messageTimestamp);
  return seconds > 0 ? new Date(seconds * 1000) : fallback;
}

/** A file as Baileys takes it: bytes, or a local path it streams from. */
function mediaUpload(data: MediaData): Buffer | { url: string } {
  return Buffer.isBuffer(data) ? data : { url: data.path };
}

/** The contract's outbound content as Baileys message content. */
export function outboundMessage(content: OutboundContent): AnyMessageContent {
  switch (content.kind) {
    case 'text':
      // linkPreview: null stops Baileys fetching the first URL of the text for a preview.
      return { text: content.body, linkPreview: null };
    case 'voice':
      return { audio: mediaUpload(content.data), ptt: true, mimetype: 'audio/ogg; codecs=opus' };
    case 'media': {
      const caption = content.caption ? { caption: content.caption } : {};
      const data = mediaUpload(content.data);
      if (content.mediaType === 'image') return { image: data, mimetype: content.mimetype, ...caption };
      if (content.mediaType === 'video') return { video: data, mimetype: content.mimetype, ...caption };
      if (content.mediaType === 'audio') return { audio: data, mimetype: content.mimetype, ptt: false };
      return { document: data, mimetype: content.mimetype, fileName: content.filename, ...caption };
    }
  }
}
