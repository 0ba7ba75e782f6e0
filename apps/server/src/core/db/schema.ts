/**
 * Table types for Kysely. Booleans are stored as 0/1 integers and timestamps as ISO-8601 UTC
 * (TEXT on SQLite, timestamptz on PostgreSQL, read back as ISO strings), so one query code
 * serves both databases.
 */
import type { Generated } from 'kysely';

type Bool = number;
type Timestamp = string;

export type UsersTable = {
  id: Generated<number>;
  name: string;
  email: string;
  passwordHash: string;
  profile: string;
  tokenVersion: Generated<number>;
  whatsappId: number | null;
  /** Folded (lower-case, no accents) name and email for search. */
  searchText: Generated<string>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
};

export type QueuesTable = {
  id: Generated<number>;
  name: string;
  color: string;
  greetingMessage: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
};

export type UserQueuesTable = { userId: number; queueId: number };

export type WhatsappsTable = {
  id: Generated<number>;
  name: string;
  channel: string;
  status: string;
  qrcode: string;
  retries: Generated<number>;
  isDefault: Bool;
  greetingMessage: string;
  farewellMessage: string;
  /** The node that owns the live session, and until when (scale-out lease). */
  leaseOwner: string | null;
  leaseUntil: Timestamp | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
};

export type WhatsappQueuesTable = { whatsappId: number; queueId: number };

/** Channel session state (Baileys creds and signal keys), one row per (connection, type, key). */
export type ChannelAuthTable = { whatsappId: number; type: string; keyId: string; value: string };

export type ContactsTable = {
  id: Generated<number>;
  name: string;
  number: string;
  email: string;
  profilePicUrl: string;
  isGroup: Bool;
  /** Folded (lower-case, no accents) name, number and email for search. */
  searchText: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
};

export type ContactExtraInfoTable = { id: Generated<number>; contactId: number; name: string; value: string };

export type TicketsTable = {
  id: Generated<number>;
  status: string;
  contactId: number;
  whatsappId: number;
  userId: number | null;
  queueId: number | null;
  lastMessage: string;
  unreadMessages: number;
  isGroup: Bool;
  createdAt: Timestamp;
  updatedAt: Timestamp;
};

export type MessagesTable = {
  id: Generated<number>;
  ticketId: number;
  whatsappId: number;
  /** The provider's message id: a redelivery never makes a second row. */
  providerId: string;
  contactId: number | null;
  body: string;
  fromMe: Bool;
  read: Bool;
  ack: number;
  mediaType: string | null;
  mediaPath: string | null;
  quotedMsgId: number | null;
  isDeleted: Bool;
  /** The author changed the text after sending it (WhatsApp message edit). */
  isEdited: Generated<Bool>;
  /** Folded body for full-text search. */
  searchText: Generated<string>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
};

export type QuickAnswersTable = {
  id: Generated<number>;
  shortcut: string;
  message: string;
  searchText: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
};

export type SettingsTable = { key: string; value: string; updatedAt: Timestamp };

export type Database = {
  users: UsersTable;
  queues: QueuesTable;
  userQueues: UserQueuesTable;
  whatsapps: WhatsappsTable;
  whatsappQueues: WhatsappQueuesTable;
  channelAuth: ChannelAuthTable;
  contacts: ContactsTable;
  contactExtraInfo: ContactExtraInfoTable;
  tickets: TicketsTable;
  messages: MessagesTable;
  quickAnswers: QuickAnswersTable;
  settings: SettingsTable;
};
