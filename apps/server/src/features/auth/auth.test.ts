import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN, createTestApp, type TestApp } from '../../test/harness.js';
import { ROTATION_GRACE_MS } from './auth.service.js';

let t: TestApp;
let adminId: number;
beforeAll(async () => {
  t = await createTestApp();
  adminId = (await t.login(ADMIN.email, ADMIN.password)).user.id;
  // Sign-up is off on a new install; these tests turn it on.
  await t.request({ method: 'PUT', url: '/api/settings/userCreation', token: t.adminToken, payload: { value: 'enabled' } });
});
afterAll(async () => {
  await t.close();
});

function refreshCookie(res: LightMyRequestResponse) {
  return res.cookies.find((c) => c.name === 'jrt');
}

async function login(email: string, password: string) {
  return t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
}

async function refresh(cookieValue: string | undefined) {
  return t.request({ method: 'POST', url: '/api/auth/refresh_token', ...(cookieValue === undefined ? {} : { cookies: { jrt: cookieValue } }) });
}

/** The user as seen with `token`: 200 while the token is good. */
async function whoAmI(token: string, userId: number) {
  return t.request({ method: 'GET', url: `/api/users/${userId}`, token });
}

describe('POST /api/auth/login', () => {
  it('returns a token and the user, and sets an httpOnly refresh cookie', async () => {
    const res = await login(ADMIN.email, ADMIN.password);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ token: expect.any(String), user: { email: ADMIN.email, profile: 'admin', queues: [] } });
    expect(body.user).not.toHaveProperty('password');
    expect(body.user).not.toHaveProperty('passwordHash');
    expect(refreshCookie(res)).toMatchObject({ httpOnly: true, path: '/api/auth', sameSite: 'Lax', value: expect.any(String) });
    expect((await whoAmI(body.token, body.user.id)).statusCode).toBe(200);
  });

  it('accepts the email in any case and with surrounding spaces', async () => {
    const res = await login(`  ${ADMIN.email.toUpperCase()} `, ADMIN.password);
    expect(res.statusCode).toBe(200);
  });

  it('refuses a wrong password and an unknown email alike, with 401 ERR_INVALID_CREDENTIALS and no cookie', async () => {
    for (const [email, password] of [
      [ADMIN.email, 'wrong-pass'],
      ['nobody@test.local', ADMIN.password],
    ] as const) {
      const res = await login(email, password);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'ERR_INVALID_CREDENTIALS' });
      expect(refreshCookie(res)).toBeUndefined();
    }
  });

  it('validates the body: a bad email is INVALID_EMAIL, missing fields are REQUIRED', async () => {
    const bad = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: 'not-an-email', password: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { email: 'INVALID_EMAIL' } });

    const missing = await t.request({ method: 'POST', url: '/api/auth/login', payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { email: 'REQUIRED', password: 'REQUIRED' } });

    const empty = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: '', password: '' } });
    expect(empty.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { email: 'REQUIRED', password: 'REQUIRED' } });

    const long = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: ADMIN.email, password: 'p'.repeat(201) } });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { password: 'TOO_LONG' } });
  });

  it('limits failed login attempts per minute: past LOGIN_RATE_LIMIT failures it answers 429 ERR_TOO_MANY_REQUESTS, even to the right password; sign-ins are not counted', async () => {
    const limited = await createTestApp({ LOGIN_RATE_LIMIT: '3' });
    await limited.request({ method: 'PUT', url: '/api/settings/userCreation', token: limited.adminToken, payload: { value: 'enabled' } });
    try {
      // The harness signed in once already; successful sign-ins use up nothing.
      for (let i = 0; i < 4; i += 1) expect((await limited.request({ method: 'POST', url: '/api/auth/login', payload: ADMIN })).statusCode).toBe(200);
      for (let i = 0; i < 3; i += 1) expect((await limited.request({ method: 'POST', url: '/api/auth/login', payload: { email: ADMIN.email, password: 'wrong-pass' } })).statusCode).toBe(401);
      const fourth = await limited.request({ method: 'POST', url: '/api/auth/login', payload: ADMIN });
      expect(fourth.statusCode).toBe(429);
      expect(fourth.json()).toMatchObject({ error: 'ERR_TOO_MANY_REQUESTS', message: expect.any(String) });
      expect(fourth.headers['retry-after']).toBeDefined();
      expect(refreshCookie(fourth)).toBeUndefined();
      // Other routes are not limited.
      expect((await limited.request({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

      // Signup has its own counter with the same limit.
      for (const i of [1, 2, 3]) {
        const res = await limited.request({ method: 'POST', url: '/api/auth/signup', payload: { name: `Rate ${i}`, email: `rate${i}@test.local`, password: 'pass-1234' } });
        expect(res.statusCode).toBe(201);
      }
      const tooMany = await limited.request({ method: 'POST', url: '/api/auth/signup', payload: { name: 'Rate 4', email: 'rate4@test.local', password: 'pass-1234' } });
      expect(tooMany.statusCode).toBe(429);
      expect(tooMany.json()).toMatchObject({ error: 'ERR_TOO_MANY_REQUESTS' });
      const users = await limited.request({ method: 'GET', url: '/api/users?searchParam=rate4', token: limited.adminToken });
      expect(users.json()).toMatchObject({ count: 0 });
    } finally {
      await limited.close();
    }
  });
});

describe('POST /api/auth/signup', () => {
  async function userCount(): Promise<number> {
    return (await t.request({ method: 'GET', url: '/api/users', token: t.adminToken })).json().count;
  }

  it('creates a plain user, even when the body asks for admin, who can then log in', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { name: 'New Agent', email: 'New.Agent@Test.local', password: 'pass-1234', profile: 'admin', queueIds: [1] },
    });
    expect(res.statusCode).toBe(201);
    const user = res.json();
    expect(user).toMatchObject({ name: 'New Agent', email: 'new.agent@test.local', profile: 'user', queues: [], whatsappId: null });
    expect(user).not.toHaveProperty('passwordHash');

    const stored = await whoAmI(t.adminToken, user.id);
    expect(stored.json()).toMatchObject({ profile: 'user' });
    const loggedIn = await login('new.agent@test.local', 'pass-1234');
    expect(loggedIn.statusCode).toBe(200);
    expect(loggedIn.json().user).toMatchObject({ id: user.id, profile: 'user' });
  });

  it('refuses an email already used, whatever its case, with 409 ERR_EMAIL_ALREADY_EXISTS', async () => {
    const before = await userCount();
    const res = await t.request({ method: 'POST', url: '/api/auth/signup', payload: { name: 'Copy', email: ADMIN.email.toUpperCase(), password: 'pass-1234' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'ERR_EMAIL_ALREADY_EXISTS' });
    expect(await userCount()).toBe(before);
  });

  it.each([
    ['name too short', { name: 'A' }, 'name', 'TOO_SHORT'],
    ['name too long', { name: 'N'.repeat(51) }, 'name', 'TOO_LONG'],
    ['name empty', { name: '' }, 'name', 'REQUIRED'],
    ['name only spaces', { name: '    ' }, 'name', 'REQUIRED'],
    ['name missing', { name: undefined }, 'name', 'REQUIRED'],
    ['name not a string', { name: 42 }, 'name', 'INVALID'],
    ['email invalid', { email: 'agent@' }, 'email', 'INVALID_EMAIL'],
    ['email empty', { email: '' }, 'email', 'REQUIRED'],
    ['email missing', { email: undefined }, 'email', 'REQUIRED'],
    ['password too short', { password: '1234' }, 'password', 'TOO_SHORT'],
    ['password too long', { password: 'p'.repeat(129) }, 'password', 'TOO_LONG'],
    ['password missing', { password: undefined }, 'password', 'REQUIRED'],
  ])('refuses %s with 400 ERR_VALIDATION and creates nothing', async (_label, override, field, code) => {
    const before = await userCount();
    const payload = { name: 'Valid Name', email: `valid${Math.random().toString(36).slice(2)}@test.local`, password: 'pass-1234', ...override };
    const res = await t.request({ method: 'POST', url: '/api/auth/signup', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { [field]: code } });
    expect(await userCount()).toBe(before);
  });

  it('accepts the boundaries: name of 2 and 50 characters, password of 8 and 128', async () => {
    const short = await t.request({ method: 'POST', url: '/api/auth/signup', payload: { name: 'Al', email: 'al@test.local', password: 'k3y-8chr' } });
    expect(short.statusCode).toBe(201);
    const long = await t.request({ method: 'POST', url: '/api/auth/signup', payload: { name: 'L'.repeat(50), email: 'long@test.local', password: 'p'.repeat(128) } });
    expect(long.statusCode).toBe(201);
    expect((await login('long@test.local', 'p'.repeat(128))).statusCode).toBe(200);
  });

  it('is off on a new install: 403 ERR_USER_CREATION_DISABLED, nobody created', async () => {
    const fresh = await createTestApp();
    try {
      const setting = (await fresh.request({ method: 'GET', url: '/api/settings', token: fresh.adminToken })).json<{ key: string; value: string }[]>().find((s) => s.key === 'userCreation');
      expect(setting).toMatchObject({ value: 'disabled' });
      const refused = await fresh.request({ method: 'POST', url: '/api/auth/signup', payload: { name: 'Early Bird', email: 'early@test.local', password: 'pass-1234' } });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: 'ERR_USER_CREATION_DISABLED' });
      expect((await fresh.request({ method: 'POST', url: '/api/auth/login', payload: { email: 'early@test.local', password: 'pass-1234' } })).statusCode).toBe(401);
    } finally {
      await fresh.close();
    }
  });

  it('answers 403 ERR_USER_CREATION_DISABLED while an admin has disabled user creation', async () => {
    const disable = await t.request({ method: 'PUT', url: '/api/settings/userCreation', token: t.adminToken, payload: { value: 'disabled' } });
    expect(disable.statusCode).toBe(200);
    const before = await userCount();

    const refused = await t.request({ method: 'POST', url: '/api/auth/signup', payload: { name: 'Late Comer', email: 'late@test.local', password: 'pass-1234' } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'ERR_USER_CREATION_DISABLED' });
    expect(await userCount()).toBe(before);
    // Admins still create users.
    const byAdmin = await t.request({ method: 'POST', url: '/api/users', token: t.adminToken, payload: { name: 'By Admin', email: 'byadmin@test.local', password: 'pass-1234' } });
    expect(byAdmin.statusCode).toBe(201);

    await t.request({ method: 'PUT', url: '/api/settings/userCreation', token: t.adminToken, payload: { value: 'enabled' } });
    const accepted = await t.request({ method: 'POST', url: '/api/auth/signup', payload: { name: 'Late Comer', email: 'late@test.local', password: 'pass-1234' } });
    expect(accepted.statusCode).toBe(201);
  });
});

