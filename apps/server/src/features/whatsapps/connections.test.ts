import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TWhatsapp } from '@zapdesk/shared/schemas';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let userToken: string;
beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  userToken = (await t.createUser()).token;
});
afterAll(async () => {
  await t.close();
});

async function create(body: Record<string, unknown>) {
  return t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { channel: 'simulator', ...body } });
}
async function list(): Promise<TWhatsapp[]> {
  return (await t.request({ method: 'GET', url: '/api/whatsapp', token: t.adminToken })).json();
}

describe('connections API', () => {
  it('keeps exactly one default connection', async () => {
    const first = (await create({ name: 'First' })).json<TWhatsapp>();
    expect(first.isDefault).toBe(true);
    const second = (await create({ name: 'Second', isDefault: true })).json<TWhatsapp>();
    expect(second.isDefault).toBe(true);
    expect((await list()).filter((w) => w.isDefault).map((w) => w.id)).toEqual([second.id]);

    const unset = await t.request({ method: 'PUT', url: `/api/whatsapp/${second.id}`, token: t.adminToken, payload: { name: 'Second', isDefault: false } });
    expect(unset.statusCode).toBe(400);
    expect(unset.json()).toMatchObject({ error: 'ERR_NO_OTHER_WHATSAPP' });

    expect((await t.request({ method: 'DELETE', url: `/api/whatsapp/${second.id}`, token: t.adminToken })).statusCode).toBe(204);
    expect((await list()).filter((w) => w.isDefault).map((w) => w.id)).toEqual([first.id]);
  });

  it('saves greeting, farewell and queues, and requires a greeting with several queues', async () => {
    const [a, b] = [await t.createQueue(), await t.createQueue()];
    const res = await create({ name: 'Queues', greetingMessage: 'Hi {{name}}', farewellMessage: 'Bye', queueIds: [a.id, b.id] });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ greetingMessage: 'Hi {{name}}', farewellMessage: 'Bye' });
    expect(
      res
        .json<TWhatsapp>()
        .queues.map((q) => q.id)
        .sort(),
    ).toEqual([a.id, b.id].sort());
    const id = res.json<TWhatsapp>().id;
    const noGreeting = await t.request({ method: 'PUT', url: `/api/whatsapp/${id}`, token: t.adminToken, payload: { name: 'Queues', greetingMessage: '', queueIds: [a.id, b.id] } });
    expect(noGreeting.json()).toMatchObject({ error: 'ERR_WAPP_GREETING_REQUIRED' });
    const oneQueue = await t.request({ method: 'PUT', url: `/api/whatsapp/${id}`, token: t.adminToken, payload: { name: 'Queues', greetingMessage: '', queueIds: [a.id] } });
    expect(oneQueue.statusCode).toBe(200);
  });

  it('validates the name and the queues', async () => {
    expect((await create({ name: 'x' })).json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { name: 'TOO_SHORT' } });
    expect((await create({ name: 'y'.repeat(51) })).json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { name: 'TOO_LONG' } });
    expect((await create({ name: 'Bad queue', queueIds: [999999] })).json()).toMatchObject({ error: 'ERR_NO_QUEUE_FOUND' });
    await create({ name: 'Taken name' });
    const taken = await create({ name: 'Taken name' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ error: 'ERR_DUPLICATED_WAPP_NAME', fields: { name: 'INVALID' } });
    expect((await create({ name: 'Odd channel', channel: 'telegram' })).json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { channel: 'INVALID' } });
  });

  it('answers ERR_NO_WAPP_FOUND for unknown connections', async () => {
    for (const [method, url] of [
      ['GET', '/api/whatsapp/999999'],
      ['DELETE', '/api/whatsapp/999999'],
      ['POST', '/api/whatsappsession/999999'],
      ['PUT', '/api/whatsappsession/999999'],
      ['DELETE', '/api/whatsappsession/999999'],
    ] as const) {
      const res = await t.request({ method, url, token: t.adminToken });
      expect(res.json(), `${method} ${url}`).toMatchObject({ error: 'ERR_NO_WAPP_FOUND' });
    }
  });

  it('lets only admins change connections and sessions, and hides the QR code from plain users', async () => {
    const w = (await create({ name: 'Guarded' })).json<TWhatsapp>();
    for (const [method, url] of [
      ['POST', '/api/whatsapp'],
      ['PUT', `/api/whatsapp/${w.id}`],
      ['DELETE', `/api/whatsapp/${w.id}`],
      ['POST', `/api/whatsappsession/${w.id}`],
      ['PUT', `/api/whatsappsession/${w.id}`],
      ['DELETE', `/api/whatsappsession/${w.id}`],
      ['POST', `/api/simulator/${w.id}/scan`],
    ] as const) {
      const res = await t.request({ method, url, token: userToken, payload: { name: 'Nope' } });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await t.request({ method: 'GET', url: `/api/whatsapp/${w.id}`, token: userToken })).statusCode).toBe(200);
  });

  it('gives the QR code that links a phone to admins only, in the list and the single connection', async () => {
    const w = (await create({ name: 'Waiting for a scan' })).json<TWhatsapp>();
    await t.sessions.settled(w.id);
    const asAdmin = (await t.request({ method: 'GET', url: `/api/whatsapp/${w.id}`, token: t.adminToken })).json<TWhatsapp>();
    expect(asAdmin).toMatchObject({ status: 'qrcode', qrcode: expect.stringMatching(/^SIM-/) });
    expect((await list()).find((x) => x.id === w.id)?.qrcode).toBe(asAdmin.qrcode);

    const one = (await t.request({ method: 'GET', url: `/api/whatsapp/${w.id}`, token: userToken })).json<TWhatsapp>();
    expect(one).toMatchObject({ id: w.id, status: 'qrcode', qrcode: '' });
    const all = (await t.request({ method: 'GET', url: '/api/whatsapp', token: userToken })).json<TWhatsapp[]>();
    expect(all.find((x) => x.id === w.id)).toMatchObject({ status: 'qrcode', qrcode: '' });
    expect(all.every((x) => x.qrcode === '')).toBe(true);
  });

  it('disconnects and logs out, then offers a new QR code', async () => {
    const w = (await create({ name: 'Session' })).json<TWhatsapp>();
    await t.request({ method: 'POST', url: `/api/simulator/${w.id}/scan`, token: t.adminToken });
    const logout = await t.request({ method: 'DELETE', url: `/api/whatsappsession/${w.id}`, token: t.adminToken });
    expect(logout.json()).toMatchObject({ status: 'DISCONNECTED', qrcode: '' });
    const fresh = await t.request({ method: 'PUT', url: `/api/whatsappsession/${w.id}`, token: t.adminToken });
    expect(fresh.json()).toMatchObject({ status: 'qrcode' });
    expect(fresh.json<TWhatsapp>().qrcode).toMatch(/^SIM-/);
  });

  it('restores a linked session when the server starts again', async () => {
    const w = (await create({ name: 'Restored' })).json<TWhatsapp>();
    await t.request({ method: 'POST', url: `/api/simulator/${w.id}/scan`, token: t.adminToken });
    await t.sessions.stop(w.id);
    await t.sessions.restoreAll();
    const after = (await t.request({ method: 'GET', url: `/api/whatsapp/${w.id}`, token: t.adminToken })).json<TWhatsapp>();
    expect(after.status).toBe('CONNECTED');
  });

  it('counts retries when the phone drops, and a retry reconnects', async () => {
    const w = (await create({ name: 'Flaky' })).json<TWhatsapp>();
    await t.request({ method: 'POST', url: `/api/simulator/${w.id}/scan`, token: t.adminToken });
    await t.request({ method: 'POST', url: `/api/simulator/${w.id}/disconnect`, token: t.adminToken });
    const dropped = (await t.request({ method: 'GET', url: `/api/whatsapp/${w.id}`, token: t.adminToken })).json<TWhatsapp>();
    expect(dropped).toMatchObject({ status: 'DISCONNECTED', retries: 1 });
    const retried = await t.request({ method: 'POST', url: `/api/whatsappsession/${w.id}`, token: t.adminToken });
    expect(retried.json()).toMatchObject({ status: 'CONNECTED' });
  });
});
