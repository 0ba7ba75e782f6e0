/**
 * The contract every messaging driver implements (WhatsApp through Baileys, the simulator,
 * later Instagram). Addresses here are the product's own: a contact is a phone number in digits
 * (`5511999990000`) or a group id; provider address formats never leave a driver.
 */
import type { ConnectionStatus, MediaType } from '@zapdesk/shared/domain';

/** Who a conversation is with: a person by phone number, or a group. */
export type ChatAddress = { kind: 'person'; number: string } | { kind: 'group'; groupId: string };

export type InboundMedia = {
  mediaType: MediaType;
  mimetype: string;
  /** The sender's name of the file where the provider has one (a document's), else one made from its type. */
  filename: string;
  /** Its size in bytes as the provider announces it, kept when the download fails. */
  size?: number;
  /** Reads the bytes; drivers download lazily so a failed download never loses the message. */
  load: () => Promise<Buffer>;
};

export type InboundMessage = {
  /** The provider's id: the pipeline stores each id once. */
  providerId: string;
  chat: ChatAddress;
  /** The person who wrote (in a group, the participant); absent for own messages. */
  sender?: { number: string; name?: string };
  fromMe: boolean;
  body: string;
  media?: InboundMedia;
  /** A shared place; the description is its name and address on two lines (see placeDescription). */
  location?: { latitude: number; longitude: number; description?: string };
  vcard?: string;
  quotedProviderId?: string;
  group?: { subject: string };
  timestamp: Date;
};

/**
 * What to send. A file's `url`, when the server has one, is a public address of the same bytes,
 * for providers that fetch files themselves (Instagram).
 */
/** A file to send: its bytes, or where it is on disk (read as a stream by the driver, never whole; MEDIA_DIR is shared by every node). */
export type MediaData = Buffer | { path: string };

export type OutboundContent =
  | { kind: 'text'; body: string }
  | { kind: 'media'; mediaType: MediaType; data: MediaData; mimetype: string; filename: string; caption?: string; url?: string }
  | { kind: 'voice'; data: MediaData; mimetype: string; url?: string };

/**
 * A person's reaction to a message (by the message's provider id): `emoji` '' when they took it
 * away. `sender`: who reacted (in a group, the member); absent when the connection's own phone did (`fromMe`).
 */
export type InboundReaction = { providerId: string; sender?: { number: string; name?: string }; emoji: string; fromMe: boolean };

export type SendResult = { providerId: string; timestamp: Date };

/**
 * A call offered to the connection's number: `from` is the caller's number (in a group call, the
 * member who calls). WhatsApp may offer the same call more than once.
 */
export type InboundCall = { callId: string; from: string; isGroup: boolean; isVideo: boolean; timestamp: Date };

export type ChannelEvents = {
  /** A new QR code to show ('' when none is pending). */
  qr: (qrcode: string) => void;
  /** Pairing-by-code: the code to type on the phone. */
  pairingCode: (code: string) => void;
  /** `retries`: the driver's own count of reconnect attempts, when it reconnects by itself. */
  status: (status: ConnectionStatus, info?: { loggedOut?: boolean; reason?: string; retries?: number }) => void;
  /**
   * A message reached the connection. The listener's promise settles once the message is
   * stored (or refused): a driver that can hold back its acknowledgement to the sender until
   * then (the simulator's inbound route) waits for it.
   */
  message: (message: InboundMessage) => void | Promise<void>;
  /** Delivery progress of a message: 0 pending .. 4 read. */
  ack: (update: { providerId: string; ack: number }) => void;
  revoke: (update: { providerId: string }) => void;
  /** The author changed a message's text on the phone: its whole new text. */
  edit: (update: { providerId: string; body: string }) => void;
  /** Someone reacted to a message, changed their reaction, or took it away. */
  reaction: (reaction: InboundReaction) => void;
  /**
   * What the network says about a person: the name they go by, and whether their profile
   * picture changed or was removed (the new address is asked for with profilePictureUrl).
   */
  contact: (update: { number: string; name?: string; picture?: 'changed' | 'removed' }) => void;
  /**
   * Someone calls the connection's number. As with a message, a driver that can wait (the
   * simulator's call route) waits for the listener's promise.
   */
  call: (call: InboundCall) => void | Promise<void>;
};

/** A message the product holds, as the provider knows it: an anchor for history requests. */
export type HistoryAnchor = { providerId: string; fromMe: boolean; timestamp: Date };

