/**
 * Table types for Kysely. Booleans are stored as 0/1 integers and timestamps as ISO-8601 UTC
 * (TEXT on SQLite, timestamptz on PostgreSQL, read back as ISO strings), so one query code
 * serves both databases.
 */
import type { Generated, GeneratedAlways } from 'kysely';
import type { CsatTables } from './schema-csat.js';
import type { ReactionsTables } from './schema-reactions.js';
import type { HoursTables } from './schema-hours.js';
import type { LabelsTables } from './schema-labels.js';
import type { NotesTables } from './schema-notes.js';
import type { AssignTables } from './schema-assign.js';
import type { WebhooksTables } from './schema-webhooks.js';

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
  /** 1 when a sign-in found the password below today's policy; cleared by a password change. */
  passwordChangeRequired: Generated<Bool>;
  /** A plain user's role; null: the built-in agent role. */
  roleId: Generated<number | null>;
  /** Folded (lower-case, no accents) name and email for search. */
  searchText: Generated<string>;
  /** The TOTP secret, sealed (secret-box); pending until `totpEnabledAt` is set. */
  totpSecret: string | null;
  totpEnabledAt: Timestamp | null;
  /** The last TOTP time step a code was accepted for: a code is good once. */
  totpLastStep: number | null;
  /** When this admin closed the first-run checklist (migration 032); null while it is shown. */
  checklistDismissedAt: Generated<Timestamp | null>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
};

/** Per user: the last successful sign-in, and the failed attempts since (told at the next sign-in). */
export type SignInRecordsTable = {
  userId: number;
  lastSuccessAt: Timestamp | null;
  lastSuccessAddress: string | null;
  failedCount: Generated<number>;
  failedLastAt: Timestamp | null;
  failedLastAddress: string | null;
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
  /** Set while a session runs here; still set at start means the last run did not stop cleanly. */
  sessionOpenSince: Generated<Timestamp | null>;
  /** Customer satisfaction question after 'Resolver' (migration 037): off by default; '' question = the language's default. */
  csatEnabled: Generated<Bool>;
  csatQuestion: Generated<string>;
  csatLanguage: Generated<string>;
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
  /** The line of the last message a person wrote, not an automatic one (migration 030); '' while none. */
  previewMessage: Generated<string>;
  unreadMessages: number;
  isGroup: Bool;
  /** The service-protocol number given when it was closed with 'Protocolo'. */
  protocol: Generated<string | null>;
  /** An agent's first message written in the inbox (migration 038); null while none. */
  firstResponseAt: Generated<Timestamp | null>;
  /** The ticket's last close (migration 038); null while it is not closed. */
  closedAt: Generated<Timestamp | null>;
  /** createdAt to firstResponseAt and to closedAt in integer milliseconds, computed by the database (migration 043). */
  firstResponseMs: GeneratedAlways<number | null>;
  resolutionMs: GeneratedAlways<number | null>;
  /** The contact's first message on the ticket; kept by a trigger on messages (migration 047). */
  askedAt: Generated<Timestamp | null>;
  /** The inbox's first answer at or after askedAt, and its sender (null: the phone); same trigger. */
  answeredAt: Generated<Timestamp | null>;
  answeredBy: Generated<number | null>;
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
  /** The file's own name (a document's 'contrato.pdf'), and its size in bytes (migration 019). */
  mediaName: Generated<string | null>;
  mediaSize: Generated<number | null>;
  quotedMsgId: number | null;
  isDeleted: Bool;
  /** The author changed the text after sending it (WhatsApp message edit). */
  isEdited: Generated<Bool>;
  /** Folded body for full-text search. */
  searchText: Generated<string>;
  /** An own message's way out: queued, sent or failed (see OutboxTable). */
  sendStatus: Generated<string>;
  /** The ERR_ code of a failed send. */
  sendError: Generated<string | null>;
  /** 1: sent by the chatbot. */
  fromBot: Generated<Bool>;
  /** The agent who wrote an own message in the inbox (migration 020; null before, and for everything else). */
  userId: Generated<number | null>;
  /** 1: sent by the product itself (greeting, queue menu, notice, farewell, chatbot, campaign): no agent's reply. */
  automatic: Generated<Bool>;
  /** 1: a private note of the team, never sent to the contact (migration 034). */
  isNote: Generated<Bool>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
};

/**
 * Persisted outbound work: one row per message to send, written before the send, with the
 * provider id it goes out under, so a send repeated after a crash is the same message.
 */
