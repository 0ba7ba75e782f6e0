/** Environment, parsed once. Every variable here is listed in the README's configuration table. */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { AUDIT_DEFAULT_RETENTION_DAYS } from '@zapdesk/shared/audit';
import { defaultCountryCodeFor } from '@zapdesk/shared/phone-numbers';
import { isValidTimeZone } from '@zapdesk/shared/business-hours';
import { WEBHOOK_RETRY_WINDOW_MS } from '@zapdesk/shared/webhooks';
import { parseMetricsConfig, type MetricsConfig } from './metrics/metrics-config.js';

const ZBool = z.enum(['on', 'off', 'true', 'false', '1', '0']).transform((v) => v === 'on' || v === 'true' || v === '1');

/** Fastify's trustProxy: false, a number of hops, or the addresses/CIDRs of the proxies. */
export type TrustProxy = false | number | string[];
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * `TRUST_PROXY`: off (the default), a hop count (`1` for one reverse proxy in front), or a
 * comma-separated list of proxy addresses, CIDRs or the names loopback, linklocal, uniquelocal.
 * `on` means one hop: trusting every hop would let a client forge its address.
 */
export function parseTrustProxy(value: string): TrustProxy {
  const v = value.trim().toLowerCase();
  if (v === '' || v === 'off' || v === 'false' || v === '0') return false;
  if (v === 'on' || v === 'true') return 1;
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.split('/');
    const kind = net.isIP(address);
    const maxBits = kind === 4 ? 32 : 128;
    const validBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (!NAMED_RANGES.has(entry) && (kind === 0 || !validBits || extra !== undefined)) {
      throw new Error(`TRUST_PROXY: "${entry}" is not a hop count, an IP address, a CIDR or one of loopback, linklocal, uniquelocal.`);
    }
  }
  return entries;
}

/**
 * `FRONTEND_URL`: the one other origin allowed to call the API and the socket with credentials
 * (a whaticket frontend served elsewhere), as `scheme://host[:port]`. Unset or empty: none.
 */
export function parseFrontendOrigin(value: string | undefined): string | undefined {
  const v = value?.trim() ?? '';
  if (v === '') return undefined;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new Error(`FRONTEND_URL: "${v}" is not a URL (e.g. https://desk.example.com).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`FRONTEND_URL: "${v}" must start with http:// or https://.`);
  // An origin has no path: a path here would suggest that only part of the site is allowed.
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new Error(`FRONTEND_URL: "${v}" must be an origin only (scheme, host and port), without a path.`);
  }
  return url.origin;
}

/** 'min-max' seconds between two sends of a lane, e.g. 5-15. */
function paceSeconds(fallback: string) {
  return z
    .string()
    .regex(/^\d{1,4}-\d{1,4}$/, 'min-max seconds, e.g. 5-15')
    .refine((v) => {
      const [min = 0, max = 0] = v.split('-').map(Number);
      return min <= max;
    }, 'the minimum is above the maximum')
    .default(fallback);
}

function toPace(value: string): { minDelay: number; maxDelay: number } {
  const [minDelay = 0, maxDelay = 0] = value.split('-').map(Number);
  return { minDelay, maxDelay };
}

const ZEnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.string().optional(),
  FRONTEND_URL: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_-]{1,40}$/, 'letters, digits, :, _ and -')
    .default('zapdesk'),
  NODE_ID: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,100}$/, 'letters, digits, ., _ and -')
    .optional(),
  SESSION_LEASE_SECONDS: z.coerce.number().int().min(3).max(300).default(15),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(20),
  SHUTDOWN_DELAY_SECONDS: z.coerce.number().min(0).max(120).default(0),
  ADMIN_EMAIL: z.email().default('admin@admin.com'),
  ADMIN_PASSWORD: z.string().min(5).optional(),
  JWT_SECRET: z.string().min(32).optional(),
  JWT_REFRESH_SECRET: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL: z.string().default('15m'),
  REFRESH_TOKEN_TTL: z.string().default('7d'),
  LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  TWO_FACTOR_REQUIRED: z.enum(['off', 'admins', 'everyone']).default('off'),
  TRUST_PROXY: z.string().default('off'),
  SECRETS_KEY: z.string().min(16, 'at least 16 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  LOCAL_MEDIA_DIR: z.string().optional(),
  MEDIA_DIR: z.string().optional(),
  ALLOW_PRIVATE_MEDIA_URLS: ZBool.default(false),
  /** Outgoing webhooks: loopback and private receivers allowed (tests, LAN); the first retry wait; the retry window (tests shorten it). */
  ALLOW_PRIVATE_WEBHOOK_URLS: ZBool.default(false),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(50).max(3_600_000).default(10_000),
  WEBHOOK_RETRY_WINDOW_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(7 * 24 * 3_600_000)
    .default(WEBHOOK_RETRY_WINDOW_MS),
  /** ffmpeg, for the voice notes browsers without Ogg (Safari before 18.4) play as AAC; looked up on PATH by default. */
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  UPLOAD_MAX_FILE_MB: z.coerce.number().int().min(1).max(2048).default(20),
  UPLOAD_MAX_REQUEST_MB: z.coerce.number().int().min(1).max(10240).default(200),
  UPLOAD_MB_PER_MINUTE: z.coerce.number().int().min(1).max(102400).default(300),
  GROUP_PACE_SECONDS: paceSeconds('5-15'),
  PHONE_PACE_SECONDS: paceSeconds('4-6'),
  INSTAGRAM_PACE_SECONDS: paceSeconds('5-15'),
  INSTAGRAM_GRAPH_URL: z.url().default('https://graph.instagram.com/v23.0'),
  VONAGE_REST_URL: z.url().default('https://rest.nexmo.com'),
  VONAGE_API_URL: z.url().default('https://api.nexmo.com'),
  SMTP_CA_FILE: z.string().optional(),
  MAIL_RETRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  TYPEBOT_RETRY_SECONDS: z.coerce.number().int().min(1).max(600).default(5),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36500).default(AUDIT_DEFAULT_RETENTION_DAYS),
  DEFAULT_LANGUAGE: z.enum(['pt', 'en', 'es']).default('pt'),
  /** The IANA zone reports read days and hours in when no opening hours name one (else TZ, else pt: America/Sao_Paulo). */
  REPORTS_TIME_ZONE: z
    .string()
    .refine((zone) => zone === '' || isValidTimeZone(zone), 'an IANA time zone, e.g. America/Sao_Paulo')
    .optional(),
  DEFAULT_COUNTRY_CODE: z
    .string()
    .regex(/^([1-9]\d{0,2})?$/, '1 to 3 digits, e.g. 55, or empty for none')
    .optional(),
  SIMULATOR: ZBool.default(false),
  DEMO: ZBool.default(false),
  DEMO_INTERVAL_SECONDS: z.coerce.number().min(1).max(3600).default(15),
});

