/** The app as a whole: health, API documentation, unknown routes and the shape of every error. */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_ONLY_ERRORS, ERROR_STATUS, isErrorCode } from '@zapdesk/shared/errors';
import { ADMIN, createTestApp, type TestApp } from './test/harness.js';

let t: TestApp;
let userToken: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ token: userToken } = await t.createUser());
});
afterAll(async () => {
  await t.close();
});

/** Every route this suite covers; the OpenAPI document must list each of them. */
const ROUTES = [
  'GET /api/health',
  'POST /api/auth/login',
  'POST /api/auth/signup',
  'POST /api/auth/refresh_token',
  'DELETE /api/auth/logout',
  'GET /api/users',
  'POST /api/users',
  'GET /api/users/{id}',
  'PUT /api/users/{id}',
  'DELETE /api/users/{id}',
  'GET /api/queue',
  'POST /api/queue',
  'GET /api/queue/{id}',
  'PUT /api/queue/{id}',
  'DELETE /api/queue/{id}',
  'GET /api/quickAnswers',
  'POST /api/quickAnswers',
  'GET /api/quickAnswers/{id}',
  'PUT /api/quickAnswers/{id}',
  'DELETE /api/quickAnswers/{id}',
  'GET /api/contacts',
  'POST /api/contacts',
  'GET /api/contacts/export',
  'POST /api/contacts/import',
  'GET /api/contacts/{id}',
  'PUT /api/contacts/{id}',
  'DELETE /api/contacts/{id}',
  'POST /api/contact',
  'GET /api/settings',
  'PUT /api/settings/{key}',
  'POST /api/settings/userApiToken/regenerate',
  'GET /api/whatsapp',
];

describe('health', () => {
  it('answers 200 with status ok, the database kind and the version, without a token', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite', version: expect.any(String) });
  });
});

describe('API documentation', () => {
  it('serves an OpenAPI document listing every route of the API', async () => {
    const res = await t.request({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ openapi: string; paths: Record<string, Record<string, unknown>> }>();
    expect(doc.openapi).toMatch(/^3\./);
    const listed = Object.entries(doc.paths)
      .filter(([path]) => !path.startsWith('/api/docs'))
      .flatMap(([path, methods]) =>
        Object.keys(methods)
          .filter((m) => m !== 'head')
          .map((m) => `${m.toUpperCase()} ${path}`),
      );
    expect(listed).toEqual(expect.arrayContaining(ROUTES));
    // Every documented route lives under /api and says what it answers.
    for (const [path, methods] of Object.entries(doc.paths)) {
      expect(path).toMatch(/^\/api\//);
      for (const [method, operation] of Object.entries(methods)) {
        expect(operation, `${method} ${path}`).toHaveProperty('responses');
      }
    }
  });

  it('is public, as a decision: it lists routes and shapes, never a value of this install', async () => {
    const apiToken = (await t.request({ method: 'GET', url: '/api/settings', token: t.adminToken })).json<{ key: string; value: string }[]>().find((s) => s.key === 'userApiToken')?.value ?? '';
    expect(apiToken.length).toBeGreaterThan(10);
    for (const url of ['/api/docs', '/api/docs/json', '/api/docs/yaml']) {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      for (const secret of [apiToken, t.ctx.secrets.jwtSecret, t.ctx.secrets.jwtRefreshSecret, ADMIN.password, t.adminToken]) expect(res.body, url).not.toContain(secret);
    }
  });

  it('documents request schemas: the login body names email and password', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/docs/json' })).json();
    const schema = doc.paths['/api/auth/login'].post.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(expect.arrayContaining(['email', 'password']));
  });
});

describe('unknown routes', () => {
  it('answers 404 ERR_NOT_FOUND for an unknown /api route, with or without a token', async () => {
    for (const token of [undefined, t.adminToken]) {
      const res = await t.request({ method: 'GET', url: '/api/does-not-exist', ...(token ? { token } : {}) });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: 'ERR_NOT_FOUND', message: expect.stringContaining('/api/does-not-exist') });
    }
  });

  it('answers 404 ERR_NOT_FOUND for a known path with an unknown method', async () => {
    const res = await t.request({ method: 'PATCH', url: '/api/queue', token: t.adminToken, payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'ERR_NOT_FOUND' });
  });

  it('answers a JSON 404 for a page route when no web build is present', async () => {
    const res = await t.request({ method: 'GET', url: '/tickets' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'ERR_NOT_FOUND' });
  });
});

