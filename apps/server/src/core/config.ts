/** Environment, parsed once. Every variable here is listed in the README's configuration table. */
import path from 'node:path';
import { z } from 'zod';

const ZBool = z.enum(['on', 'off', 'true', 'false', '1', '0']).transform((v) => v === 'on' || v === 'true' || v === '1');

const ZEnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  ADMIN_EMAIL: z.email().default('admin@admin.com'),
  ADMIN_PASSWORD: z.string().min(5).optional(),
  JWT_SECRET: z.string().min(32).optional(),
  JWT_REFRESH_SECRET: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL: z.string().default('15m'),
  REFRESH_TOKEN_TTL: z.string().default('7d'),
  LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  TRUST_PROXY: ZBool.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  SIMULATOR: ZBool.default(false),
  DEMO: ZBool.default(false),
  DEMO_INTERVAL_SECONDS: z.coerce.number().min(1).max(3600).default(15),
});

export type Config = {
  port: number;
  host: string;
  publicUrl: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  adminEmail: string;
  adminPassword: string | undefined;
  jwtSecret: string | undefined;
  jwtRefreshSecret: string | undefined;
  accessTokenTtl: string;
  refreshTokenTtl: string;
  loginRateLimit: number;
  trustProxy: boolean;
  logLevel: z.infer<typeof ZEnvSchema>['LOG_LEVEL'];
  webDist: string;
  simulator: boolean;
  demo: boolean;
  demoIntervalSeconds: number;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ZEnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid environment:\n${lines}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL || undefined,
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    jwtSecret: e.JWT_SECRET,
    jwtRefreshSecret: e.JWT_REFRESH_SECRET,
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL,
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    simulator: e.SIMULATOR || e.DEMO,
    demo: e.DEMO,
    demoIntervalSeconds: e.DEMO_INTERVAL_SECONDS,
    webDist: path.resolve(e.WEB_DIST ?? new URL('../../../web/dist', import.meta.url).pathname),
  };
}
