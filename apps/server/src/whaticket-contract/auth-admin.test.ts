/**
 * whaticket-community's web frontend against this server: sign-in, the refresh contract, and the
 * admin screens (users, queues, quick answers, settings, connections and their sessions). Each
 * row of the table is one request as whaticket's frontend builds it (frontend/src/pages,
 * components and hooks), and the answer its screen reads; shapes it never sends are refused
 * with 400 and an ERR_ code. Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_ONLY_ERRORS, type ErrorCode } from '@zapdesk/shared/errors';
import type { TQueue, TQuickAnswer, TUser, TWhatsapp } from '@zapdesk/shared/schemas';
import { defaultDriverFactory, type DriverFactory } from '../channels/driver-factory.js';
import { ADMIN, createTestApp, type TestApp } from '../test/harness.js';

/** whaticket's connections are channel 'whatsapp': here they run on the simulated phone. */
const simulatedWhatsapp: DriverFactory = (options) => defaultDriverFactory({ ...options, channel: options.channel === 'whatsapp' ? 'simulator' : options.channel });

let t: TestApp;
let n = 0;
const next = () => (n += 1);

type Fixtures = { queue: TQueue; agent: TUser; connection: { id: number; name: string }; quickAnswer: TQuickAnswer };
let f: Fixtures;

type Call = { method: InjectOptions['method']; url: string; payload?: unknown; token?: string | undefined; cookie?: string };
type Row = {
  /** The route as whaticket's frontend writes it. */
  route: string;
  /** The shape it sends, in words. */
  shape: string;
  call: () => Promise<Call> | Call;
  status: number;
  /** The error code the answer carries (what whaticket's toastError looks up). */
  error?: ErrorCode;
  /** What the screen reads from the answer. */
  answer?: (body: unknown, res: LightMyRequestResponse) => Promise<void> | void;
};

