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

describe('queues: reading', () => {
  it('lists queues sorted by name and shows one by id to any logged-in user', async () => {
    await t.createQueue({ name: 'Zulu desk' });
    const alpha = await t.createQueue({ name: 'Alpha desk' });
    const { token } = await t.createUser();
    const names = (await t.request({ method: 'GET', url: '/api/queue', token })).json().map((q: { name: string }) => q.name);
    expect(names.indexOf('Alpha desk')).toBeGreaterThanOrEqual(0);
    expect(names.indexOf('Alpha desk')).toBeLessThan(names.indexOf('Zulu desk'));

    const one = await t.request({ method: 'GET', url: `/api/queue/${alpha.id}`, token });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(alpha);
  });

  it('answers 401 without a token', async () => {
    for (const url of ['/api/queue', '/api/queue/1']) {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: 'ERR_INVALID_TOKEN' });
    }
  });

  it('answers 400 ERR_VALIDATION to a non-numeric id', async () => {
    const res = await t.request({ method: 'GET', url: '/api/queue/abc', token: t.adminToken });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { id: 'INVALID' } });
  });
});

describe('queues: validation', () => {
  it.each([
    ['name missing', { name: undefined }, 'name', 'REQUIRED'],
    ['name empty', { name: '  ' }, 'name', 'REQUIRED'],
    ['name too long', { name: 'Q'.repeat(51) }, 'name', 'TOO_LONG'],
    ['colour missing', { color: undefined }, 'color', 'REQUIRED'],
    ['colour too long', { color: '#1234567890' }, 'color', 'TOO_LONG'],
    // Upper-cased, 'ß' becomes 'SS': the stored value would not fit in 9 characters.
    ['colour too long once upper-cased', { color: '#ßßßßßßßß' }, 'color', 'TOO_LONG'],
    ['colour not a string', { color: 123 }, 'color', 'INVALID'],
    ['greeting too long', { greetingMessage: 'g'.repeat(30001) }, 'greetingMessage', 'TOO_LONG'],
    ['greeting with a NUL character', { greetingMessage: 'Hi\u0000' }, 'greetingMessage', 'INVALID'],
  ])('refuses %s with 400 ERR_VALIDATION and creates nothing', async (_label, override, field, code) => {
    const before = (await t.request({ method: 'GET', url: '/api/queue', token: t.adminToken })).json().length;
    const res = await t.request({ method: 'POST', url: '/api/queue', token: t.adminToken, payload: { name: 'Valid', color: '#ABC123', ...override } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { [field]: code } });
    expect((await t.request({ method: 'GET', url: '/api/queue', token: t.adminToken })).json()).toHaveLength(before);
  });

  it('accepts the boundaries: name of 2 and 50 characters, colour of 3 and 9', async () => {
    const short = await t.request({ method: 'POST', url: '/api/queue', token: t.adminToken, payload: { name: 'QA', color: 'red' } });
    expect(short.statusCode).toBe(201);
    expect(short.json()).toMatchObject({ name: 'QA', color: 'RED', greetingMessage: '' });
    const long = await t.request({ method: 'POST', url: '/api/queue', token: t.adminToken, payload: { name: 'Q'.repeat(50), color: '#11223344', greetingMessage: 'g'.repeat(30000) } });
    expect(long.statusCode).toBe(201);
  });

  it('validates the body of an update too, and changes nothing', async () => {
    const queue = await t.createQueue({ name: 'Steady' });
    const res = await t.request({ method: 'PUT', url: `/api/queue/${queue.id}`, token: t.adminToken, payload: { name: 'S', color: queue.color } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { name: 'TOO_SHORT' } });
    expect((await t.request({ method: 'GET', url: `/api/queue/${queue.id}`, token: t.adminToken })).json()).toMatchObject({ name: 'Steady' });
  });
});

