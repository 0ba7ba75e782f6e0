/** Domain vocabulary shared by server and web: statuses, roles, setting keys, limits. */

export const PROFILES = ['admin', 'user'] as const;
export type Profile = (typeof PROFILES)[number];

export function isAdminProfile(profile: string): boolean {
  return profile.toLowerCase() === 'admin';
}

export const TICKET_STATUSES = ['pending', 'open', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const CONNECTION_STATUSES = ['qrcode', 'OPENING', 'PAIRING', 'CONNECTED', 'DISCONNECTED', 'TIMEOUT'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/** Statuses that light the Connections menu badge. */
export const CONNECTION_ALERT_STATUSES: readonly ConnectionStatus[] = ['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING'];

export const CHANNELS = ['whatsapp', 'simulator', 'instagram'] as const;
export type Channel = (typeof CHANNELS)[number];

export const MEDIA_TYPES = ['image', 'audio', 'video', 'location', 'vcard', 'other'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** The kind of a file from its MIME type: image, audio, video, or other (a document). */
export function mediaTypeOfMime(mimetype: string): 'image' | 'audio' | 'video' | 'other' {
  if (mimetype.startsWith('image/')) return 'image';
  if (mimetype.startsWith('audio/')) return 'audio';
  if (mimetype.startsWith('video/')) return 'video';
  return 'other';
}

/**
 * An own message's way out: stored and waiting for its send (queued), handed to the channel
 * (sent, then acks 1-4 follow), or given up on (failed, with its ERR_ code; it can be retried).
 */
export const SEND_STATUSES = ['queued', 'sent', 'failed'] as const;
export type SendStatus = (typeof SEND_STATUSES)[number];

/** 0 clock, 1 single check, 2 double check, 3 and 4 read. */
export const ACKS = [0, 1, 2, 3, 4] as const;
export type Ack = (typeof ACKS)[number];

export const TOGGLE_VALUES = ['enabled', 'disabled'] as const;
export type ToggleValue = (typeof TOGGLE_VALUES)[number];

export const TIME_CREATE_NEW_TICKET_OPTIONS = [10, 30, 60, 300, 1800, 3600, 7200, 21600, 43200, 86400, 172800] as const;

type SettingDefinition = {
  /** 'toggle' values are enabled/disabled; 'select' takes one of `options`. */
  kind: 'toggle' | 'text' | 'select' | 'readonly';
  default: string;
  /** Write-only over the API: read back masked. */
  secret?: boolean;
  options?: readonly string[];
  group: 'general' | 'typebot' | 'email' | 'vonage' | 'api' | 'hours';
};

export const SETTINGS = {
  userCreation: { kind: 'toggle', default: 'disabled', group: 'general' },
  timeCreateNewTicket: {
    kind: 'select',
    default: '3600',
    options: TIME_CREATE_NEW_TICKET_OPTIONS.map(String),
    group: 'general',
  },
  groups: { kind: 'toggle', default: 'disabled', group: 'general' },
  CheckMsgIsGroup: { kind: 'toggle', default: 'enabled', group: 'general' },
  /** Enabled: an incoming WhatsApp call is rejected and the caller gets callMessage. */
  call: { kind: 'toggle', default: 'disabled', group: 'general' },
  /**
   * Put in front of a number typed without a country code (phone-numbers.ts). Seeded on first
   * start from the install's language (DEFAULT_LANGUAGE: 55 for pt) or DEFAULT_COUNTRY_CODE.
   */
  defaultCountryCode: { kind: 'text', default: '', group: 'general' },
  callMessage: { kind: 'text', default: 'Não atendemos ligações por aqui. Por favor, envie sua mensagem por escrito.', group: 'general' },
  /** Enabled: dashboard and reports count waiting time only within opening hours (business-hours.ts). */
  businessHoursInFigures: { kind: 'toggle', default: 'disabled', group: 'hours' },
  /** Enabled: the queue menu marks the queues closed now (' (fechado agora)' in the connection's language). */
  businessHoursInMenu: { kind: 'toggle', default: 'disabled', group: 'hours' },
  typebot: { kind: 'toggle', default: 'disabled', group: 'typebot' },
  typebotUrl: { kind: 'text', default: '', group: 'typebot' },
  typebotName: { kind: 'text', default: '', group: 'typebot' },
  typebotRestart: { kind: 'text', default: '#sair', group: 'typebot' },
  typebotOff: { kind: 'text', default: '#humano', group: 'typebot' },
  typebotTime: { kind: 'text', default: '30', group: 'typebot' },
  typebotDebounce: { kind: 'text', default: '3', group: 'typebot' },
  emailHost: { kind: 'text', default: '', group: 'email' },
  emailPort: { kind: 'text', default: '587', group: 'email' },
  emailSecurity: { kind: 'select', default: 'starttls', options: ['starttls', 'tls', 'none'], group: 'email' },
  emailUser: { kind: 'text', default: '', group: 'email' },
  emailPass: { kind: 'text', default: '', secret: true, group: 'email' },
  emailFrom: { kind: 'text', default: '', group: 'email' },
  emailTo: { kind: 'text', default: '', group: 'email' },
  emailLanguage: { kind: 'select', default: 'pt', options: ['pt', 'en', 'es'], group: 'email' },
  vonageApiKey: { kind: 'text', default: '', group: 'vonage' },
  vonageApiSecret: { kind: 'text', default: '', secret: true, group: 'vonage' },
  vonageApiId: { kind: 'text', default: '', group: 'vonage' },
  /** The private key of the Vonage application (voice calls sign their requests with it). */
  vonagePrivateKey: { kind: 'text', default: '', secret: true, group: 'vonage' },
  /** Vonage's signature secret: delivery receipts and call events are checked with it. */
  vonageSignatureSecret: { kind: 'text', default: '', secret: true, group: 'vonage' },
  /** The sender used when the page or the API call leaves 'from' empty. */
  vonageFrom: { kind: 'text', default: '', group: 'vonage' },
  userApiToken: { kind: 'readonly', default: '', group: 'api' },
} as const satisfies Record<string, SettingDefinition>;

export type SettingKey = keyof typeof SETTINGS;
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

export function isSettingKey(value: string): value is SettingKey {
  return Object.hasOwn(SETTINGS, value);
}

/** What a secret setting reads back as once it holds a value. */
export const MASKED_VALUE = '********';

/** Ids are 32-bit integers in the database (serial on PostgreSQL): a larger one names nothing. */
export const MAX_ID = 2_147_483_647;

/** Limits the spec names. */
export const LIMITS = {
  pageSize: 20,
  messagesPageSize: 20,
  searchMinChars: 3,
  /** A ticket search counts its tickets exactly up to this many; past it the count says 'at least' (countIsAtLeast). */
  searchCountCap: 1000,
  searchDebounceMs: 500,
  submitDelayMs: 400,
  toastMs: 3000,
  minAudioBytes: 10000,
  inputMaxLines: 5,
  autoCloseHours: 24,
  connectionBadgeDelayMs: 2000,
  quickAnswerMaxChars: 30000,
  drawerWidth: 240,
  contactDrawerWidth: 320,
  mobileBreakpoint: 600,
  /** Files in one send from the chat (the server's multipart limit too). */
  filesPerMessage: 10,
} as const;

/** The 51 preset queue colours of the queue form. */
export const QUEUE_COLORS = [
  '#B80000',
  '#DB3E00',
  '#FCCB00',
  '#008B02',
  '#006B76',
  '#1273DE',
  '#004DCF',
  '#5300EB',
  '#EB9694',
  '#FAD0C3',
  '#FEF3BD',
  '#C1E1C5',
  '#BEDADC',
  '#C4DEF6',
  '#BED3F3',
  '#D4C4FB',
  '#4D4D4D',
  '#999999',
  '#FFFFFF',
  '#F44E3B',
  '#FE9200',
  '#FCDC00',
  '#DBDF00',
  '#A4DD00',
  '#68CCCA',
  '#73D8FF',
  '#AEA1FF',
  '#FDA1FF',
  '#333333',
  '#808080',
  '#CCCCCC',
  '#D33115',
  '#E27300',
  '#FCC400',
  '#B0BC00',
  '#68BC00',
  '#16A5A5',
  '#009CE0',
  '#7B64FF',
  '#FA28FF',
  '#000000',
  '#666666',
  '#B3B3B3',
  '#9F0500',
  '#C45100',
  '#FB9E00',
  '#808900',
  '#194D33',
  '#0C797D',
  '#0062B1',
  '#653294',
] as const;

/** Colour of a ticket without a queue. */
export const NO_QUEUE_COLOR = '#7C7C7C';

/** Lower-case and strip accents, so 'joao' finds 'João'. */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}