const admin = () => t.adminToken;
const json = (res: LightMyRequestResponse): unknown => (res.body === '' ? null : res.json());
async function get<T>(url: string): Promise<T> {
  const res = await t.request({ method: 'GET', url: `/api${url}`, token: admin() });
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`);
  return res.json<T>();
}
function refreshCookieOf(res: LightMyRequestResponse): string | undefined {
  return res.cookies.find((c) => c.name === 'jrt')?.value;
}
async function newUser(): Promise<TUser> {
  return (await t.createUser()).user;
}
/** UserModal's save: the GET answer spread over its form (whose password starts empty), whatsappId and queueIds. */
async function userModalEdit(id: number, changes: Record<string, unknown>): Promise<Record<string, unknown>> {
  const data = await get<TUser>(`/users/${id}`);
  return { password: '', ...data, whatsappId: data.whatsappId ? data.whatsappId : '', queueIds: data.queues.map((q) => q.id), ...changes };
}
async function userIdOf(res: LightMyRequestResponse): Promise<TUser> {
  return get<TUser>(`/users/${res.json<TUser>().id}`);
}
const listOf = (key: 'users' | 'quickAnswers') => (body: unknown) => expect(body).toMatchObject({ [key]: expect.any(Array), count: expect.any(Number), hasMore: expect.any(Boolean) });

const table: Row[] = [
  // ---------- sign-in (useAuth, Login, Signup) ----------
  {
    route: 'POST /auth/login',
    shape: '{email, password}',
    call: () => ({ method: 'POST', url: '/auth/login', payload: { email: ADMIN.email, password: ADMIN.password } }),
    status: 200,
    answer: (body, res) => {
      expect(body).toMatchObject({ token: expect.any(String), user: { id: expect.any(Number), email: ADMIN.email, profile: 'admin', queues: expect.any(Array) } });
      expect(refreshCookieOf(res)).toBeTruthy();
    },
  },
  {
    route: 'POST /auth/login',
    shape: '{email, wrong password}',
    call: () => ({ method: 'POST', url: '/auth/login', payload: { email: ADMIN.email, password: 'wrong-one' } }),
    status: 401,
    error: 'ERR_INVALID_CREDENTIALS',
  },
  { route: 'POST /auth/refresh_token', shape: 'no cookie (a reload after the cookie is gone)', call: () => ({ method: 'POST', url: '/auth/refresh_token' }), status: 401, error: 'ERR_INVALID_TOKEN' },
  {
    route: 'POST /auth/refresh_token',
    shape: 'a cookie that is not a token',
    call: () => ({ method: 'POST', url: '/auth/refresh_token', cookie: 'jrt=not-a-token' }),
    status: 401,
    error: 'ERR_INVALID_TOKEN',
  },
  {
    route: 'POST /auth/refresh_token',
    shape: 'an expired cookie',
    call: async () => ({ method: 'POST', url: '/auth/refresh_token', cookie: `jrt=${(await t.expiredTokens(f.agent.id)).refresh}` }),
    status: 401,
    error: 'ERR_INVALID_TOKEN',
  },
  {
    route: 'POST /auth/refresh_token',
    shape: 'the cookie of a session that logged out',
    call: async () => {
      const { user, password } = await t.createUser();
      const session = await t.login(user.email, password);
      expect((await t.request({ method: 'DELETE', url: '/api/auth/logout', token: session.token })).statusCode).toBe(204);
      return { method: 'POST', url: '/auth/refresh_token', cookie: session.cookie };
    },
    status: 401,
    error: 'ERR_INVALID_TOKEN',
  },
  {
    route: 'POST /auth/refresh_token',
    shape: 'a valid cookie (start-up with a stored token, or after a 403)',
    call: async () => ({ method: 'POST', url: '/auth/refresh_token', cookie: (await t.login(ADMIN.email, ADMIN.password)).cookie }),
    status: 200,
    answer: (body, res) => {
      expect(body).toMatchObject({ token: expect.any(String), user: { email: ADMIN.email, profile: 'admin', queues: expect.any(Array) } });
      expect(refreshCookieOf(res)).toBeTruthy();
    },
  },
  {
    route: 'GET /users/',
    shape: 'an expired access token (whaticket refreshes on 403)',
    call: async () => ({ method: 'GET', url: '/users/', token: (await t.expiredTokens(f.agent.id)).access }),
    status: 403,
    error: 'ERR_SESSION_EXPIRED',
  },
  { route: 'GET /users/', shape: 'no token', call: () => ({ method: 'GET', url: '/users/' }), status: 401, error: 'ERR_INVALID_TOKEN' },
  // The other trailing-slash aliases are hidden from the API document (so from the authorization table): the same sign-in guard.
  { route: 'GET /quickAnswers/', shape: 'no token', call: () => ({ method: 'GET', url: '/quickAnswers/' }), status: 401, error: 'ERR_INVALID_TOKEN' },
  { route: 'GET /whatsapp/', shape: 'no token', call: () => ({ method: 'GET', url: '/whatsapp/' }), status: 401, error: 'ERR_INVALID_TOKEN' },
  { route: 'GET /contacts/', shape: 'no token', call: () => ({ method: 'GET', url: '/contacts/' }), status: 401, error: 'ERR_INVALID_TOKEN' },
  { route: 'DELETE /auth/logout', shape: 'no body', call: async () => ({ method: 'DELETE', url: '/auth/logout', token: (await t.createUser()).token }), status: 204 },
  {
    route: 'POST /auth/signup',
    shape: '{name, email, password}, sign-up turned off (the default)',
    call: () => ({ method: 'POST', url: '/auth/signup', payload: { name: 'New Person', email: `new${next()}@test.local`, password: 'long-enough-1' } }),
    status: 403,
    error: 'ERR_USER_CREATION_DISABLED',
  },

  {
    route: 'POST /auth/signup',
    shape: '{name, email, password}, sign-up turned on',
    call: async () => {
      await t.request({ method: 'PUT', url: '/api/settings/userCreation', token: admin(), payload: { value: 'enabled' } });
      return { method: 'POST', url: '/auth/signup', payload: { name: 'New Person', email: `new${next()}@test.local`, password: 'long-enough-1' } };
    },
    status: 201,
    answer: (body) => expect(body).toMatchObject({ id: expect.any(Number), name: 'New Person', profile: 'user' }),
  },
  {
    // whaticket's forms allow 5 characters; our password policy asks for 8 (a field error its form shows as a toast).
    route: 'POST /auth/signup',
    shape: 'a 5-character password (whaticket’s minimum)',
    call: () => ({ method: 'POST', url: '/auth/signup', payload: { name: 'Short Pass', email: `new${next()}@test.local`, password: '12345' } }),
    status: 400,
    error: 'ERR_VALIDATION',
    answer: (body) => expect(body).toMatchObject({ fields: { password: 'TOO_SHORT' } }),
  },

  // ---------- users (Users page, UserModal, TransferTicketModal) ----------
  { route: 'GET /users/', shape: '{searchParam: "", pageNumber: 1}', call: () => ({ method: 'GET', url: '/users/?searchParam=&pageNumber=1', token: admin() }), status: 200, answer: listOf('users') },
  { route: 'GET /users', shape: 'no slash (our own app)', call: () => ({ method: 'GET', url: '/users?pageNumber=1', token: admin() }), status: 200, answer: listOf('users') },
  {
    route: 'GET /users/',
    shape: '{searchParam} (transfer dialog), as an agent',
    call: async () => ({ method: 'GET', url: `/users/?searchParam=${encodeURIComponent(f.agent.name)}`, token: (await t.createUser()).token }),
    status: 200,
    answer: (body) => expect(body).toMatchObject({ users: [{ id: f.agent.id, name: f.agent.name }] }),
  },
  { route: 'GET /users/', shape: '{pageNumber: "x"}', call: () => ({ method: 'GET', url: '/users/?pageNumber=x', token: admin() }), status: 400, error: 'ERR_VALIDATION' },
  {
    route: 'GET /users/:id',
    shape: 'UserModal opening',
    call: () => ({ method: 'GET', url: `/users/${f.agent.id}`, token: admin() }),
    status: 200,
    answer: (body) =>
      expect(body).toMatchObject({
        id: f.agent.id,
        name: f.agent.name,
        email: f.agent.email,
        profile: 'user',
        whatsappId: null,
        queues: [{ id: f.queue.id, name: f.queue.name, color: f.queue.color }],
      }),
  },
  {
    route: 'POST /users',
    shape: '{name, email, password, profile, whatsappId: false (untouched), queueIds}',
    call: () => ({
      method: 'POST',
      url: '/users',
      token: admin(),
      payload: { name: 'Form User', email: `form${next()}@test.local`, password: 'long-enough-1', profile: 'user', whatsappId: false, queueIds: [f.queue.id] },
    }),
    status: 201,
    answer: async (_body, res) => expect(await userIdOf(res)).toMatchObject({ whatsappId: null, queues: [{ id: f.queue.id }] }),
  },
  {
    route: 'POST /users',
    shape: "whatsappId: '' (the empty choice)",
    call: () => ({
      method: 'POST',
      url: '/users',
      token: admin(),
      payload: { name: 'Form User', email: `form${next()}@test.local`, password: 'long-enough-1', profile: 'user', whatsappId: '', queueIds: [] },
    }),
    status: 201,
    answer: (body) => expect(body).toMatchObject({ whatsappId: null, queues: [] }),
  },
  {
    route: 'POST /users',
    shape: 'whatsappId: a connection id',
    call: () => ({
      method: 'POST',
      url: '/users',
      token: admin(),
      payload: { name: 'Form User', email: `form${next()}@test.local`, password: 'long-enough-1', profile: 'admin', whatsappId: f.connection.id, queueIds: [] },
    }),
    status: 201,
    answer: (body) => expect(body).toMatchObject({ profile: 'admin', whatsappId: f.connection.id, whatsapp: { id: f.connection.id, name: f.connection.name } }),
  },
  {
    route: 'PUT /users/:id',
    shape: "the GET answer echoed, password: '', whatsappId: '', queueIds",
    call: async () => {
      const user = await newUser();
      await t.request({ method: 'PUT', url: `/api/users/${user.id}`, token: admin(), payload: { name: user.name, email: user.email, whatsappId: f.connection.id } });
      return { method: 'PUT', url: `/users/${user.id}`, token: admin(), payload: await userModalEdit(user.id, { name: 'Renamed In Form', whatsappId: '', queueIds: [f.queue.id] }) };
    },
    status: 200,
    answer: (body) => expect(body).toMatchObject({ name: 'Renamed In Form', whatsappId: null, queues: [{ id: f.queue.id }] }),
  },
  {
    route: 'PUT /users/:id',
    shape: 'the GET answer echoed, whatsappId: a connection id',
    call: async () => ({ method: 'PUT', url: `/users/${f.agent.id}`, token: admin(), payload: await userModalEdit(f.agent.id, { whatsappId: f.connection.id }) }),
    status: 200,
    answer: (body) => expect(body).toMatchObject({ whatsappId: f.connection.id, queues: [{ id: f.queue.id }] }),
  },
  ...(['true', true, 0, '0', 'none', []] as const).map((value): Row => ({
    route: 'PUT /users/:id',
    shape: `whatsappId: ${JSON.stringify(value)} (never sent by whaticket)`,
    call: async () => ({ method: 'PUT', url: `/users/${f.agent.id}`, token: admin(), payload: await userModalEdit(f.agent.id, { whatsappId: value }) }),
    status: 400,
    error: 'ERR_VALIDATION',
    answer: (body) => expect(body).toMatchObject({ fields: { whatsappId: 'INVALID' } }),
  })),
  {
    route: 'POST /users',
    shape: 'whatsappId: null (the JSON none)',
    call: () => ({ method: 'POST', url: '/users', token: admin(), payload: { name: 'Null Choice', email: `form${next()}@test.local`, password: 'long-enough-1', whatsappId: null, queueIds: [] } }),
    status: 201,
    answer: (body) => expect(body).toMatchObject({ whatsappId: null }),
  },
  { route: 'DELETE /users/:id', shape: 'no body', call: async () => ({ method: 'DELETE', url: `/users/${(await newUser()).id}`, token: admin() }), status: 204 },
  // A trailing slash is accepted only where whaticket sends one (the list reads).
  { route: 'POST /users/', shape: 'a trailing slash on a write', call: () => ({ method: 'POST', url: '/users/', token: admin(), payload: {} }), status: 404, error: 'ERR_NOT_FOUND' },

  // ---------- queues (Queues page, QueueModal, QueueSelect, useQueues) ----------
  {
    route: 'GET /queue',
    shape: 'no params',
    call: () => ({ method: 'GET', url: '/queue', token: admin() }),
    status: 200,
    answer: (body) => expect(body).toEqual(expect.arrayContaining([expect.objectContaining({ id: f.queue.id, name: f.queue.name, color: f.queue.color, greetingMessage: expect.any(String) })])),
  },
  {
    route: 'GET /queue/:id',
    shape: 'QueueModal opening',
    call: () => ({ method: 'GET', url: `/queue/${f.queue.id}`, token: admin() }),
    status: 200,
    answer: (body) => expect(body).toMatchObject({ id: f.queue.id, name: f.queue.name, color: f.queue.color }),
  },
  {
    route: 'POST /queue',
    shape: '{name, color, greetingMessage}',
    call: () => ({ method: 'POST', url: '/queue', token: admin(), payload: { name: `Form Queue ${next()}`, color: `#0${String(n).padStart(5, '0')}`, greetingMessage: 'Olá' } }),
    status: 201,
    answer: (body) => expect(body).toMatchObject({ greetingMessage: 'Olá' }),
  },
  {
    route: 'PUT /queue/:id',
    shape: 'the GET answer echoed with a new name',
    call: async () => ({ method: 'PUT', url: `/queue/${f.queue.id}`, token: admin(), payload: { ...(await get<TQueue>(`/queue/${f.queue.id}`)), name: 'Renamed Queue' } }),
    status: 200,
    answer: (body) => expect(body).toMatchObject({ id: f.queue.id, name: 'Renamed Queue' }),
  },
  {
    route: 'POST /queue',
    shape: "{color: ''} (colour not picked)",
    call: () => ({ method: 'POST', url: '/queue', token: admin(), payload: { name: 'No Colour', color: '', greetingMessage: '' } }),
    status: 400,
    error: 'ERR_VALIDATION',
  },
  {
    route: 'POST /queue',
    shape: 'a colour in use',
    call: () => ({ method: 'POST', url: '/queue', token: admin(), payload: { name: 'Same Colour', color: f.queue.color, greetingMessage: '' } }),
    status: 409,
    error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS',
  },
  { route: 'DELETE /queue/:id', shape: 'no body', call: async () => ({ method: 'DELETE', url: `/queue/${(await t.createQueue()).id}`, token: admin() }), status: 204 },

  // ---------- quick answers (QuickAnswers page, QuickAnswersModal, the reply box's "/") ----------
  {
    route: 'GET /quickAnswers/',
    shape: '{searchParam: "", pageNumber: 1}',
    call: () => ({ method: 'GET', url: '/quickAnswers/?searchParam=&pageNumber=1', token: admin() }),
    status: 200,
    answer: listOf('quickAnswers'),
  },
  {
    route: 'GET /quickAnswers/',
    shape: '{searchParam: what follows "/"} (reply box), as an agent',
    call: async () => ({ method: 'GET', url: `/quickAnswers/?searchParam=${encodeURIComponent(f.quickAnswer.shortcut)}`, token: (await t.createUser()).token }),
    status: 200,
    answer: (body) => expect(body).toMatchObject({ quickAnswers: [{ id: f.quickAnswer.id, shortcut: f.quickAnswer.shortcut, message: f.quickAnswer.message }] }),
  },
  {
    route: 'GET /quickAnswers/:id',
    shape: 'modal opening',
    call: () => ({ method: 'GET', url: `/quickAnswers/${f.quickAnswer.id}`, token: admin() }),
    status: 200,
    answer: (body) => expect(body).toMatchObject({ shortcut: f.quickAnswer.shortcut, message: f.quickAnswer.message }),
  },
  {
    route: 'POST /quickAnswers',
    shape: '{shortcut, message}',
    call: () => ({ method: 'POST', url: '/quickAnswers', token: admin(), payload: { shortcut: `hello${next()}`, message: 'Hello, how can we help?' } }),
    status: 201,
    answer: (body) => expect(body).toMatchObject({ id: expect.any(Number), message: 'Hello, how can we help?' }),
  },
  {
    route: 'PUT /quickAnswers/:id',
    shape: 'the GET answer echoed with a new message',
    call: async () => ({
      method: 'PUT',
      url: `/quickAnswers/${f.quickAnswer.id}`,
      token: admin(),
      payload: { ...(await get<TQuickAnswer>(`/quickAnswers/${f.quickAnswer.id}`)), message: 'A changed answer text' },
    }),
    status: 200,
    answer: (body) => expect(body).toMatchObject({ id: f.quickAnswer.id, message: 'A changed answer text' }),
  },
  {
    route: 'POST /quickAnswers',
    shape: '{message} without shortcut',
    call: () => ({ method: 'POST', url: '/quickAnswers', token: admin(), payload: { message: 'No shortcut given here' } }),
    status: 400,
    error: 'ERR_VALIDATION',
  },
  { route: 'DELETE /quickAnswers/:id', shape: 'no body', call: async () => ({ method: 'DELETE', url: `/quickAnswers/${(await createQuickAnswer()).id}`, token: admin() }), status: 204 },

  // ---------- settings (Settings page) ----------
  {
    route: 'GET /settings',
    shape: 'no params',
    call: () => ({ method: 'GET', url: '/settings', token: admin() }),
    status: 200,
    answer: (body) => expect(body).toEqual(expect.arrayContaining([expect.objectContaining({ key: 'userCreation', value: expect.stringMatching(/^(enabled|disabled)$/) })])),
  },
  {
    route: 'PUT /settings/:key',
    shape: "userCreation {value: 'disabled'}",
    call: () => ({ method: 'PUT', url: '/settings/userCreation', token: admin(), payload: { value: 'disabled' } }),
    status: 200,
    answer: (body) => expect(body).toMatchObject({ key: 'userCreation', value: 'disabled' }),
  },
  {
    route: 'PUT /settings/:key',
    shape: 'userCreation {value: true}',
    call: () => ({ method: 'PUT', url: '/settings/userCreation', token: admin(), payload: { value: true } }),
    status: 400,
    error: 'ERR_VALIDATION',
  },
  {
    route: 'PUT /settings/:key',
    shape: 'a key that does not exist',
    call: () => ({ method: 'PUT', url: '/settings/noSuchKey', token: admin(), payload: { value: 'x' } }),
    status: 404,
    error: 'ERR_NO_SETTING_FOUND',
  },

  // ---------- connections (Connections page, WhatsAppModal, QrcodeModal, useWhatsApps) ----------
  {
    route: 'GET /whatsapp/',
    shape: 'no params (useWhatsApps), as an agent',
    call: async () => ({ method: 'GET', url: '/whatsapp/', token: (await t.createUser()).token }),
    status: 200,
    answer: (body) =>
      expect(body).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            id: f.connection.id,
            name: f.connection.name,
            status: expect.any(String),
            qrcode: expect.any(String),
            isDefault: expect.any(Boolean),
            updatedAt: expect.any(String),
          }),
        ]),
      ),
  },
  {
    route: 'GET whatsapp/:id',
    shape: 'WhatsAppModal / QrcodeModal opening',
    call: () => ({ method: 'GET', url: `/whatsapp/${f.connection.id}`, token: admin() }),
    status: 200,
    answer: (body) =>
      expect(body).toMatchObject({
        id: f.connection.id,
        name: f.connection.name,
        qrcode: expect.any(String),
        greetingMessage: expect.any(String),
        farewellMessage: expect.any(String),
        queues: expect.any(Array),
      }),
  },
  {
    route: 'POST /whatsapp',
    shape: '{name, greetingMessage, farewellMessage, isDefault: false, queueIds}',
    call: () => ({
      method: 'POST',
      url: '/whatsapp',
      token: admin(),
      payload: { name: `Form Phone ${next()}`, greetingMessage: '', farewellMessage: 'Tchau', isDefault: false, queueIds: [f.queue.id] },
    }),
    status: 201,
    answer: (body) => expect(body).toMatchObject({ channel: 'whatsapp', farewellMessage: 'Tchau', isDefault: false, queues: [{ id: f.queue.id }] }),
  },
  {
    route: 'PUT /whatsapp/:id',
    shape: 'the GET answer echoed, isDefault: true, queueIds',
    call: async () => ({
      method: 'PUT',
      url: `/whatsapp/${f.connection.id}`,
      token: admin(),
      payload: { ...(await get<TWhatsapp>(`/whatsapp/${f.connection.id}`)), isDefault: true, queueIds: [f.queue.id] },
    }),
    status: 200,
    answer: (body) => expect(body).toMatchObject({ id: f.connection.id, isDefault: true, queues: [{ id: f.queue.id }] }),
  },
  {
    route: 'PUT /whatsapp/:id',
    shape: 'isDefault: 1 (never sent by whaticket)',
    call: () => ({ method: 'PUT', url: `/whatsapp/${f.connection.id}`, token: admin(), payload: { name: f.connection.name, isDefault: 1 } }),
    status: 400,
    error: 'ERR_VALIDATION',
  },
  {
    route: 'POST /whatsappsession/:id',
    shape: 'no body (start)',
    call: () => ({ method: 'POST', url: `/whatsappsession/${f.connection.id}`, token: admin() }),
    status: 200,
    answer: (body) => expect(body).toMatchObject({ id: f.connection.id }),
  },
  {
    route: 'PUT /whatsappsession/:id',
    shape: 'no body (new QR code)',
    call: () => ({ method: 'PUT', url: `/whatsappsession/${f.connection.id}`, token: admin() }),
    status: 200,
    answer: (body) => expect(body).toMatchObject({ id: f.connection.id }),
  },
  {
    route: 'DELETE /whatsappsession/:id',
    shape: 'no body (disconnect)',
    call: () => ({ method: 'DELETE', url: `/whatsappsession/${f.connection.id}`, token: admin() }),
    status: 200,
    answer: (body) => expect(body).toMatchObject({ id: f.connection.id, status: 'DISCONNECTED' }),
  },
  {
    route: 'POST /whatsappsession/:id',
    shape: 'a connection that does not exist',
    call: () => ({ method: 'POST', url: '/whatsappsession/999999', token: admin() }),
    status: 404,
    error: 'ERR_NO_WAPP_FOUND',
  },
  { route: 'DELETE /whatsapp/:id', shape: 'no body', call: async () => ({ method: 'DELETE', url: `/whatsapp/${(await t.insertWhatsapp()).id}`, token: admin() }), status: 204 },
];

