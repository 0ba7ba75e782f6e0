/**
 * Every route of the OpenAPI document that takes a body (POST, PUT, PATCH), called as an admin
 * with malformed JSON, wrong types field by field, 1 MB strings, prototype-pollution keys,
 * arrays and scalars instead of objects, and broken multipart, at an existing id and at a
 * garbage one: no answer is a 500, every error has an ERR_ code, and nothing is polluted.
 * The webhooks (Instagram's and Vonage's, hidden from the document) get the same junk unsigned,
 * wrongly signed, and signed with the right secret but stale or malformed.
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS, type ErrorCode } from '@zapdesk/shared/errors';
import { smsSignature } from './features/vonage/vonage-webhooks.js';
import { createTestApp, type TestApp } from './test/harness.js';

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[] };
type Operation = { requestBody?: { content?: Record<string, { schema?: Schema }> } };
type Case = { name: string; payload: string | Buffer; contentType: string };

let t: TestApp;
const MEGABYTE = 'x'.repeat(1_000_000);
const POLLUTION = ['{"__proto__":{"polluted":"yes"}}', '{"constructor":{"prototype":{"polluted":"yes"}}}', '{"a":{"__proto__":{"polluted":"yes"}},"__proto__":{"toString":"no"}}'];

function typeOf(schema: Schema | undefined): string {
  if (!schema) return 'unknown';
  const type = Array.isArray(schema.type) ? schema.type.find((x) => x !== 'null') : schema.type;
  return type ?? typeOf(schema.anyOf?.find((s) => s.type !== 'null'));
}

/** A value of another kind than the field expects. */
function wrongValue(schema: Schema | undefined): unknown {
  switch (typeOf(schema)) {
    case 'string':
      return 12345;
    case 'number':
    case 'integer':
      return 'not-a-number';
    case 'boolean':
      return 'yes';
    case 'array':
      return { not: 'an array' };
    case 'object':
      return 'not-an-object';
    default:
      return [[{}]];
  }
}