describe('POST /api/auth/refresh_token', () => {
  it('answers a browser without a refresh cookie 401 (no session to restore, as the spec says), and a cookie that fails 401', async () => {
    const none = await refresh(undefined);
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ error: 'ERR_INVALID_TOKEN' });
    expect(refreshCookie(none)).toBeUndefined();
    const bad = await refresh('not-a-token');
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({ error: 'ERR_INVALID_TOKEN' });
  });

  it('exchanges the refresh cookie for a new access token and a new cookie', async () => {
    const first = await login(ADMIN.email, ADMIN.password);
    const oldCookie = refreshCookie(first)?.value;
    expect(oldCookie).toBeTruthy();

    const res = await refresh(oldCookie);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ token: expect.any(String), user: { email: ADMIN.email } });
    expect(body.token).not.toBe(first.json().token);
    const newCookie = refreshCookie(res);
    expect(newCookie).toMatchObject({ httpOnly: true, path: '/api/auth' });
    expect(newCookie?.value).toBeTruthy();
    expect(newCookie?.value).not.toBe(oldCookie);

    expect((await whoAmI(body.token, body.user.id)).statusCode).toBe(200);
    expect((await refresh(newCookie?.value)).statusCode).toBe(200);
  });

  it('uses each refresh token once: the replaced one presented again revokes that sign-in, both cookies answer 401 and its access tokens end', async () => {
    const { user, password } = await t.createUser();
    const victim = await login(user.email, password);
    const copied = refreshCookie(victim)?.value;
    const otherDevice = await login(user.email, password);
    const rotated = await refresh(copied);
    expect(rotated.statusCode).toBe(200);
    const current = refreshCookie(rotated)?.value;
    expect(current).not.toBe(copied);

    // Later (past the few seconds two tabs may race), the copy is presented again.
    const later = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + ROTATION_GRACE_MS + 1000);
    try {
      const replay = await refresh(copied);
      expect(replay.statusCode).toBe(401);
      expect(replay.json()).toMatchObject({ error: 'ERR_INVALID_TOKEN' });
    } finally {
      later.mockRestore();
    }
    // Both holders of that sign-in are out: the newest cookie too, and its access token.
    const afterwards = await refresh(current);
    expect(afterwards.statusCode).toBe(401);
    expect(refreshCookie(afterwards)?.value ?? '').toBe('');
    expect((await whoAmI(rotated.json().token, user.id)).json()).toMatchObject({ error: 'ERR_SESSION_EXPIRED' });
    expect((await whoAmI(victim.json().token, user.id)).statusCode).toBe(403);
    // Another sign-in of the same user carries on.
    expect((await whoAmI(otherDevice.json().token, user.id)).statusCode).toBe(200);
    expect((await refresh(refreshCookie(otherDevice)?.value)).statusCode).toBe(200);
  });

  it('lets two tabs that refresh at the same moment with the same cookie both carry on', async () => {
    const { user, password } = await t.createUser();
    const cookie = refreshCookie(await login(user.email, password))?.value;
    const [a, b] = await Promise.all([refresh(cookie), refresh(cookie)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(refreshCookie(a)?.value).toBeTruthy();
    const next = await refresh(refreshCookie(b)?.value);
    expect(next.statusCode).toBe(200);
  });

  it('refuses a refresh token without a sign-in family (issued before families existed)', async () => {
    const { user } = await t.createUser();
    const legacy = await t.ctx.tokens.signRefresh({ userId: user.id, tokenVersion: 0 });
    expect((await refresh(legacy)).statusCode).toBe(401);
  });

  it('answers 401 and clears the cookie when it is garbage or an access token', async () => {
    const { token } = await t.login(ADMIN.email, ADMIN.password);
    for (const value of ['garbage', token]) {
      const res = await refresh(value);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: 'ERR_INVALID_TOKEN' });
      const cleared = refreshCookie(res);
      expect(cleared?.value).toBe('');
      expect(cleared?.expires?.getTime()).toBeLessThanOrEqual(Date.now());
    }
  });

  it('answers 401 to an expired refresh cookie', async () => {
    const { refresh: expired } = await t.expiredTokens(adminId);
    const res = await refresh(expired);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'ERR_INVALID_TOKEN' });
  });
});