async function createQuickAnswer(): Promise<TQuickAnswer> {
  const res = await t.request({ method: 'POST', url: '/api/quickAnswers', token: admin(), payload: { shortcut: `qa${next()}x`, message: 'A quick answer for the table' } });
  if (res.statusCode !== 201) throw new Error(`quick answer: ${res.statusCode} ${res.body}`);
  return res.json<TQuickAnswer>();
}

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' }, { driverFactory: simulatedWhatsapp });
  const queue = await t.createQueue({ name: 'Contract Queue' });
  const connection = await t.insertWhatsapp({ name: 'Contract Phone' });
  const agent = (await t.createUser({ name: 'Contract Agent', queueIds: [queue.id] })).user;
  f = { queue, agent, connection, quickAnswer: await createQuickAnswer() };
});
afterAll(async () => {
  await t?.close();
});

describe('whaticket frontend: sign-in and admin screens', () => {
  for (const row of table) {
    it(`${row.route} ${row.shape} → ${row.status}${row.error ? ` ${row.error}` : ''}`, async () => {
      const { method, url, payload, token, cookie } = await row.call();
      const res = await t.request({ method, url: `/api${url}`, token, ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }), headers: cookie ? { cookie } : {} });
      expect({ status: res.statusCode, body: json(res) }).toMatchObject({ status: row.status, ...(row.error ? { body: { error: row.error } } : {}) });
      // whaticket's toast shows `message || error`, translated when it knows the text: a code it
      // translates must come alone, or the agent reads our English sentence.
      if (row.error && CODE_ONLY_ERRORS.has(row.error)) expect(json(res)).toEqual({ error: row.error });
      await row.answer?.(json(res), res);
    });
  }
});
