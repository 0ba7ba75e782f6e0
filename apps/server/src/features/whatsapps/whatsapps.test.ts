import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/whatsapp', () => {
  it('returns an empty list on a fresh app', async () => {
    const res = await t.request({ method: 'GET', url: '/api/whatsapp', token: t.adminToken });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('answers 401 ERR_INVALID_TOKEN without a token', async () => {
    const res = await t.request({ method: 'GET', url: '/api/whatsapp' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'ERR_INVALID_TOKEN' });
  });

  it('lists stored connections, sorted by name, to any logged-in user', async () => {
    const second = await t.insertWhatsapp({ name: 'Support line' });
    const first = await t.insertWhatsapp({ name: 'Sales line', isDefault: true });
    const { token } = await t.createUser();
    const res = await t.request({ method: 'GET', url: '/api/whatsapp', token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject([
      { id: first.id, name: 'Sales line', isDefault: true, status: 'DISCONNECTED', channel: 'whatsapp', qrcode: '', retries: 0, queues: [] },
      { id: second.id, name: 'Support line', isDefault: false },
    ]);
  });
});