describe('queues: updates and deletes', () => {
  it('shows the change on a later GET', async () => {
    const queue = await t.createQueue({ name: 'Before', greetingMessage: 'Old greeting' });
    const res = await t.request({ method: 'PUT', url: `/api/queue/${queue.id}`, token: t.adminToken, payload: { name: 'After', color: '#0c797d', greetingMessage: 'New greeting' } });
    expect(res.statusCode).toBe(200);
    const shown = (await t.request({ method: 'GET', url: `/api/queue/${queue.id}`, token: t.adminToken })).json();
    expect(shown).toMatchObject({ id: queue.id, name: 'After', color: '#0C797D', greetingMessage: 'New greeting' });
  });

  it("refuses another queue's colour on update with 409, and changes nothing", async () => {
    await t.createQueue({ color: '#FA28FF' });
    const queue = await t.createQueue({ name: 'Unchanged' });
    const res = await t.request({ method: 'PUT', url: `/api/queue/${queue.id}`, token: t.adminToken, payload: { name: 'Changed', color: '#fa28ff' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' });
    expect((await t.request({ method: 'GET', url: `/api/queue/${queue.id}`, token: t.adminToken })).json()).toMatchObject({ name: 'Unchanged', color: queue.color });
  });

  it('answers 404 ERR_NO_QUEUE_FOUND to an update or a delete of an unknown id', async () => {
    const put = await t.request({ method: 'PUT', url: '/api/queue/999999', token: t.adminToken, payload: { name: 'Ghost', color: '#0062B1' } });
    expect(put.statusCode).toBe(404);
    expect(put.json()).toMatchObject({ error: 'ERR_NO_QUEUE_FOUND' });
    const del = await t.request({ method: 'DELETE', url: '/api/queue/999999', token: t.adminToken });
    expect(del.statusCode).toBe(404);
    expect(del.json()).toMatchObject({ error: 'ERR_NO_QUEUE_FOUND' });
    // The ghost's colour was not taken by the failed update.
    expect((await t.request({ method: 'POST', url: '/api/queue', token: t.adminToken, payload: { name: 'Real', color: '#0062B1' } })).statusCode).toBe(201);
  });

  it('refuses a plain user updating or deleting a queue with 403, and the queue stays as it was', async () => {
    const queue = await t.createQueue({ name: 'Guarded' });
    const { token } = await t.createUser();
    const put = await t.request({ method: 'PUT', url: `/api/queue/${queue.id}`, token, payload: { name: 'Taken over', color: queue.color } });
    expect(put.statusCode).toBe(403);
    expect(put.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    const del = await t.request({ method: 'DELETE', url: `/api/queue/${queue.id}`, token });
    expect(del.statusCode).toBe(403);
    expect(del.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    expect((await t.request({ method: 'GET', url: `/api/queue/${queue.id}`, token })).json()).toMatchObject({ name: 'Guarded' });
  });

  it("removes a deleted queue from its users' queues and frees its colour", async () => {
    const queue = await t.createQueue({ color: '#653294' });
    const { user } = await t.createUser({ queueIds: [queue.id] });
    expect((await t.request({ method: 'DELETE', url: `/api/queue/${queue.id}`, token: t.adminToken })).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: `/api/users/${user.id}`, token: t.adminToken })).json()).toMatchObject({ queues: [] });
    expect((await t.request({ method: 'POST', url: '/api/queue', token: t.adminToken, payload: { name: 'Reuse', color: '#653294' } })).statusCode).toBe(201);
  });
});

describe('queues: names', () => {
  it('refuses a name already in use, whatever its case or accents, on create and rename, and writes nothing', async () => {
    const first = await t.createQueue({ name: 'Suporte Técnico' });
    const before = (await t.request({ method: 'GET', url: '/api/queue', token: t.adminToken })).json().length;
    for (const name of ['Suporte Técnico', 'suporte técnico', 'SUPORTE TÉCNICO', '  Suporte técnico ']) {
      const res = await t.request({
        method: 'POST',
        url: '/api/queue',
        token: t.adminToken,
        payload: {
          name,
          color: `#${Math.floor(Math.random() * 0xffffff)
            .toString(16)
            .padStart(6, '0')}`,
        },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ error: 'ERR_QUEUE_NAME_ALREADY_EXISTS', fields: { name: 'TAKEN' } });
    }
    expect((await t.request({ method: 'GET', url: '/api/queue', token: t.adminToken })).json()).toHaveLength(before);

    const other = await t.createQueue({ name: 'Financeiro' });
    const rename = await t.request({ method: 'PUT', url: `/api/queue/${other.id}`, token: t.adminToken, payload: { name: 'SUPORTE técnico', color: other.color } });
    expect(rename.statusCode).toBe(409);
    expect(rename.json()).toMatchObject({ error: 'ERR_QUEUE_NAME_ALREADY_EXISTS' });
    expect((await t.request({ method: 'GET', url: `/api/queue/${other.id}`, token: t.adminToken })).json()).toMatchObject({ name: 'Financeiro' });

    // A queue keeps its own name, in another case too.
    const own = await t.request({ method: 'PUT', url: `/api/queue/${first.id}`, token: t.adminToken, payload: { name: 'Suporte técnico', color: first.color } });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ name: 'Suporte técnico' });
  });
});