/** A sign-in's chain of refresh tokens: one valid id at a time (see migration 009). */
export type RefreshFamiliesTable = {
  id: string;
  userId: number;
  currentJti: string;
  /** The id replaced by the last rotation, accepted for a few seconds (two tabs refreshing at once). */
  previousJti: string | null;
  rotatedAt: Timestamp | null;
  expiresAt: Timestamp;
  revokedAt: Timestamp | null;
  /** 1 when the sign-in passed the second factor (TOTP or a recovery code). */
  secondFactor: Generated<number>;
  createdAt: Timestamp;
};

export type RecoveryCodesTable = {
  userId: number;
  /** SHA-256 (hex) of the code: the codes are random enough that a slow hash adds nothing. */
  codeHash: string;
  usedAt: Timestamp | null;
  createdAt: Timestamp;
};

export type TwoFactorChallengesTable = {
  /** SHA-256 (hex) of the challenge token the client holds. */
  id: string;
  userId: number;
  tokenVersion: number;
  /** 'verify' (a code is owed) or 'setup' (the set-up is owed). */
  purpose: string;
  attempts: Generated<number>;
  expiresAt: Timestamp;
  createdAt: Timestamp;
};

/** Named API tokens (see migration 022): only the token's SHA-256 is stored. */
export type ApiTokensTable = {
  id: Generated<number>;
  name: string;
  tokenHash: string;
  prefix: string;
  /** A JSON array of permission keys. */
  permissions: string;
  expiresAt: Timestamp | null;
  lastUsedAt: Timestamp | null;
  createdBy: number | null;
  createdAt: Timestamp;
  revokedAt: Timestamp | null;
};

export type OutboxTable = {
  id: Generated<number>;
  whatsappId: number;
  providerId: string;
  /** The chat message it delivers, when it is one. */
  messageId: number | null;
  /** The ChatAddress, as JSON. */
  chat: string;
  /** The OutboxContent, as JSON. */
  content: string;
  quotedProviderId: string | null;
  /** queued, sending, sent or failed. */
  status: string;
  attempts: Generated<number>;
  error: string | null;
  dueAt: Timestamp;
  sentAt: Timestamp | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
};

/** Work that runs on one node at a time: the owner until expiresAt, and each take-over's number. */
export type LeasesTable = {
  name: string;
  owner: string;
  generation: number;
  expiresAt: Timestamp;
};

/** A webhook delivery already taken, remembered until it could no longer be fresh (see features/vonage). */
export type WebhookReplaysTable = {
  key: string;
  expiresAt: Timestamp;
};