describe('malformed requests', () => {
  it('answers a malformed JSON body with 400 ERR_INVALID_JSON, never 500', async () => {
    const res = await t.request({ method: 'POST', url: '/api/queue', token: t.adminToken, headers: { 'content-type': 'application/json' }, payload: '{"name": "Sales", ' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_INVALID_JSON', message: expect.any(String) });
    // Nothing was written.
    expect((await t.request({ method: 'GET', url: '/api/queue', token: t.adminToken })).json()).toEqual([]);
  });

  it('answers an empty JSON body with 400 ERR_INVALID_JSON', async () => {
    const res = await t.request({ method: 'POST', url: '/api/quickAnswers', token: userToken, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_INVALID_JSON' });
  });

  it('answers a JSON array where an object is expected with 400 ERR_VALIDATION', async () => {
    const res = await t.request({ method: 'POST', url: '/api/quickAnswers', token: userToken, payload: [1, 2] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION' });
  });

  it('answers an unsupported content type with 415 ERR_UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await t.request({ method: 'POST', url: '/api/quickAnswers', token: userToken, headers: { 'content-type': 'application/xml' }, payload: '<a/>' });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ error: 'ERR_UNSUPPORTED_MEDIA_TYPE' });
  });

  it('answers a body over the size limit with 413 ERR_PAYLOAD_TOO_LARGE', async () => {
    const res = await t.request({ method: 'POST', url: '/api/quickAnswers', token: userToken, payload: { shortcut: 'big', message: 'x'.repeat(1_100_000) } });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE' });
  });

  it('checks the token before reading the body: a malformed body without a token is 401', async () => {
    const res = await t.request({ method: 'POST', url: '/api/queue', headers: { 'content-type': 'application/json' }, payload: '{oops' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'ERR_INVALID_TOKEN' });
  });
});

describe('error bodies', () => {
  it('every failure carries a known error code, a message (none for the codes whaticket translates), and the status of that code', async () => {
    const failing: (InjectOptions & { token?: string })[] = [
      { method: 'GET', url: '/api/nope' },
      { method: 'GET', url: '/api/users' },
      { method: 'GET', url: '/api/users', token: 'garbage' },
      { method: 'GET', url: '/api/settings', token: userToken },
      { method: 'GET', url: '/api/users/abc', token: t.adminToken },
      { method: 'GET', url: '/api/users/999999', token: t.adminToken },
      { method: 'GET', url: '/api/queue/999999', token: t.adminToken },
      { method: 'GET', url: '/api/contacts/999999', token: t.adminToken },
      { method: 'GET', url: '/api/quickAnswers/999999', token: t.adminToken },
      { method: 'PUT', url: '/api/settings/nope', token: t.adminToken, payload: { value: 'x' } },
      { method: 'PUT', url: '/api/settings/userApiToken', token: t.adminToken, payload: { value: 'x' } },
      { method: 'DELETE', url: '/api/users/1', token: t.adminToken },
      { method: 'POST', url: '/api/auth/login', payload: { email: 'nobody@test.local', password: 'whatever' } },
      { method: 'POST', url: '/api/auth/login', payload: { email: 'not-an-email', password: 'whatever' } },
      { method: 'POST', url: '/api/auth/signup', payload: { name: 'Admin again', email: 'admin@test.local', password: 'secret' } },
      { method: 'POST', url: '/api/auth/refresh_token', cookies: { jrt: 'not-a-token' } },
      { method: 'POST', url: '/api/contacts/import', token: userToken, payload: {} },
      { method: 'POST', url: '/api/queue', token: t.adminToken, headers: { 'content-type': 'application/json' }, payload: '{' },
    ];
    const seen = new Set<string>();
    for (const options of failing) {
      const res = await t.request(options);
      const where = `${options.method ?? 'GET'} ${typeof options.url === 'string' ? options.url : JSON.stringify(options.url)}`;
      const body = res.json<{ error: unknown; message: unknown }>();
      expect(res.headers['content-type'], where).toMatch(/^application\/json/);
      expect(isErrorCode(body.error), `${where}: ${res.body}`).toBe(true);
      if (isErrorCode(body.error) && CODE_ONLY_ERRORS.has(body.error)) expect(body, where).toEqual({ error: body.error });
      else expect(typeof body.message === 'string' && body.message.length > 0, `${where}: ${res.body}`).toBe(true);
      if (isErrorCode(body.error)) {
        expect(res.statusCode, `${where}: ${res.body}`).toBe(ERROR_STATUS[body.error]);
        seen.add(body.error);
      }
    }
    // The table above really exercises a range of codes, not one code many times.
    expect(seen.size).toBeGreaterThanOrEqual(10);
  });
});