describe('DELETE /api/auth/logout', () => {
  it('answers 204, clears the cookie, and afterwards refuses the old cookie and the old access token', async () => {
    const { user, password } = await t.createUser();
    const session = await t.login(user.email, password);
    const otherSession = await t.login(user.email, password);

    const res = await t.request({ method: 'DELETE', url: '/api/auth/logout', token: session.token });
    expect(res.statusCode).toBe(204);
    expect(refreshCookie(res)?.value).toBe('');

    const staleCookie = await refresh(session.cookie.replace(/^jrt=/, ''));
    expect(staleCookie.statusCode).toBe(401);
    expect(staleCookie.json()).toMatchObject({ error: 'ERR_INVALID_TOKEN' });
    // An access token from before the logout is refused as expired: the refresh that follows fails.
    const staleToken = await whoAmI(session.token, user.id);
    expect(staleToken.statusCode).toBe(403);
    expect(staleToken.json()).toMatchObject({ error: 'ERR_SESSION_EXPIRED' });
    // Logout ends every session of the user...
    expect((await whoAmI(otherSession.token, user.id)).statusCode).toBe(403);
    expect((await refresh(otherSession.cookie.replace(/^jrt=/, ''))).statusCode).toBe(401);
    // ...but not other users' sessions, and the user can log in again.
    expect((await whoAmI(t.adminToken, user.id)).statusCode).toBe(200);
    const again = await t.login(user.email, password);
    expect((await whoAmI(again.token, user.id)).statusCode).toBe(200);
  });

  it('answers 401 without a token', async () => {
    const res = await t.request({ method: 'DELETE', url: '/api/auth/logout' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'ERR_INVALID_TOKEN' });
  });
});

