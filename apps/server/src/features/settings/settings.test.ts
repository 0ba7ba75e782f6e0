import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASKED_VALUE, SETTING_KEYS, SETTINGS, TIME_CREATE_NEW_TICKET_OPTIONS, type SettingKey } from '@zapdesk/shared/domain';
import type { TSetting } from '@zapdesk/shared/schemas';
import { nowIso } from '../../core/time.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { upsertSetting } from './settings.repository.js';

let t: TestApp;
let userToken: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ token: userToken } = await t.createUser());
});
afterAll(async () => {
  await t.close();
});

async function listSettings(): Promise<TSetting[]> {
  const res = await t.request({ method: 'GET', url: '/api/settings', token: t.adminToken });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function settingOf(key: SettingKey): Promise<TSetting | undefined> {
  return (await listSettings()).find((s) => s.key === key);
}

function putSetting(key: string, value: unknown, token = t.adminToken) {
  return t.request({ method: 'PUT', url: `/api/settings/${key}`, token, payload: { value } });
}

const keysOfKind = (kind: string) => SETTING_KEYS.filter((key) => SETTINGS[key].kind === kind);

/** Text settings whose values have a shape (ports, hosts, addresses, minutes). */
const SHAPED: readonly string[] = ['defaultCountryCode', 'emailPort', 'emailHost', 'emailFrom', 'emailTo', 'typebotTime', 'typebotDebounce', 'typebotUrl', 'vonageApiKey', 'vonageApiId', 'vonageFrom'];

describe('GET /api/settings', () => {
  it('lists every setting key once, with its default, on a fresh app', async () => {
    const settings = await listSettings();
    expect(settings.map((s) => s.key).sort()).toEqual([...SETTING_KEYS].sort());
    for (const key of SETTING_KEYS) {
      const setting = settings.find((s) => s.key === key);
      if (key === 'defaultCountryCode') {
        // A new install in Portuguese (DEFAULT_LANGUAGE unset: pt): Brazil's.
        expect(setting).toMatchObject({ value: '55', isSet: true });
      } else if (key === 'userApiToken') {
        // A random token per installation, never a shared default.
        expect(setting?.value).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      } else {
        expect(setting, key).toMatchObject({ value: SETTINGS[key].default, isSet: SETTINGS[key].default !== '', updatedAt: expect.any(String) });
      }
    }
  });

  it('has the spec defaults for the switches that change behaviour', async () => {
    const byKey = Object.fromEntries((await listSettings()).map((s) => [s.key, s.value]));
    expect(byKey).toMatchObject({ userCreation: 'disabled', timeCreateNewTicket: '3600', emailPass: '', vonageApiSecret: '' });
  });

  it('refuses a plain user with 403 ERR_NO_PERMISSION and a visitor with 401', async () => {
    const user = await t.request({ method: 'GET', url: '/api/settings', token: userToken });
    expect(user.statusCode).toBe(403);
    expect(user.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    const anon = await t.request({ method: 'GET', url: '/api/settings' });
    expect(anon.statusCode).toBe(401);
  });
});

describe('PUT /api/settings/:key', () => {
  it.each(keysOfKind('toggle'))('takes enabled or disabled for the toggle %s, and nothing else', async (key) => {
    for (const value of ['disabled', 'enabled']) {
      const res = await putSetting(key, value);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ key, value });
      expect(await settingOf(key)).toMatchObject({ value });
    }
    for (const value of ['on', 'ENABLED', '', 'true']) {
      const res = await putSetting(key, value);
      expect(res.statusCode, value).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { value: 'INVALID' } });
    }
    expect(await settingOf(key)).toMatchObject({ value: 'enabled' });
    // Back to the default for the other tests.
    await putSetting(key, SETTINGS[key].default);
  });

  it('takes only the 11 options for timeCreateNewTicket', async () => {
    expect(TIME_CREATE_NEW_TICKET_OPTIONS).toHaveLength(11);
    for (const option of TIME_CREATE_NEW_TICKET_OPTIONS) {
      const res = await putSetting('timeCreateNewTicket', String(option));
      expect(res.statusCode, String(option)).toBe(200);
      expect(await settingOf('timeCreateNewTicket')).toMatchObject({ value: String(option) });
    }
    for (const value of ['15', '0', '', 'one hour', '3600.0']) {
      const res = await putSetting('timeCreateNewTicket', value);
      expect(res.statusCode, value).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { value: 'INVALID' } });
    }
    expect(await settingOf('timeCreateNewTicket')).toMatchObject({ value: '172800' });
  });

  it.each(keysOfKind('text').filter((key) => !('secret' in SETTINGS[key]) && !SHAPED.includes(key)))('takes any text for %s, empty included', async (key) => {
    for (const value of ['https://bot.example/typebot?x=1;y=2', 'Olá, ação & "aspas"', '']) {
      const res = await putSetting(key, value);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ key, value, isSet: value !== '' });
      expect(await settingOf(key)).toMatchObject({ value });
    }
  });

  it.each([
    ['longer than 2000 characters', 'v'.repeat(2001), 'TOO_LONG'],
    ['not a string', 42, 'INVALID'],
    ['missing', undefined, 'INVALID'],
    ['holding a NUL character', 'a\u0000b', 'INVALID'],
  ])('refuses a value %s with 400 ERR_VALIDATION, and keeps the old value', async (_label, value, code) => {
    await putSetting('typebotName', 'Kept name');
    const res = await putSetting('typebotName', value);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { value: code } });
    expect(await settingOf('typebotName')).toMatchObject({ value: 'Kept name' });
  });

  it('accepts a value of exactly 2000 characters', async () => {
    expect((await putSetting('typebotName', 'v'.repeat(2000))).statusCode).toBe(200);
  });

  it.each([
    ['emailPort', ['465', '2525'], ['0', '70000', 'abc', '25 ']],
    ['emailHost', ['smtp.example.com', '127.0.0.1', '[::1]'], ['smtp example', 'a/b', 'host\r\nX: y']],
    ['emailFrom', ['loja@example.com'], ['not an address', 'a@b.com, c@d.com']],
    ['emailTo', ['a@example.com', 'a@example.com, b@example.com'], ['a@example.com; b', 'x\r\nBcc: evil@example.com']],
    ['typebotTime', ['1', '30'], ['0', '-5', 'ten']],
    ['typebotDebounce', ['0', '3', '60'], ['61', '-1', 'x']],
    ['typebotUrl', ['https://typebot.io', 'http://127.0.0.1:3000', 'https://bots.example.com/typebot'], ['typebot.io', 'javascript:alert(1)', 'https://a b']],
  ] as const)('takes only well-formed values for %s (empty clears it)', async (key, good, bad) => {
    for (const value of [...good, '']) expect((await putSetting(key, value)).statusCode, value).toBe(200);
    for (const value of bad) {
      const res = await putSetting(key, value);
      expect(res.statusCode, value).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { value: 'INVALID' } });
    }
  });

  it('refuses a Typebot address with a user name or password (every agent sees it) with 400 ERR_URL_HAS_CREDENTIALS, and keeps the stored one', async () => {
    expect((await putSetting('typebotUrl', 'https://typebot.example')).statusCode).toBe(200);
    for (const value of ['https://user:pw@typebot.example', 'https://user@typebot.example/bot', 'http://:pw@127.0.0.1:3000']) {
      const res = await putSetting('typebotUrl', value);
      expect(res.statusCode, value).toBe(400);
      expect(res.json(), value).toMatchObject({ error: 'ERR_URL_HAS_CREDENTIALS' });
    }
    expect(await settingOf('typebotUrl')).toMatchObject({ value: 'https://typebot.example' });
  });

  it('never shows agents the user name or password of a Typebot address stored by an earlier version', async () => {
    await upsertSetting(t.ctx.db, 'typebotUrl', 'https://olduser:oldpass@typebot.example/flows', nowIso());
    const frame = await t.request({ method: 'GET', url: '/api/chatbot/frame', token: userToken });
    expect(frame.statusCode).toBe(200);
    expect(frame.json()).toMatchObject({ url: 'https://typebot.example/flows' });
    expect(frame.body).not.toContain('olduser');
    expect(frame.body).not.toContain('oldpass');
    await putSetting('typebotUrl', '');
  });

  it.each(['noSuchSetting', 'constructor', '__proto__', 'USERCREATION'])('answers 404 ERR_NO_SETTING_FOUND to the unknown key %s', async (key) => {
    const res = await putSetting(key, 'enabled');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'ERR_NO_SETTING_FOUND' });
    expect((await listSettings()).map((s) => s.key).sort()).toEqual([...SETTING_KEYS].sort());
  });

  it('refuses to write userApiToken with 400 ERR_SETTING_READ_ONLY, and keeps the token', async () => {
    const before = await settingOf('userApiToken');
    const res = await putSetting('userApiToken', 'chosen-by-me');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_SETTING_READ_ONLY' });
    expect(await settingOf('userApiToken')).toMatchObject({ value: before?.value });
  });

  it('refuses a plain user with 403 ERR_NO_PERMISSION, and changes nothing', async () => {
    const res = await putSetting('userCreation', 'enabled', userToken);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    expect(await settingOf('userCreation')).toMatchObject({ value: 'disabled' });
    const anon = await t.request({ method: 'PUT', url: '/api/settings/userCreation', payload: { value: 'enabled' } });
    expect(anon.statusCode).toBe(401);
  });
});

