import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TQuickAnswer } from '@zapdesk/shared/schemas';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
/** Quick answers are shared by the team: a plain user does everything here. */
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ token } = await t.createUser());
});
afterAll(async () => {
  await t.close();
});

async function createQuickAnswer(shortcut: string, message: string): Promise<TQuickAnswer> {
  const res = await t.request({ method: 'POST', url: '/api/quickAnswers', token, payload: { shortcut, message } });
  expect(res.statusCode).toBe(201);
  return res.json();
}

async function search(term: string, pageNumber = 1) {
  const res = await t.request({ method: 'GET', url: `/api/quickAnswers?searchParam=${encodeURIComponent(term)}&pageNumber=${pageNumber}`, token });
  expect(res.statusCode).toBe(200);
  return res.json<{ quickAnswers: TQuickAnswer[]; count: number; hasMore: boolean }>();
}

describe('quick answers CRUD, for any logged-in user', () => {
  it('creates, reads, updates and deletes; each change shows on a later GET', async () => {
    const created = await t.request({ method: 'POST', url: '/api/quickAnswers', token, payload: { shortcut: '  hello ', message: 'Hello, how can I help you?' } });
    expect(created.statusCode).toBe(201);
    const qa = created.json();
    expect(qa).toMatchObject({ id: expect.any(Number), shortcut: 'hello', message: 'Hello, how can I help you?' });

    const read = await t.request({ method: 'GET', url: `/api/quickAnswers/${qa.id}`, token });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(qa);

    const updated = await t.request({ method: 'PUT', url: `/api/quickAnswers/${qa.id}`, token, payload: { shortcut: 'hi', message: 'Hi! What can I do for you?' } });
    expect(updated.statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/api/quickAnswers/${qa.id}`, token })).json()).toMatchObject({ shortcut: 'hi', message: 'Hi! What can I do for you?' });

    const deleted = await t.request({ method: 'DELETE', url: `/api/quickAnswers/${qa.id}`, token });
    expect(deleted.statusCode).toBe(204);
    const gone = await t.request({ method: 'GET', url: `/api/quickAnswers/${qa.id}`, token });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ error: 'ERR_NO_QUICK_ANSWER_FOUND', message: 'No quick answer found with this ID.' });
  });

  it('answers 404 ERR_NO_QUICK_ANSWER_FOUND to a read, update or delete of an unknown id', async () => {
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', { shortcut: 'ghost', message: 'A ghost message' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.request({ method, url: '/api/quickAnswers/999999', token, ...(payload ? { payload } : {}) });
      expect(res.statusCode, method).toBe(404);
      expect(res.json()).toMatchObject({ error: 'ERR_NO_QUICK_ANSWER_FOUND' });
    }
  });

  it('answers 400 to a non-numeric id', async () => {
    const res = await t.request({ method: 'GET', url: '/api/quickAnswers/first', token });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { id: 'INVALID' } });
  });

  it('answers 401 without a token, to every route', async () => {
    const qa = await createQuickAnswer('guarded', 'Guarded message');
    for (const [method, url] of [
      ['GET', '/api/quickAnswers'],
      ['POST', '/api/quickAnswers'],
      ['GET', `/api/quickAnswers/${qa.id}`],
      ['PUT', `/api/quickAnswers/${qa.id}`],
      ['DELETE', `/api/quickAnswers/${qa.id}`],
    ] as const) {
      const res = await t.request({ method, url, payload: { shortcut: 'anon', message: 'Anonymous message' } });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toMatchObject({ error: 'ERR_INVALID_TOKEN' });
    }
    expect((await t.request({ method: 'GET', url: `/api/quickAnswers/${qa.id}`, token })).json()).toMatchObject({ shortcut: 'guarded' });
  });
});

describe('quick answers search and pages', () => {
  it('finds by shortcut or message, ignoring case and accents', async () => {
    const cafe = await createQuickAnswer('Café', 'Nosso café abre às 8h.');
    const menu = await createQuickAnswer('menu', 'Veja o cardápio do CAFÉ da manhã.');
    await createQuickAnswer('unrelated', 'Nothing about drinks here.');
    for (const term of ['cafe', 'CAFE', 'café', 'Cafè']) {
      const found = await search(term);
      expect(found.quickAnswers.map((q) => q.id).sort(), term).toEqual([cafe.id, menu.id].sort());
      expect(found).toMatchObject({ count: 2, hasMore: false });
    }
    expect((await search('cardapio')).quickAnswers.map((q) => q.id)).toEqual([menu.id]);
  });

  it('treats % and _ in the search as plain characters', async () => {
    const percent = await createQuickAnswer('discount', 'Today only: 100% off.');
    const underscore = await createQuickAnswer('snake', 'Use the code snake_case.');
    expect((await search('%')).quickAnswers.map((q) => q.id)).toEqual([percent.id]);
    expect((await search('_')).quickAnswers.map((q) => q.id)).toEqual([underscore.id]);
  });

  it('pages 20 at a time, sorted by shortcut, with count and hasMore', async () => {
    const shortcuts = Array.from({ length: 21 }, (_, i) => `paged-${String(i).padStart(2, '0')}`);
    for (const shortcut of [...shortcuts].reverse()) await createQuickAnswer(shortcut, `Paged message ${shortcut}`);

    const page1 = await search('paged-');
    expect(page1).toMatchObject({ count: 21, hasMore: true });
    expect(page1.quickAnswers.map((q) => q.shortcut)).toEqual(shortcuts.slice(0, 20));
    const page2 = await search('paged-', 2);
    expect(page2).toMatchObject({ count: 21, hasMore: false });
    expect(page2.quickAnswers.map((q) => q.shortcut)).toEqual(shortcuts.slice(20));

    const all = (await t.request({ method: 'GET', url: '/api/quickAnswers', token })).json();
    expect(all.count).toBeGreaterThanOrEqual(21);
    expect(all.quickAnswers).toHaveLength(20);
    expect(all.hasMore).toBe(true);
  });

  it('refuses a bad page number or search with 400 ERR_VALIDATION', async () => {
    for (const [query, field] of [
      ['pageNumber=0', 'pageNumber'],
      ['pageNumber=x', 'pageNumber'],
      [`searchParam=${'s'.repeat(101)}`, 'searchParam'],
      ['searchParam=%00', 'searchParam'],
    ] as const) {
      const res = await t.request({ method: 'GET', url: `/api/quickAnswers?${query}`, token });
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { [field]: expect.any(String) } });
    }
  });
});

describe('quick answers validation', () => {
  it.each([
    ['shortcut too short', { shortcut: 'a' }, 'shortcut', 'TOO_SHORT'],
    ['shortcut too long', { shortcut: 's'.repeat(51) }, 'shortcut', 'TOO_LONG'],
    ['shortcut empty', { shortcut: '' }, 'shortcut', 'REQUIRED'],
    ['shortcut missing', { shortcut: undefined }, 'shortcut', 'REQUIRED'],
    ['shortcut with a NUL character', { shortcut: 'nu\u0000l' }, 'shortcut', 'INVALID'],
    ['message too short', { message: '7 chars' }, 'message', 'TOO_SHORT'],
    ['message too long', { message: 'm'.repeat(30001) }, 'message', 'TOO_LONG'],
    ['message empty', { message: '' }, 'message', 'REQUIRED'],
    ['message missing', { message: undefined }, 'message', 'REQUIRED'],
    ['message not a string', { message: 12345678 }, 'message', 'INVALID'],
  ])('refuses %s with 400 ERR_VALIDATION, on create and on update, and writes nothing', async (_label, override, field, code) => {
    const existing = await createQuickAnswer('validation-target', 'The original message');
    const before = (await t.request({ method: 'GET', url: '/api/quickAnswers', token })).json().count;
    const payload = { shortcut: 'valid', message: 'A valid message', ...override };

    const created = await t.request({ method: 'POST', url: '/api/quickAnswers', token, payload });
    expect(created.statusCode).toBe(400);
    expect(created.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { [field]: code } });
    expect((await t.request({ method: 'GET', url: '/api/quickAnswers', token })).json().count).toBe(before);

    const updated = await t.request({ method: 'PUT', url: `/api/quickAnswers/${existing.id}`, token, payload });
    expect(updated.statusCode).toBe(400);
    expect(updated.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { [field]: code } });
    expect((await t.request({ method: 'GET', url: `/api/quickAnswers/${existing.id}`, token })).json()).toMatchObject({ message: 'The original message' });
  });

  it('accepts the boundaries: shortcut of 2 and 50 characters, message of 8 and 30000', async () => {
    const short = await t.request({ method: 'POST', url: '/api/quickAnswers', token, payload: { shortcut: 'ok', message: '8 chars!' } });
    expect(short.statusCode).toBe(201);
    const long = await t.request({ method: 'POST', url: '/api/quickAnswers', token, payload: { shortcut: 's'.repeat(50), message: 'm'.repeat(30000) } });
    expect(long.statusCode).toBe(201);
    expect((await t.request({ method: 'GET', url: `/api/quickAnswers/${long.json().id}`, token })).json().message).toHaveLength(30000);
  });
});