describe('password change', () => {
  it('ends earlier sessions of the user; their own response carries a new working refresh cookie', async () => {
    const { user, password } = await t.createUser();
    const session = await t.login(user.email, password);

    const res = await t.request({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      token: session.token,
      payload: { name: user.name, email: user.email, password: 'brand-new-pass', currentPassword: password },
    });
    expect(res.statusCode).toBe(200);
    const newCookie = refreshCookie(res);
    expect(newCookie).toMatchObject({ httpOnly: true, path: '/api/auth' });

    expect((await whoAmI(session.token, user.id)).statusCode).toBe(403);
    expect((await refresh(session.cookie.replace(/^jrt=/, ''))).statusCode).toBe(401);

    const renewed = await refresh(newCookie?.value);
    expect(renewed.statusCode).toBe(200);
    expect((await whoAmI(renewed.json().token, user.id)).statusCode).toBe(200);

    expect((await login(user.email, password)).statusCode).toBe(401);
    expect((await login(user.email, 'brand-new-pass')).statusCode).toBe(200);
  });

  it("by an admin ends the target's sessions, not the admin's, and sets no cookie", async () => {
    const { user, token } = await t.createUser();
    const res = await t.request({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      token: t.adminToken,
      payload: { name: user.name, email: user.email, password: 'set-by-admin' },
    });
    expect(res.statusCode).toBe(200);
    expect(refreshCookie(res)).toBeUndefined();
    expect((await whoAmI(token, user.id)).statusCode).toBe(403);
    expect((await whoAmI(t.adminToken, user.id)).statusCode).toBe(200);
    expect((await login(user.email, 'set-by-admin')).statusCode).toBe(200);
  });
});