describe('secret settings', () => {
  it.each(['emailPass', 'vonageApiSecret'] as const)('never returns %s in clear once saved; empty means not set', async (key) => {
    const secret = `s3cr3t-${key}-value`;
    const saved = await putSetting(key, secret);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ key, value: MASKED_VALUE, isSet: true });
    expect(saved.body).not.toContain(secret);

    const list = await t.request({ method: 'GET', url: '/api/settings', token: t.adminToken });
    expect(list.body).not.toContain(secret);
    expect(list.json().find((s: TSetting) => s.key === key)).toMatchObject({ value: MASKED_VALUE, isSet: true });

    const cleared = await putSetting(key, '');
    expect(cleared.json()).toMatchObject({ key, value: '', isSet: false });
    expect(await settingOf(key)).toMatchObject({ value: '', isSet: false });
  });
});

describe('POST /api/settings/userApiToken/regenerate', () => {
  it('replaces the API token with a new random one', async () => {
    const before = await settingOf('userApiToken');
    const res = await t.request({ method: 'POST', url: '/api/settings/userApiToken/regenerate', token: t.adminToken });
    expect(res.statusCode).toBe(200);
    const setting = res.json();
    expect(setting).toMatchObject({ key: 'userApiToken', isSet: true, value: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/) });
    expect(setting.value).not.toBe(before?.value);
    expect(await settingOf('userApiToken')).toMatchObject({ value: setting.value });
  });

  it('refuses a plain user with 403 ERR_NO_PERMISSION, and keeps the token', async () => {
    const before = await settingOf('userApiToken');
    const res = await t.request({ method: 'POST', url: '/api/settings/userApiToken/regenerate', token: userToken });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    expect(await settingOf('userApiToken')).toMatchObject({ value: before?.value });
  });
});