export type Config = {
  port: number;
  host: string;
  publicUrl: string | undefined;
  /** The one other origin given CORS with credentials (FRONTEND_URL's origin); undefined: none. */
  frontendOrigin: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  /** The cluster mode: sockets, events and rate limits shared through this Redis (PostgreSQL only). */
  redisUrl: string | undefined;
  /** What the cluster's Redis keys and channels start with (several deployments may share a Redis). */
  redisPrefix: string;
  /** This node's name in the cluster (the host name and process id when not given). */
  nodeId: string;
  /** In the cluster mode: how long a node's hold on a session lasts without a renewal. */
  sessionLeaseSeconds: number;
  /** On SIGTERM/SIGINT: the most a clean stop may take before the process exits anyway (code 1). */
  shutdownTimeoutSeconds: number;
  /** On SIGTERM/SIGINT: how long readiness answers 503 before the node stops taking connections. */
  shutdownDelaySeconds: number;
  adminEmail: string;
  adminPassword: string | undefined;
  /** Seals secret settings instead of the key generated into secrets.json. */
  secretsKey: string | undefined;
  jwtSecret: string | undefined;
  jwtRefreshSecret: string | undefined;
  accessTokenTtl: string;
  refreshTokenTtl: string;
  loginRateLimit: number;
  /** Who must sign in with a second factor (an authenticator app): nobody, the admins, or everyone. */
  twoFactorRequired: 'off' | 'admins' | 'everyone';
  trustProxy: TrustProxy;
  logLevel: z.infer<typeof ZEnvSchema>['LOG_LEVEL'];
  webDist: string;
  /** Where the files of messages and sends are stored (a volume every node shares in the cluster mode). */
  mediaDir: string;
  /** The only folder 'media by local path' reads from. */
  localMediaDir: string;
  ffmpegPath: string;
  /** Lets 'media by URL' reach loopback and private addresses (tests, intranets). */
  allowPrivateMediaUrls: boolean;
  /** Outgoing webhooks (features/webhooks): private receivers allowed, the first retry wait, how long a delivery is tried. */
  webhooks: { allowPrivate: boolean; retryBaseMs: number; retryWindowMs: number };
  /** Uploads: the largest file, the most bytes in one request, and the most bytes one user may upload in a minute. */
  uploadMaxFileBytes: number;
  uploadMaxRequestBytes: number;
  uploadBytesPerMinute: number;
  /** Seconds between two groups of a group action (spec 9: 5 s plus up to 10 s). */
  groupPace: { minDelay: number; maxDelay: number };
  /** Seconds between two SMS or calls (spec 9: about 5 s). */
  phonePace: { minDelay: number; maxDelay: number };
  /** Vonage's hosts: the real ones unless a test points them at a fake on loopback. */
  /** Seconds between two Instagram direct messages of a send (spec 9: 5 s plus up to 10 s). */
  instagramPace: { minDelay: number; maxDelay: number };
  /** The Graph API's address, version included (a fake on loopback in tests). */
  instagramGraphUrl: string;
  vonageRestUrl: string;
  vonageApiUrl: string;
  /** A PEM file of certificate authorities the SMTP server's certificate may be signed by (self-signed servers). */
  smtpCaFile: string | undefined;
  /** The first wait before a failed mail is tried again; each next wait doubles, up to an hour. */
  mailRetrySeconds: number;
  /** The first wait before Typebot is asked again after a failure; then twice that; then the bot stops on that ticket. */
  typebotRetrySeconds: number;
  /** How many days audit rows are kept; older ones are deleted at start and daily. */
  auditRetentionDays: number;
  /**
   * The first start's default country code for typed numbers (the defaultCountryCode setting,
   * editable later): DEFAULT_COUNTRY_CODE, else the install's language's (DEFAULT_LANGUAGE pt: 55).
   */
  defaultCountryCode: string;
  /** Reports' time zone when the opening hours name none (see features/reports/report-time-zone.ts). */
  reportsTimeZone: string;
  simulator: boolean;
  demo: boolean;
  demoIntervalSeconds: number;
  /** Who may read /metrics: METRICS_TOKEN, METRICS_HOST and METRICS_PORT (see core/metrics/metrics-config.ts). */
  metrics: MetricsConfig;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ZEnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid environment:\n${lines}`);
  }
  const e = parsed.data;
  const databaseUrl = e.DATABASE_URL || undefined;
  if (e.REDIS_URL && !databaseUrl?.startsWith('postgres')) {
    throw new Error('Invalid environment:\n  REDIS_URL: the cluster mode needs PostgreSQL (set DATABASE_URL=postgres://…); SQLite is a single node, which needs no Redis.');
  }
  if (e.REDIS_URL && (!e.JWT_SECRET || !e.JWT_REFRESH_SECRET || !e.SECRETS_KEY)) {
    // Each node would otherwise generate its own into its DATA_DIR: a token or a sealed secret from one node would not open on another.
    throw new Error('Invalid environment:\n  REDIS_URL: every node of a cluster needs the same JWT_SECRET, JWT_REFRESH_SECRET and SECRETS_KEY, given in the environment.');
  }
  let trustProxy: TrustProxy;
  let frontendOrigin: string | undefined;
  let metrics: MetricsConfig;
  try {
    trustProxy = parseTrustProxy(e.TRUST_PROXY);
    frontendOrigin = parseFrontendOrigin(e.FRONTEND_URL);
    metrics = parseMetricsConfig(env);
  } catch (error) {
    throw new Error(`Invalid environment:\n  ${(error as Error).message}`);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL,
    frontendOrigin,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl,
    redisUrl: e.REDIS_URL || undefined,
    redisPrefix: e.REDIS_PREFIX,
    nodeId: e.NODE_ID ?? `${os.hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
    sessionLeaseSeconds: e.SESSION_LEASE_SECONDS,
    shutdownTimeoutSeconds: e.SHUTDOWN_TIMEOUT_SECONDS,
    shutdownDelaySeconds: e.SHUTDOWN_DELAY_SECONDS,
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    secretsKey: e.SECRETS_KEY || undefined,
    jwtSecret: e.JWT_SECRET,
    jwtRefreshSecret: e.JWT_REFRESH_SECRET,
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL,
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    twoFactorRequired: e.TWO_FACTOR_REQUIRED,
    trustProxy,
    logLevel: e.LOG_LEVEL,
    mediaDir: path.resolve(e.MEDIA_DIR ?? path.join(e.DATA_DIR, 'media')),
    localMediaDir: path.resolve(e.LOCAL_MEDIA_DIR ?? path.join(e.DATA_DIR, 'local-media')),
    allowPrivateMediaUrls: e.ALLOW_PRIVATE_MEDIA_URLS,
    webhooks: { allowPrivate: e.ALLOW_PRIVATE_WEBHOOK_URLS, retryBaseMs: e.WEBHOOK_RETRY_BASE_MS, retryWindowMs: e.WEBHOOK_RETRY_WINDOW_MS },
    ffmpegPath: e.FFMPEG_PATH,
    uploadMaxFileBytes: e.UPLOAD_MAX_FILE_MB * 1024 * 1024,
    uploadMaxRequestBytes: e.UPLOAD_MAX_REQUEST_MB * 1024 * 1024,
    uploadBytesPerMinute: e.UPLOAD_MB_PER_MINUTE * 1024 * 1024,
    groupPace: toPace(e.GROUP_PACE_SECONDS),
    phonePace: toPace(e.PHONE_PACE_SECONDS),
    instagramPace: toPace(e.INSTAGRAM_PACE_SECONDS),
    instagramGraphUrl: e.INSTAGRAM_GRAPH_URL.replace(/\/+$/, ''),
    vonageRestUrl: e.VONAGE_REST_URL.replace(/\/+$/, ''),
    vonageApiUrl: e.VONAGE_API_URL.replace(/\/+$/, ''),
    smtpCaFile: e.SMTP_CA_FILE ? path.resolve(e.SMTP_CA_FILE) : undefined,
    mailRetrySeconds: e.MAIL_RETRY_SECONDS,
    typebotRetrySeconds: e.TYPEBOT_RETRY_SECONDS,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    defaultCountryCode: e.DEFAULT_COUNTRY_CODE ?? defaultCountryCodeFor(e.DEFAULT_LANGUAGE),
    reportsTimeZone: e.REPORTS_TIME_ZONE || env.TZ || (e.DEFAULT_LANGUAGE === 'pt' ? 'America/Sao_Paulo' : Intl.DateTimeFormat().resolvedOptions().timeZone),
    simulator: e.SIMULATOR || e.DEMO,
    demo: e.DEMO,
    demoIntervalSeconds: e.DEMO_INTERVAL_SECONDS,
    metrics,
    webDist: path.resolve(e.WEB_DIST ?? new URL('../../../web/dist', import.meta.url).pathname),
  };
}