describe('access tokens', () => {
  it('answers 403 ERR_SESSION_EXPIRED to an expired access token, so the client refreshes', async () => {
    const { access } = await t.expiredTokens(adminId);
    const res = await whoAmI(access, adminId);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
  });

  it.each([
    ['no header', undefined],
    ['a garbage token', 'Bearer not-a-jwt'],
    ['another scheme', `Basic ${Buffer.from(`${ADMIN.email}:${ADMIN.password}`).toString('base64')}`],
    ['a bearer without token', 'Bearer '],
    ['a token signed with another secret', 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJ0diI6MCwidHlwIjoiYWNjZXNzIiwic3ViIjoiMSJ9.c2lnbmVkLXdpdGgtYW5vdGhlci1zZWNyZXQtMTIzNDU2'],
  ])('answers 401 ERR_INVALID_TOKEN to %s', async (_label, authorization) => {
    const res = await t.request({ method: 'GET', url: '/api/users', headers: authorization === undefined ? {} : { authorization } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'ERR_INVALID_TOKEN' });
  });

  it('refuses a refresh token used as an access token', async () => {
    const session = await t.login(ADMIN.email, ADMIN.password);
    const res = await whoAmI(session.cookie.replace(/^jrt=/, ''), adminId);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'ERR_INVALID_TOKEN' });
  });

  it('refuses the token and the refresh cookie of a deleted user with 401', async () => {
    const { user, password } = await t.createUser();
    const session = await t.login(user.email, password);
    expect((await t.request({ method: 'DELETE', url: `/api/users/${user.id}`, token: t.adminToken })).statusCode).toBe(204);

    const res = await t.request({ method: 'GET', url: '/api/quickAnswers', token: session.token });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'ERR_INVALID_TOKEN' });
    expect((await refresh(session.cookie.replace(/^jrt=/, ''))).statusCode).toBe(401);
  });
});

describe('refresh cookie lifetime', () => {
  it('lasts exactly as long as the refresh token inside it', async () => {
    const res = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: ADMIN.email, password: ADMIN.password } });
    const cookie = res.cookies.find((c) => c.name === 'jrt');
    // REFRESH_TOKEN_TTL defaults to 7 days.
    expect(cookie?.maxAge).toBeGreaterThan(7 * 24 * 3600 - 10);
    expect(cookie?.maxAge).toBeLessThanOrEqual(7 * 24 * 3600);
  });
});

describe('passwords are taken as typed', () => {
  it('says Required for an empty password, and logs in with the spaces a password was created with', async () => {
    const empty = await t.request({ method: 'POST', url: '/api/auth/signup', payload: { name: 'Spacey', email: 'spacey@test.local', password: '' } });
    expect(empty.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { password: 'REQUIRED' } });
    const created = await t.request({ method: 'POST', url: '/api/auth/signup', payload: { name: 'Spacey', email: 'spacey@test.local', password: ' pass word ' } });
    expect(created.statusCode).toBe(201);
    expect((await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: 'spacey@test.local', password: ' pass word ' } })).statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: 'spacey@test.local', password: 'pass word' } })).statusCode).toBe(401);
  });
});