function cases(schema: Schema | undefined): Case[] {
  const json = (name: string, value: unknown): Case => ({ name, payload: JSON.stringify(value), contentType: 'application/json' });
  const list: Case[] = [
    { name: 'malformed JSON', payload: '{"a": ', contentType: 'application/json' },
    { name: 'JSON with a NUL byte', payload: '{"a":"\u0000"}', contentType: 'application/json' },
    { name: 'not JSON at all', payload: Buffer.from([0xff, 0xfe, 0x00, 0x01]), contentType: 'application/json' },
    ...['[]', '[1,2]', 'null', '"text"', '42', 'true'].map((payload) => ({ name: `scalar ${payload}`, payload, contentType: 'application/json' })),
    ...POLLUTION.map((payload, i) => ({ name: `prototype pollution ${i + 1}`, payload, contentType: 'application/json' })),
    { name: 'broken multipart', payload: '--zz\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nname;number', contentType: 'multipart/form-data; boundary=zz' },
    { name: 'multipart without boundary', payload: 'garbage', contentType: 'multipart/form-data' },
    { name: 'form-encoded', payload: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
    json('a 1 MB string at the top', MEGABYTE),
  ];
  for (const [field, property] of Object.entries(schema?.properties ?? {})) {
    list.push(json(`${field}: wrong type`, { [field]: wrongValue(property) }));
    list.push(json(`${field}: 1 MB string`, { [field]: MEGABYTE }));
    list.push(json(`${field}: nested pollution`, JSON.parse(`{"${field}":{"__proto__":{"polluted":"yes"}}}`)));
  }
  return list;
}

const IG_ACCOUNT = '17841400000000009';
const IG_APP_SECRET = 'fuzz-app-secret-0123456789';
const VONAGE_SECRET = 'fuzz-signature-secret-0123456789';

beforeAll(async () => {
  // Instagram's Graph API is out of reach here: the connection is kept, disconnected.
  t = await createTestApp({ SIMULATOR: 'on', INSTAGRAM_GRAPH_URL: 'http://127.0.0.1:9' });
  // Something to point existing ids at: a connection, a queue, a contact, a ticket.
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Fuzz', channel: 'simulator', isDefault: true } });
  const id = created.json<{ id: number }>().id;
  await t.request({ method: 'POST', url: `/api/simulator/${id}/scan`, token: t.adminToken });
  await t.createQueue();
  await t.inboundTicket(id);
  const instagram = await t.request({
    method: 'POST',
    url: '/api/whatsapp',
    token: t.adminToken,
    payload: { name: 'Fuzz IG', channel: 'instagram', instagram: { accountId: IG_ACCOUNT, accessToken: 'fuzz-token', appSecret: IG_APP_SECRET, verifyToken: 'fuzz-verify' } },
  });
  expect(instagram.statusCode).toBe(201);
  expect((await t.request({ method: 'PUT', url: '/api/settings/vonageSignatureSecret', token: t.adminToken, payload: { value: VONAGE_SECRET } })).statusCode).toBe(200);
});
afterAll(async () => {
  await t.close();
});

describe('fuzzing every route that takes a body', () => {
  it('never answers 500, always names an ERR_ code, and pollutes nothing', async () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, Operation>> };
    const failures: string[] = [];
    let requests = 0;
    for (const [route, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!['post', 'put', 'patch'].includes(method)) continue;
        const junk = cases(operation.requestBody?.content?.['application/json']?.schema);
        for (const id of ['1', 'abc%00', '99999999999999999999']) {
          const url = route.replace(/\{[^}]+\}/g, id);
          for (const c of junk) {
            const res = await t.request({ method: method.toUpperCase(), url, token: t.adminToken, payload: c.payload, headers: { 'content-type': c.contentType } });
            requests += 1;
            const body = res.body.startsWith('{') ? (JSON.parse(res.body) as { error?: unknown }) : {};
            if (res.statusCode >= 500) failures.push(`${method.toUpperCase()} ${url} (${c.name}): ${res.statusCode} ${res.body.slice(0, 200)}`);
            else if (res.statusCode >= 400 && !(typeof body.error === 'string' && body.error.startsWith('ERR_')))
              failures.push(`${method.toUpperCase()} ${url} (${c.name}): ${res.statusCode} without an ERR_ code: ${res.body.slice(0, 200)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(500);
    const probe: Record<string, unknown> = {};
    expect(probe['polluted']).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
    expect(typeof ({} as { toString: unknown }).toString).toBe('function');
    // About 25 core-seconds of work (thousands of requests, most with a 1 MB body to parse): with
    // the machine's two cores busy beside the other test files it took past 120 s.
  }, 300_000);
});

/** What the server writes on a raw connection, until it closes it. */
function rawExchange(base: string, request: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) }, () => socket.end(request));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? resolve(answer) : reject(error)));
    socket.on('close', () => resolve(answer));
  });
}

function isKnownCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_STATUS, code);
}

describe('framework errors', () => {
  type Probe = { name: string; method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; headers?: Record<string, string>; payload?: string | Buffer; expected: { status: number; code: ErrorCode } };
  const LONG_ID = '9'.repeat(300);
  const probes: Probe[] = [
    { name: 'a bad percent-escape in the path', method: 'GET', url: '/api/tickets/%', expected: { status: 400, code: 'ERR_BAD_URL' } },
    { name: 'a bad percent-escape in a nested path', method: 'GET', url: '/api/contacts/%zz', expected: { status: 400, code: 'ERR_BAD_URL' } },
    {
      name: 'a bad escape without a token',
      method: 'PUT',
      url: '/api/tickets/%E0%A4%A',
      payload: '{}',
      headers: { 'content-type': 'application/json' },
      expected: { status: 400, code: 'ERR_BAD_URL' },
    },
    { name: 'a path parameter over the length limit', method: 'GET', url: `/api/tickets/${LONG_ID}`, expected: { status: 414, code: 'ERR_URL_TOO_LONG' } },
    { name: 'a long parameter on a write', method: 'DELETE', url: `/api/contacts/${LONG_ID}`, expected: { status: 414, code: 'ERR_URL_TOO_LONG' } },
    {
      name: 'application/octet-stream',
      method: 'POST',
      url: '/api/auth/login',
      payload: 'email=a',
      headers: { 'content-type': 'application/octet-stream' },
      expected: { status: 415, code: 'ERR_UNSUPPORTED_MEDIA_TYPE' },
    },
    { name: 'application/xml', method: 'POST', url: '/api/queue', payload: '<a/>', headers: { 'content-type': 'application/xml' }, expected: { status: 415, code: 'ERR_UNSUPPORTED_MEDIA_TYPE' } },
    { name: 'a garbage content type', method: 'POST', url: '/api/queue', payload: '{}', headers: { 'content-type': '/////' }, expected: { status: 415, code: 'ERR_UNSUPPORTED_MEDIA_TYPE' } },
    { name: 'malformed JSON', method: 'POST', url: '/api/queue', payload: '{"name": ', headers: { 'content-type': 'application/json' }, expected: { status: 400, code: 'ERR_INVALID_JSON' } },
    { name: 'an empty JSON body', method: 'POST', url: '/api/queue', payload: '', headers: { 'content-type': 'application/json' }, expected: { status: 400, code: 'ERR_INVALID_JSON' } },
    {
      name: 'JSON with __proto__',
      method: 'POST',
      url: '/api/queue',
      payload: '{"__proto__":{"x":1}}',
      headers: { 'content-type': 'application/json' },
      expected: { status: 400, code: 'ERR_INVALID_JSON' },
    },
    {
      name: 'a 2 MB JSON body',
      method: 'POST',
      url: '/api/queue',
      payload: JSON.stringify({ name: 'x'.repeat(2_000_000) }),
      headers: { 'content-type': 'application/json' },
      expected: { status: 413, code: 'ERR_PAYLOAD_TOO_LARGE' },
    },
    {
      name: 'a 2 MB body at the login',
      method: 'POST',
      url: '/api/auth/login',
      payload: JSON.stringify({ email: 'x'.repeat(2_000_000) }),
      headers: { 'content-type': 'application/json' },
      expected: { status: 413, code: 'ERR_PAYLOAD_TOO_LARGE' },
    },
  ];

  it('answers each with its status and ERR_ code, with or without a token, and never a 500', async () => {
    const failures: string[] = [];
    for (const probe of probes) {
      for (const token of [t.adminToken, undefined]) {
        const res = await t.request({ method: probe.method, url: probe.url, token, headers: probe.headers, payload: probe.payload });
        const body = res.body.startsWith('{') ? (JSON.parse(res.body) as { error?: unknown; message?: unknown }) : {};
        const label = `${probe.name} (${token ? 'signed in' : 'no token'})`;
        if (res.statusCode >= 500) failures.push(`${label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        else if (!isKnownCode(body.error) || typeof body.message !== 'string') failures.push(`${label}: ${res.statusCode} without an ERR_ code: ${res.body.slice(0, 200)}`);
        // Without a token, a protected route may refuse first (401); what it must never do is answer outside our shape.
        else if (token && (res.statusCode !== probe.expected.status || body.error !== probe.expected.code))
          failures.push(`${label}: ${res.statusCode} ${String(body.error)}, expected ${probe.expected.status} ${probe.expected.code}`);
        else if (res.statusCode !== ERROR_STATUS[body.error]) failures.push(`${label}: ${body.error} with ${res.statusCode}, its status is ${ERROR_STATUS[body.error]}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers malformed HTTP on a real socket in the same shape', async () => {
    const base = await t.listen();
    const cases: { name: string; request: string; status: number; code: ErrorCode }[] = [
      { name: 'a garbage request line', request: 'GARBAGE\r\n\r\n', status: 400, code: 'ERR_BAD_REQUEST' },
      { name: 'an unknown method', request: 'FOO /api/health HTTP/1.1\r\nHost: x\r\n\r\n', status: 400, code: 'ERR_BAD_REQUEST' },
      { name: 'a bad Content-Length', request: 'POST /api/queue HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', status: 400, code: 'ERR_BAD_REQUEST' },
      { name: 'headers over the size limit', request: `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, status: 431, code: 'ERR_HEADERS_TOO_LARGE' },
      { name: 'a URL over the size limit', request: `GET /api/tickets?search=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, status: 431, code: 'ERR_HEADERS_TOO_LARGE' },
      { name: 'a bad escape', request: 'GET /api/tickets/% HTTP/1.1\r\nHost: x\r\n\r\n', status: 400, code: 'ERR_BAD_URL' },
    ];
    const failures: string[] = [];
    for (const c of cases) {
      const answer = await rawExchange(base, c.request);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
      const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
      const parsed = body.startsWith('{') ? (JSON.parse(body) as { error?: unknown }) : {};
      if (status !== c.status || parsed.error !== c.code) failures.push(`${c.name}: ${answer.slice(0, 300)}`);
      if (!/\r\npermissions-policy: /i.test(answer) || !/\r\nx-content-type-options: nosniff/i.test(answer)) failures.push(`${c.name}: without the security headers: ${answer.slice(0, 300)}`);
    }
    expect(failures).toEqual([]);
  });
});

/** Checks one answer: never a 5xx, and a 4xx names an ERR_ code. */
function judge(failures: string[], label: string, res: { statusCode: number; body: string }): void {
  const body = res.body.startsWith('{') ? (JSON.parse(res.body) as { error?: unknown }) : {};
  if (res.statusCode >= 500) failures.push(`${label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  else if (res.statusCode >= 400 && !(typeof body.error === 'string' && body.error.startsWith('ERR_'))) failures.push(`${label}: ${res.statusCode} without an ERR_ code: ${res.body.slice(0, 200)}`);
}

function callToken(body: string | Buffer, claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ payload_hash: createHash('sha256').update(body).digest('hex'), ...claims })}`;
  return `${unsigned}.${createHmac('sha256', VONAGE_SECRET).update(unsigned).digest('base64url')}`;
}

describe('fuzzing the webhooks', () => {
  const junk = [
    ...cases(undefined),
    { name: 'entry not a list', payload: '{"entry":1}', contentType: 'application/json' },
    { name: 'null entry', payload: '{"object":"instagram","entry":[null]}', contentType: 'application/json' },
    { name: 'attachments not a list', payload: `{"object":"instagram","entry":[{"id":"${IG_ACCOUNT}","messaging":[{"message":{"mid":"m","attachments":5}}]}]}`, contentType: 'application/json' },
    { name: 'a valid delivery', payload: `{"object":"instagram","entry":[{"id":"${IG_ACCOUNT}","time":1,"messaging":[]}]}`, contentType: 'application/json' },
    { name: 'empty body', payload: '', contentType: 'application/json' },
    { name: 'nested parameters', payload: '{"messageId":{"a":1},"status":["delivered"],"timestamp":{"$gt":0}}', contentType: 'application/json' },
    { name: 'repeated form parameters', payload: 'status=delivered&status=failed&sig=zz&timestamp=1', contentType: 'application/x-www-form-urlencoded' },
    { name: 'text/plain', payload: 'hello', contentType: 'text/plain' },
  ];

  it("never answers Meta's deliveries with a 500 or without an ERR_ code, signed or not", async () => {
    const failures: string[] = [];
    for (const c of junk) {
      const sign = (secret: string) => `sha256=${createHmac('sha256', secret).update(c.payload).digest('hex')}`;
      for (const [how, header] of [
        ['unsigned', undefined],
        ['garbage signature', 'sha256=zz'],
        ['other secret', sign('another-secret')],
        ['signed', sign(IG_APP_SECRET)],
      ] as const) {
        const res = await t.request({
          method: 'POST',
          url: '/api/webhooks/instagram',
          payload: c.payload,
          headers: { 'content-type': c.contentType, ...(header ? { 'x-hub-signature-256': header } : {}) },
        });
        judge(failures, `instagram ${c.name} (${how})`, res);
        if (how !== 'signed') expect(res.statusCode, `instagram ${c.name} (${how})`).toBeGreaterThanOrEqual(400);
      }
    }
    for (const query of [
      '',
      '?hub.mode=subscribe',
      '?hub.mode=subscribe&hub.mode=x&hub.verify_token=a&hub.challenge=1',
      '?hub.challenge[a]=1',
      `?hub.mode=subscribe&hub.verify_token=${'x'.repeat(5000)}&hub.challenge=1`,
    ]) {
      judge(failures, `instagram check ${query.slice(0, 60)}`, await t.request({ method: 'GET', url: `/api/webhooks/instagram${query}` }));
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it("never answers Vonage's receipts and call events with a 500 or without an ERR_ code, fresh, stale or replayed", async () => {
    const failures: string[] = [];
    const now = Math.floor(Date.now() / 1000);
    for (const c of junk) {
      judge(failures, `sms POST ${c.name}`, await t.request({ method: 'POST', url: '/api/webhooks/vonage/sms', payload: c.payload, headers: { 'content-type': c.contentType } }));
      for (const [how, claims] of [
        ['fresh', { iat: now, jti: randomUUID() }],
        ['stale', { iat: now - 3600, jti: randomUUID() }],
        ['undated', { jti: randomUUID() }],
        ['odd claims', { iat: 'now', jti: { a: 1 } }],
      ] as const) {
        const token = callToken(c.payload, claims);
        for (const attempt of ['first', 'replayed']) {
          const res = await t.request({ method: 'POST', url: '/api/webhooks/vonage/call', payload: c.payload, headers: { 'content-type': c.contentType, authorization: `Bearer ${token}` } });
          judge(failures, `call ${c.name} (${how}, ${attempt})`, res);
        }
      }
      judge(failures, `call ${c.name} (no token)`, await t.request({ method: 'POST', url: '/api/webhooks/vonage/call', payload: c.payload, headers: { 'content-type': c.contentType } }));
      judge(
        failures,
        `call ${c.name} (garbage token)`,
        await t.request({ method: 'POST', url: '/api/webhooks/vonage/call', payload: c.payload, headers: { 'content-type': c.contentType, authorization: 'Bearer a.b.c' } }),
      );
    }
    for (const params of [
      {},
      { status: 'delivered' },
      { messageId: 'x', status: 'delivered', timestamp: String(now) },
      { messageId: 'x', status: 'delivered', timestamp: String(now - 86_400) },
      { messageId: 'x', status: 'delivered' },
      { messageId: 'x'.repeat(5000), status: 'DELIVERED', timestamp: String(now), nonce: randomUUID() },
      { timestamp: '99999999999999999999' },
    ] as Record<string, string>[]) {
      const signed = { ...params, sig: smsSignature(params, VONAGE_SECRET) };
      for (const [how, query] of [
        ['unsigned', params],
        ['signed', signed],
        ['signed again', signed],
      ] as const) {
        judge(failures, `sms GET ${JSON.stringify(params).slice(0, 60)} (${how})`, await t.request({ method: 'GET', url: `/api/webhooks/vonage/sms?${new URLSearchParams(query).toString()}` }));
      }
      judge(
        failures,
        `sms POST form ${JSON.stringify(params).slice(0, 60)}`,
        await t.request({ method: 'POST', url: '/api/webhooks/vonage/sms', payload: new URLSearchParams(signed).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      );
    }
    judge(failures, 'sms GET nested query', await t.request({ method: 'GET', url: '/api/webhooks/vonage/sms?status[a]=1&sig[]=2&timestamp=1&timestamp=2' }));
    expect(failures).toEqual([]);
  }, 120_000);
});