/**
 * Past messages of one chat, oldest first: up to `limit` messages older than `before` (the
 * oldest message the product already holds for that chat), or the latest ones when it holds
 * none; with `after` (the newest it holds), the latest ones not older than it, which is how a
 * restart after a crash reads again what arrived while nothing was stored. WhatsApp can only
 * answer relative to a known message, so it needs `before` or `after`.
 */
export type HistoryRequest = { chat: ChatAddress; limit: number; before?: HistoryAnchor; after?: HistoryAnchor };

/** A member of a group: `number` in the product's form (LID digits when no phone number is known). */
export type GroupParticipant = { number: string; admin: boolean; me: boolean };

/**
 * A group the connection's number belongs to. `announce`: only admins may send (closed);
 * `restrict`: only admins may edit its name and description.
 */
export type GroupInfo = { groupId: string; subject: string; description: string; announce: boolean; restrict: boolean; participants: GroupParticipant[] };

/** What a group action changes. */
export type GroupChange = { subject: string } | { description: string } | { announce: boolean };

/**
 * A created group, and the numbers that are not in it: no account on the network
 * (ERR_WAPP_INVALID_CONTACT) or refused by the network, e.g. their privacy settings (ERR_GROUP_ADD_REFUSED).
 */
export type GroupCreated = { group: GroupInfo; failed: { number: string; error: 'ERR_WAPP_INVALID_CONTACT' | 'ERR_GROUP_ADD_REFUSED' }[] };

export interface ChannelDriver {
  /** Whether the session is open now: what is sent now goes out now. */
  readonly connected: boolean;
  start(): Promise<void>;
  /** Closes the live session but keeps the credentials (restart, shutdown). */
  stop(): Promise<void>;
  /** Unlinks the device and forgets the credentials. */
  logout(): Promise<void>;
  requestPairingCode(phoneNumber: string): Promise<string>;
  /** A new provider id in this channel's format: a reply is stored under it before it is sent. */
  newMessageId(): string;
  /**
   * Sends under `providerId` (from newMessageId). Sending the same id again after a crash is
   * the same message: the provider, or the simulated phone, keeps one copy.
   */
  send(to: ChatAddress, content: OutboundContent, options: { providerId: string; quotedProviderId?: string | undefined }): Promise<SendResult>;
  /**
   * Whether a message sent under `providerId` reached the network, asked after a crash came
   * between a send and its result: true, false, or undefined when the provider cannot tell (a
   * later ack for that id still says it went out).
   */
  confirmSent(to: ChatAddress, providerId: string): Promise<boolean | undefined>;
  deleteForEveryone(chat: ChatAddress, providerId: string, fromMe: boolean): Promise<void>;
  markRead(chat: ChatAddress, providerIds: string[]): Promise<void>;
  /** Declines a call the 'call' event offered (`from` as the event gave it): the caller's phone stops ringing. */
  rejectCall(callId: string, from: string): Promise<void>;
  /** The number's canonical form when it has an account, else undefined. */
  checkNumber(number: string): Promise<string | undefined>;
  profilePictureUrl(chat: ChatAddress): Promise<string | undefined>;
  /** ERR_FETCH_WAPP_MSG when the provider cannot answer (no anchor, refused, timed out). */
  fetchHistory(request: HistoryRequest): Promise<InboundMessage[]>;
  /** Every group the connection's number belongs to, read from the network now. */
  listGroups(): Promise<GroupInfo[]>;
  /** One group as the network knows it now; ERR_GROUP_NOT_FOUND when the number is not in it. */
  groupInfo(groupId: string): Promise<GroupInfo>;
  /** Creates a group with the connection's number as its admin and the given members. */
  createGroup(subject: string, numbers: string[]): Promise<GroupCreated>;
  /** ERR_GROUP_NOT_ADMIN when the network refuses it to a member who is not admin. */
  updateGroup(groupId: string, change: GroupChange): Promise<void>;
  on<K extends keyof ChannelEvents>(event: K, listener: ChannelEvents[K]): void;
}

/**
 * A shared place's description as stored: its name on the first line, its address on the next
 * (either may be missing); the chat's location card shows them apart.
 */
export function placeDescription(name: string | null | undefined, address: string | null | undefined): string | undefined {
  const parts = [name, address].map((p) => p?.trim()).filter((p): p is string => Boolean(p));
  return parts.length ? parts.join('\n') : undefined;
}
