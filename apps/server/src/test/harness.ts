/**
 * Test harness: a real app on a fresh database (a temp SQLite file, or a new PostgreSQL
 * database when TEST_DB=postgres), driven through HTTP with `app.inject()`.
 */
import type { DestinationStream } from 'pino';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse, InjectOptions } from 'fastify';
import pg from 'pg';
import type { Profile } from '@zapdesk/shared/domain';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TContact, TQueue, TUser } from '@zapdesk/shared/schemas';
import { buildApp, type BuiltApp } from '../app.js';
import type { DriverFactory } from '../channels/driver-factory.js';
import { TokenService } from '../core/auth/tokens.js';
import { loadConfig } from '../core/config.js';
import { nowIso } from '../core/time.js';
import { findAuthUserById } from '../features/users/users.repository.js';

export const ADMIN = { email: 'admin@test.local', password: 'admin-pass' };

export type TestApp = BuiltApp & {
  url: string | undefined;
  adminToken: string;
  request: (options: InjectOptions & { token?: string }) => Promise<LightMyRequestResponse>;
  login: (email: string, password: string) => Promise<{ token: string; user: TUser; cookie: string }>;
  createUser: (options?: { profile?: Profile; queueIds?: number[]; name?: string; email?: string; password?: string }) => Promise<{ user: TUser; token: string; password: string }>;
  createQueue: (options?: { name?: string; color?: string; greetingMessage?: string }) => Promise<TQueue>;
  createContact: (options?: { name?: string; number?: string; email?: string }) => Promise<TContact>;
  /** A new contact writes through a linked simulator connection; resolves with the ticket once its message is stored. */
  inboundTicket: (connectionId: number, body?: string) => Promise<TTicket>;
  /** Connections have no write API yet: this one is written straight to the database. */
  insertWhatsapp: (options?: { name?: string; isDefault?: boolean }) => Promise<{ id: number; name: string }>;
  /** Tokens signed with the app's real secrets that expired a minute ago. */
  expiredTokens: (userId: number) => Promise<{ access: string; refresh: string }>;
  listen: () => Promise<string>;
  /** Stops the server as a shutdown would and starts a new one on the same data: the new app. */
  restart: () => Promise<TestApp>;
};

/**
 * A fresh database on TEST_DATABASE_URL's server. `migrated`: a copy of the run's migrated
 * template (see postgres-global-setup.ts) when there is one, otherwise an empty database.
 */
