/**
 * Every route of the OpenAPI document that takes a body (POST, PUT, PATCH), called as an admin
 * with malformed JSON, wrong types field by field, 1 MB strings, prototype-pollution keys,
 * arrays and scalars instead of objects, and broken multipart, at an existing id and at a
 * garbage one: no answer is a 500, every error has an ERR_ code, and nothing is polluted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  // Something to point existing ids at: a connection, a queue, a contact, a ticket.
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Fuzz', channel: 'simulator', isDefault: true } });
  const id = created.json<{ id: number }>().id;
  await t.request({ method: 'POST', url: `/api/simulator/${id}/scan`, token: t.adminToken });
  await t.createQueue();
  await t.inboundTicket(id);
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
        const schema = operation.requestBody?.content?.['application/json']?.schema;
        for (const id of ['1', 'abc%00', '99999999999999999999']) {
          const url = route.replace(/\{[^}]+\}/g, id);
          for (const c of cases(schema)) {
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
  }, 120_000);
});
