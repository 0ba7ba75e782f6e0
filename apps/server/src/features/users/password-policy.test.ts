/**
 * The password policy: at least 8 characters, long passphrases welcome, and none of the most
 * common passwords, wherever a password is chosen (sign-up, an admin creating or editing a user,
 * one's own change). Passwords from before keep working, and their owners are asked to change them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { hashPassword } from '../../core/auth/password.js';
import { loadConfig } from '../../core/config.js';
import { nowIso } from '../../core/time.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { insertUser } from './users.repository.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  const enabled = await t.request({ method: 'PUT', url: '/api/settings/userCreation', token: t.adminToken, payload: { value: 'enabled' } });
  expect(enabled.statusCode).toBe(200);
});

afterAll(async () => {
  await t.close();
});

let n = 0;
function email(): string {
  n += 1;
  return `policy${n}@test.local`;
}

/** Every place a password is chosen, each answering with its status and body. */
const choosers: Record<string, (password: string) => Promise<{ statusCode: number; json: () => unknown }>> = {
  'sign-up': (password) => t.request({ method: 'POST', url: '/api/auth/signup', payload: { name: 'Nova Pessoa', email: email(), password } }),
  'an admin creating a user': (password) => t.request({ method: 'POST', url: '/api/users', token: t.adminToken, payload: { name: 'Nova Pessoa', email: email(), password } }),
  "an admin setting a user's password": async (password) => {
    const { user } = await t.createUser();
    return t.request({ method: 'PUT', url: `/api/users/${user.id}`, token: t.adminToken, payload: { name: user.name, email: user.email, password } });
  },
  'one changing their own': async (password) => {
    const { user, token, password: current } = await t.createUser();
    return t.request({ method: 'PUT', url: `/api/users/${user.id}`, token, payload: { name: user.name, email: user.email, password, currentPassword: current } });
  },
};

describe('choosing a password', () => {
  for (const [where, choose] of Object.entries(choosers)) {
    it(`${where}: refuses fewer than 8 characters, more than 128, and common passwords; takes a long passphrase`, async () => {
      const short = await choose('abc1234');
      expect(short.statusCode).toBe(400);
      expect(short.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { password: 'TOO_SHORT' } });
      expect((await choose('x'.repeat(129))).json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { password: 'TOO_LONG' } });
      for (const common of ['password123', 'Senha123', '12345678', 'qwertyuiop']) {
        const refused = await choose(common);
        expect(refused.statusCode, common).toBe(400);
        expect(refused.json(), common).toMatchObject({ error: 'ERR_PASSWORD_TOO_COMMON', fields: { password: 'TOO_COMMON' } });
      }
      expect((await choose('tz9-kq4-bw7')).statusCode).toBeLessThan(300);
      expect((await choose('o gato subiu no telhado da casa amarela em 2024 '.repeat(2).trim())).statusCode).toBeLessThan(300);
    });
  }

  it('a passphrase of 128 characters signs in', async () => {
    const passphrase = 'uma frase longa e fácil de lembrar, difícil de adivinhar; '.repeat(3).slice(0, 128);
    const { user } = await t.createUser({ password: passphrase });
    expect((await t.login(user.email, passphrase)).user.id).toBe(user.id);
  });
});

describe('a password from before the policy', () => {
  it('still signs in, and sign-in and refresh ask for a change until it is changed', async () => {
    const address = email();
    const id = await insertUser(t.ctx.db, { name: 'Antiga', email: address, profile: 'user', whatsappId: null, roleId: null, passwordHash: await hashPassword('12345') }, nowIso());
    const signIn = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: address, password: '12345' } });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json()).toMatchObject({ passwordChangeRequired: true });
    const cookie = signIn.cookies.find((c) => c.name === 'jrt');
    const refreshed = await t.request({ method: 'POST', url: '/api/auth/refresh_token', headers: { cookie: `jrt=${cookie?.value ?? ''}` } });
    expect(refreshed.json()).toMatchObject({ passwordChangeRequired: true });

    const { token } = signIn.json<{ token: string }>();
    const changed = await t.request({ method: 'PUT', url: `/api/users/${id}`, token, payload: { name: 'Antiga', email: address, password: 'um-novo-comeco', currentPassword: '12345' } });
    expect(changed.statusCode).toBe(200);
    const newCookie = changed.cookies.find((c) => c.name === 'jrt');
    expect((await t.request({ method: 'POST', url: '/api/auth/refresh_token', headers: { cookie: `jrt=${newCookie?.value ?? ''}` } })).json()).toMatchObject({ passwordChangeRequired: false });
    expect((await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: address, password: 'um-novo-comeco' } })).json()).toMatchObject({ passwordChangeRequired: false });
  });

  it('a common one too', async () => {
    const address = email();
    await insertUser(t.ctx.db, { name: 'Comum', email: address, profile: 'user', whatsappId: null, roleId: null, passwordHash: await hashPassword('iloveyou') }, nowIso());
    expect((await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: address, password: 'iloveyou' } })).json()).toMatchObject({ passwordChangeRequired: true });
  });
});

describe('the first admin', () => {
  it("gets a generated password that meets the policy, and isn't asked to change it", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-test-'));
    const built = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIST: path.join(dataDir, 'no-web') }));
    try {
      const password = built.admin.password ?? '';
      expect(password.length).toBeGreaterThanOrEqual(8);
      const res = await built.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: built.admin.email, password } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ passwordChangeRequired: false });
    } finally {
      await built.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