/** A simulated phone's state log in the cluster mode (see channels/simulator/simulator-phone.ts). */
export type SimulatorPhoneLogTable = {
  id: Generated<number>;
  whatsappId: number;
  line: string;
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

export type CampaignsTable = {
  id: Generated<number>;
  kind: string;
  /** Null for SMS and calls: they go through the telephony provider. */
  whatsappId: number | null;
  userId: number | null;
  /** SMS and calls: the number or name they come from. */
  sender: Generated<string | null>;
  /** Calls: the text-to-speech language (pt-BR, en-US, es-ES). */
  language: Generated<string | null>;
  /** 'page' or 'api'. */
  source: string;
  message: string;
  /** The prepared file, relative to the media root. */
  mediaPath: string | null;
  mediaMimetype: string | null;
  mediaName: string | null;
  mediaType: string | null;
  minDelay: number;
  maxDelay: number;
  /** 'numbers' (typed), 'groups' or 'participants' (of groups). */
  audience: Generated<string>;
  status: string;
  pauseReason: string | null;
  note: string | null;
  scheduledAt: Timestamp | null;
  startedAt: Timestamp | null;
  finishedAt: Timestamp | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
};

export type CampaignRecipientsTable = {
  id: Generated<number>;
  campaignId: number;
  /** The line as typed. */
  input: string;
  /** Digits as sent (the bulk number rule applied); null when it is not a phone number. */
  number: string | null;
  /** A group recipient (message in groups, group actions): its id; number is null then. */
  groupId: string | null;
  status: string;
  error: string | null;
  providerId: string | null;
  /** SMS and calls: the provider's last report (delivered, answered, completed, failed...). */
  delivery: Generated<string | null>;
  /** Tries that failed for a reason that passes (the provider busy, throttled or unreachable). */
  attempts: Generated<number>;
  sentAt: Timestamp | null;
  updatedAt: Timestamp;
};

export type EmailsTable = {
  id: Generated<number>;
  kind: string;
  ticketId: number | null;
  /** Comma-separated addresses. */
  toAddresses: string;
  subject: string;
  body: string;
  /** JSON: [{ filename, contentType, base64 }]. */
  attachments: string;
  status: string;
  attempts: Generated<number>;
  lastError: string | null;
  nextAttemptAt: Timestamp | null;
  sentAt: Timestamp | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
};

export type ChatbotSessionsTable = {
  ticketId: number;
  /** Typebot's session id; null until the flow starts (or after it expired or was restarted). */
  sessionId: string | null;
  /** 'active' (the bot answers), 'off' (stopped on this ticket) or 'ended' (the flow finished or handed over). */
  status: string;
  /** JSON: the choices of the question the bot asked last, so a number can answer it. */
  choices: Generated<string>;
  /** JSON: the bot's answers still to send and what follows them ('' when none). */
  pending: Generated<string>;
  lastActivityAt: Timestamp;
  lastError: string | null;
  errorAt: Timestamp | null;
  updatedAt: Timestamp;
};

export type ChatbotInputsTable = {
  id: Generated<number>;
  ticketId: number;
  text: string;
  /** 1: the customer asked to start the flow again. */
  restart: Generated<number>;
  attempts: Generated<number>;
  nextAttemptAt: Timestamp;
  createdAt: Timestamp;
};

export type AuditEventsTable = {
  id: Generated<number>;
  at: Timestamp;
  actorUserId: number | null;
  actorName: string;
  /** 'user', 'apiToken' or 'anonymous'. */
  actorKind: string;
  tokenName: string | null;
  /** A key of AUDIT_ACTIONS. */
  action: string;
  targetType: string | null;
  targetId: string | null;
  targetName: string | null;
  /** JSON: a few facts of the action, never a secret. */
  detail: string;
  ip: string;
  userAgent: string;
  /** 'ok', 'denied' or 'failed'. */
  outcome: string;
  statusCode: number;
};

/** A named set of permissions; `key` 'agent' marks the built-in role. */
export type RolesTable = {
  id: Generated<number>;
  name: string;
  key: string | null;
  /** A JSON array of permission keys. */
  permissions: string;
  twoFactorRequired: Generated<Bool>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
};

/** The whaticket importer's map: a source row and the row it became (migration 027). */
export type ImportMapTable = { source: string; sourceTable: string; sourceId: string; targetId: number; sourceUpdatedAt: Timestamp | null };

export type ImportRunsTable = { id: Generated<number>; source: string; startedAt: Timestamp; finishedAt: Timestamp | null; report: string | null; messagesWatermark: Timestamp | null };

/** An imported message whose quoted message was not imported yet. */
export type ImportPendingQuotesTable = { source: string; messageId: number; quotedSourceId: string };

export type Database = {
  users: UsersTable;
  signInRecords: SignInRecordsTable;
  roles: RolesTable;
  queues: QueuesTable;
  userQueues: UserQueuesTable;
  whatsapps: WhatsappsTable;
  whatsappQueues: WhatsappQueuesTable;
  channelAuth: ChannelAuthTable;
  contacts: ContactsTable;
  contactExtraInfo: ContactExtraInfoTable;
  tickets: TicketsTable;
  messages: MessagesTable;
  outbox: OutboxTable;
  leases: LeasesTable;
  webhookReplays: WebhookReplaysTable;
  simulatorPhoneLog: SimulatorPhoneLogTable;
  refreshFamilies: RefreshFamiliesTable;
  recoveryCodes: RecoveryCodesTable;
  twoFactorChallenges: TwoFactorChallengesTable;
  apiTokens: ApiTokensTable;
  campaigns: CampaignsTable;
  campaignRecipients: CampaignRecipientsTable;
  emails: EmailsTable;
  chatbotSessions: ChatbotSessionsTable;
  chatbotInputs: ChatbotInputsTable;
  quickAnswers: QuickAnswersTable;
  settings: SettingsTable;
  auditEvents: AuditEventsTable;
  importMap: ImportMapTable;
  importRuns: ImportRunsTable;
  importPendingQuotes: ImportPendingQuotesTable;
} & CsatTables &
  ReactionsTables &
  HoursTables &
  LabelsTables &
  NotesTables &
  AssignTables &
  WebhooksTables;
