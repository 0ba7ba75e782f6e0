import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('queues', () => {
  it('creates, lists, updates and deletes a queue as admin', async () => {
    const created = await t.request({ method: 'POST', url: '/api/queue', token: t.adminToken, payload: { name: 'Sales', color: '#b80000', greetingMessage: 'Hi' } });
    expect(created.statusCode).toBe(201);
    const queue = created.json();
    expect(queue).toMatchObject({ name: 'Sales', color: '#B80000', greetingMessage: 'Hi' });

    const list = await t.request({ method: 'GET', url: '/api/queue', token: t.adminToken });
    expect(list.json().map((q: { id: number }) => q.id)).toContain(queue.id);

    const updated = await t.request({ method: 'PUT', url: `/api/queue/${queue.id}`, token: t.adminToken, payload: { name: 'Sales BR', color: '#B80000' } });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Sales BR', greetingMessage: '' });

    const del = await t.request({ method: 'DELETE', url: `/api/queue/${queue.id}`, token: t.adminToken });
    expect(del.statusCode).toBe(204);
    const gone = await t.request({ method: 'GET', url: `/api/queue/${queue.id}`, token: t.adminToken });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ error: 'ERR_NO_QUEUE_FOUND' });
  });

  it('refuses a colour already in use, whatever its case', async () => {
    await t.createQueue({ color: '#123abc' });
    const res = await t.request({ method: 'POST', url: '/api/queue', token: t.adminToken, payload: { name: 'Other', color: '#123ABC' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' });
  });

  it('validates name and colour lengths', async () => {
    const res = await t.request({ method: 'POST', url: '/api/queue', token: t.adminToken, payload: { name: 'a', color: '#1' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { name: 'TOO_SHORT', color: 'TOO_SHORT' } });
  });

  it('lets a plain user read queues but not change them', async () => {
    const { token } = await t.createUser();
    expect((await t.request({ method: 'GET', url: '/api/queue', token })).statusCode).toBe(200);
    const res = await t.request({ method: 'POST', url: '/api/queue', token, payload: { name: 'Nope', color: '#00FF00' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
  });
});