export async function createPostgresDatabase(options: { migrated?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres).');
  const name = `zapdesk_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`PostgreSQL expected at ${base} but unreachable: ${(error as Error).message}`);
  }
  const template = options.migrated ? process.env.TEST_PG_TEMPLATE : undefined;
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      // The app's pool has ended, but its connections may still be saying goodbye: a forced drop
      // now would kill them mid-way and surface as an uncaught error. Let them go first.
      for (let i = 0; i < 100; i += 1) {
        const { rows } = await c.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if ((rows[0]?.n ?? 0) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

let counter = 0;
let inboundCounter = 0;
function unique(): string {
  counter += 1;
  return `${process.pid}${counter}${randomBytes(2).toString('hex')}`;
}

/** driverFactory: the channels' drivers (e.g. whaticket's connections, channel 'whatsapp', on the simulator). */
export async function createTestApp(env: Record<string, string> = {}, options: { driverFactory?: DriverFactory; logDestination?: DestinationStream } = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-test-'));
  const pgDb = process.env.TEST_DB === 'postgres' ? await createPostgresDatabase({ migrated: true }) : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT: '1000',
    WEB_DIST: path.join(dataDir, 'no-web'),
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    ...env,
  });
  return openTestApp(config, dataDir, pgDb, options.driverFactory, options.logDestination);
}

async function openTestApp(
  config: ReturnType<typeof loadConfig>,
  dataDir: string,
  pgDb: { url: string; drop: () => Promise<void> } | undefined,
  driverFactory: DriverFactory | undefined,
  logDestination?: DestinationStream,
): Promise<TestApp> {
  const built = await buildApp(config, { ...(driverFactory ? { driverFactory } : {}), ...(logDestination ? { logDestination } : {}) });
  let url: string | undefined;

  const request: TestApp['request'] = ({ token, headers, ...rest }) => built.app.inject({ ...rest, headers: { ...(headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) } });

  const login: TestApp['login'] = async (email, password) => {
    const res = await request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
    const cookie = res.cookies.find((c) => c.name === 'jrt');
    return { ...res.json<{ token: string; user: TUser }>(), cookie: cookie ? `jrt=${cookie.value}` : '' };
  };

  const { token: adminToken } = await login(ADMIN.email, ADMIN.password);

  const testApp: TestApp = {
    ...built,
    get url() {
      return url;
    },
    adminToken,
    request,
    login,
    async createUser(options = {}) {
      const password = options.password ?? 'secret-pass';
      const res = await request({
        method: 'POST',
        url: '/api/users',
        token: adminToken,
        payload: {
          name: options.name ?? `Agent ${unique()}`,
          email: options.email ?? `agent${unique()}@test.local`,
          password,
          profile: options.profile ?? 'user',
          queueIds: options.queueIds ?? [],
        },
      });
      if (res.statusCode !== 201) throw new Error(`createUser failed: ${res.statusCode} ${res.body}`);
      const user = res.json<TUser>();
      const { token } = await login(user.email, password);
      return { user, token, password };
    },
    async createQueue(options = {}) {
      const res = await request({
        method: 'POST',
        url: '/api/queue',
        token: adminToken,
        payload: { name: options.name ?? `Queue ${unique()}`, color: options.color ?? `#${randomBytes(3).toString('hex')}`, greetingMessage: options.greetingMessage ?? '' },
      });
      if (res.statusCode !== 201) throw new Error(`createQueue failed: ${res.statusCode} ${res.body}`);
      return res.json<TQueue>();
    },
    async createContact(options = {}) {
      const res = await request({
        method: 'POST',
        url: '/api/contacts',
        token: adminToken,
        payload: {
          name: options.name ?? `Contact ${unique()}`,
          number: options.number ?? `55119${String(Date.now()).slice(-5)}${String((counter += 1) % 1000).padStart(3, '0')}`,
          email: options.email ?? '',
        },
      });
      if (res.statusCode !== 201) throw new Error(`createContact failed: ${res.statusCode} ${res.body}`);
      return res.json<TContact>();
    },
    async inboundTicket(connectionId, body = 'oi') {
      inboundCounter += 1;
      // A São Paulo mobile (55 11 9xxxx-xxxx), as the number rules read a customer's number.
      const from = `55119${String(process.pid % 10000).padStart(4, '0')}${String(inboundCounter).padStart(4, '0')}`;
      const sent = await request({ method: 'POST', url: `/api/simulator/${connectionId}/inbound`, token: adminToken, payload: { from, name: `Cliente ${from.slice(-4)}`, body } });
      if (sent.statusCode !== 200) throw new Error(`inbound failed: ${sent.statusCode} ${sent.body}`);
      const until = Date.now() + 5000;
      for (;;) {
        const list = (await request({ method: 'GET', url: `/api/tickets?showAll=true&searchParam=${from}`, token: adminToken })).json<{ tickets: TTicket[] }>().tickets;
        const found = list.find((x) => x.contact.number === from && x.lastMessage !== '');
        if (found) return found;
        if (Date.now() > until) throw new Error(`no ticket for ${from}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async insertWhatsapp(options = {}) {
      const now = nowIso();
      const name = options.name ?? `Connection ${unique()}`;
      const row = await built.ctx.db
        .insertInto('whatsapps')
        .values({
          name,
          channel: 'whatsapp',
          status: 'DISCONNECTED',
          qrcode: '',
          isDefault: options.isDefault ? 1 : 0,
          greetingMessage: '',
          farewellMessage: '',
          leaseOwner: null,
          leaseUntil: null,
          createdAt: now,
          updatedAt: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id, name };
    },
    async expiredTokens(userId) {
      const user = await findAuthUserById(built.ctx.db, userId);
      if (!user) throw new Error(`expiredTokens: no user ${userId}`);
      const { secrets } = built.ctx;
      const past = new TokenService({ accessSecret: secrets.jwtSecret, refreshSecret: secrets.jwtRefreshSecret, accessTtl: '-1m', refreshTtl: '-1m' });
      const claims = { userId, tokenVersion: user.tokenVersion };
      return { access: await past.signAccess(claims), refresh: await past.signRefresh(claims) };
    },
    async listen() {
      const address = await built.app.listen({ port: 0, host: '127.0.0.1' });
      url = address;
      return address;
    },
    async close() {
      await built.close();
      await pgDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    async restart() {
      await built.close();
      return openTestApp(config, dataDir, pgDb, driverFactory);
    },
  };
  return testApp;
}

/** Reads until `done` holds, every 50 ms; fails with the last value read after `timeoutMs`. */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
