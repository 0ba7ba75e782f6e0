import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TUser } from '@zapdesk/shared/schemas';
import { TWO_FACTOR } from '@zapdesk/shared/two-factor';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
/** Each test starts here: early in a 30 s step, with fresh users of its own. */
let start: number;
beforeAll(async () => {
  t = await createTestApp();
  // The clock is the app's and the authenticator's alike: frozen, and moved one 30 s step at a
  // time, so each new code is the next step's and no test waits for real time.
  vi.useFakeTimers({ toFake: ['Date'] });
  start = Math.ceil(Date.now() / 30_000) * 30_000 + 1_000;
});
afterAll(async () => {
  vi.useRealTimers();
  await t.close();
});
beforeEach(() => {
  vi.setSystemTime(start);
});

function nextStep(): void {
  vi.setSystemTime(Date.now() + TWO_FACTOR.periodSeconds * 1000);
}

/** The code an authenticator app shows now for the secret, computed by a real TOTP library. */
function codeOf(secret: string, stepOffset = 0): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + stepOffset * TWO_FACTOR.periodSeconds * 1000 });
}

function refreshCookie(res: LightMyRequestResponse) {
  return res.cookies.find((c) => c.name === 'jrt');
}

async function passwordStep(email: string, password: string) {
  return t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
}

async function codeStep(challenge: string, code: string) {
  return t.request({ method: 'POST', url: '/api/auth/login/2fa', payload: { challenge, code } });
}

async function familyOf(userId: number) {
  return t.ctx.db.selectFrom('refreshFamilies').select(['id', 'secondFactor', 'revokedAt']).where('userId', '=', userId).orderBy('createdAt', 'desc').execute();
}

/** A new user who has set up TOTP from their profile: the secret, their session and recovery codes. */
async function enrolledUser(options: { profile?: 'admin' | 'user' } = {}) {
  const created = await t.createUser(options);
  const setup = await t.request({ method: 'POST', url: '/api/auth/2fa/setup', token: created.token });
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json<{ secret: string }>();
  const enabled = await t.request({ method: 'POST', url: '/api/auth/2fa/enable', token: created.token, payload: { code: codeOf(secret) } });
  expect(enabled.statusCode).toBe(200);
  nextStep();
  return { ...created, secret, recoveryCodes: enabled.json<{ recoveryCodes: string[] }>().recoveryCodes };
}

async function challengeFor(user: { user: TUser; password: string }): Promise<string> {
  const res = await passwordStep(user.user.email, user.password);
  expect(res.statusCode).toBe(200);
  return res.json<{ challenge: string }>().challenge;
}

describe('setting up TOTP from the profile', () => {
  it('gives a secret and its otpauth link, turns on with a code of it, and returns 10 recovery codes once', async () => {
    const { user, token } = await t.createUser();
    const setup = await t.request({ method: 'POST', url: '/api/auth/2fa/setup', token });
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl } = setup.json<{ secret: string; otpauthUrl: string }>();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const link = new URL(otpauthUrl);
    expect(link.protocol).toBe('otpauth:');
    expect(link.searchParams.get('secret')).toBe(secret);
    expect(link.searchParams.get('issuer')).toBe('ZapDesk');
    expect(decodeURIComponent(link.pathname)).toContain(user.email);

    // Pending: sign-in still takes the password alone until a code confirms the secret.
    expect((await passwordStep(user.email, 'secret-pass')).json()).toHaveProperty('token');
    expect((await t.request({ method: 'GET', url: '/api/auth/2fa', token })).json()).toEqual({ enabled: false, required: false, recoveryCodesLeft: 0 });

    const wrong = await t.request({ method: 'POST', url: '/api/auth/2fa/enable', token, payload: { code: codeOf(secret, 3) } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ error: 'ERR_TWO_FACTOR_CODE_INVALID' });

    const enabled = await t.request({ method: 'POST', url: '/api/auth/2fa/enable', token, payload: { code: codeOf(secret) } });
    expect(enabled.statusCode).toBe(200);
    const { recoveryCodes } = enabled.json<{ recoveryCodes: string[] }>();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    expect((await t.request({ method: 'GET', url: '/api/auth/2fa', token })).json()).toEqual({ enabled: true, required: false, recoveryCodesLeft: 10 });
    expect((await t.request({ method: 'GET', url: `/api/users/${user.id}`, token: t.adminToken })).json()).toMatchObject({ twoFactorEnabled: true });
    const again = await t.request({ method: 'POST', url: '/api/auth/2fa/setup', token });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'ERR_TWO_FACTOR_ALREADY_ENABLED' });
  });

  it('keeps the secret sealed at rest and the recovery codes only as hashes', async () => {
    const { user, secret, recoveryCodes } = await enrolledUser();
    const row = await t.ctx.db.selectFrom('users').select('totpSecret').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.totpSecret).toMatch(/^enc:v1:/);
    expect(row.totpSecret).not.toContain(secret);
    const stored = await t.ctx.db.selectFrom('recoveryCodes').select('codeHash').where('userId', '=', user.id).execute();
    expect(stored).toHaveLength(10);
    for (const { codeHash } of stored) expect(recoveryCodes.map((c) => c.replace('-', ''))).not.toContain(codeHash);
  });

  it('refuses enabling without a set-up first', async () => {
    const { token } = await t.createUser();
    const res = await t.request({ method: 'POST', url: '/api/auth/2fa/enable', token, payload: { code: '123456' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_TWO_FACTOR_NOT_SET_UP' });
  });

  it('ends the other sign-ins of the user, and this one carries on marked as having passed the second factor', async () => {
    const created = await t.createUser();
    const other = await t.login(created.user.email, created.password);
    const { secret } = (await t.request({ method: 'POST', url: '/api/auth/2fa/setup', token: created.token })).json<{ secret: string }>();
    expect((await t.request({ method: 'POST', url: '/api/auth/2fa/enable', token: created.token, payload: { code: codeOf(secret) } })).statusCode).toBe(200);

    expect((await t.request({ method: 'GET', url: `/api/users/${created.user.id}`, token: created.token })).statusCode).toBe(200);
    const ended = await t.request({ method: 'GET', url: `/api/users/${created.user.id}`, token: other.token });
    expect(ended.json()).toMatchObject({ error: 'ERR_SESSION_EXPIRED' });
    const families = await familyOf(created.user.id);
    expect(families.filter((f) => f.revokedAt === null).map((f) => f.secondFactor)).toEqual([1]);
  });
});

describe('signing in with TOTP on', () => {
  it('answers the password with a challenge and no session; the challenge and a code give the session', async () => {
    const enrolled = await enrolledUser();
    const first = await passwordStep(enrolled.user.email, enrolled.password);
    expect(first.statusCode).toBe(200);
    const body = first.json<{ twoFactorRequired: boolean; challenge: string }>();
    expect(body).toEqual({ twoFactorRequired: true, challenge: expect.any(String) });
    expect(refreshCookie(first)).toBeUndefined();
    // The challenge opens nothing by itself.
    expect((await t.request({ method: 'GET', url: `/api/users/${enrolled.user.id}`, token: body.challenge })).statusCode).toBe(401);

    const second = await codeStep(body.challenge, codeOf(enrolled.secret));
    expect(second.statusCode).toBe(200);
    const session = second.json<{ token: string; user: TUser }>();
    expect(session.user).toMatchObject({ id: enrolled.user.id, twoFactorEnabled: true });
    expect(refreshCookie(second)).toMatchObject({ httpOnly: true, path: '/api/auth' });
    expect((await t.request({ method: 'GET', url: `/api/users/${enrolled.user.id}`, token: session.token })).statusCode).toBe(200);

    // The sign-in's family records that the second factor was passed, and keeps it through refreshes.
    const [newest] = await familyOf(enrolled.user.id);
    expect(newest).toMatchObject({ secondFactor: 1, revokedAt: null });
    const refreshed = await t.request({ method: 'POST', url: '/api/auth/refresh_token', cookies: { jrt: refreshCookie(second)?.value ?? '' } });
    expect(refreshed.statusCode).toBe(200);
    expect(
      (
        await t.ctx.db
          .selectFrom('refreshFamilies')
          .select('secondFactor')
          .where('id', '=', newest?.id ?? '')
          .executeTakeFirstOrThrow()
      ).secondFactor,
    ).toBe(1);

    // A spent challenge does not start a second sign-in.
    nextStep();
    const reused = await codeStep(body.challenge, codeOf(enrolled.secret));
    expect(reused.json()).toMatchObject({ error: 'ERR_TWO_FACTOR_CHALLENGE_EXPIRED' });
  });

  it('accepts the codes of the step before and after, and refuses a wrong one with 401 ERR_TWO_FACTOR_CODE_INVALID', async () => {
    const enrolled = await enrolledUser();
    nextStep();
    const wrong = await codeStep(await challengeFor(enrolled), codeOf(enrolled.secret, 2));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ error: 'ERR_TWO_FACTOR_CODE_INVALID' });
    expect(refreshCookie(wrong)).toBeUndefined();
    expect((await codeStep(await challengeFor(enrolled), codeOf(enrolled.secret, -1))).statusCode).toBe(200);
    expect((await codeStep(await challengeFor(enrolled), codeOf(enrolled.secret, 1))).statusCode).toBe(200);
  });

  it('refuses a code used before, even within its 30 seconds, with ERR_TWO_FACTOR_CODE_USED', async () => {
    const enrolled = await enrolledUser();
    const code = codeOf(enrolled.secret);
    expect((await codeStep(await challengeFor(enrolled), code)).statusCode).toBe(200);
    const replay = await codeStep(await challengeFor(enrolled), code);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ error: 'ERR_TWO_FACTOR_CODE_USED' });
    // An older code than the last one accepted is refused alike.
    expect((await codeStep(await challengeFor(enrolled), codeOf(enrolled.secret, -1))).json()).toMatchObject({ error: 'ERR_TWO_FACTOR_CODE_USED' });
  });

  it('takes two racing requests with the same code once', async () => {
    const enrolled = await enrolledUser();
    const [a, b] = [await challengeFor(enrolled), await challengeFor(enrolled)];
    const code = codeOf(enrolled.secret);
    const answers = await Promise.all([codeStep(a, code), codeStep(b, code)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('accepts each recovery code once, in any case and without its dash', async () => {
    const enrolled = await enrolledUser();
    const [code = ''] = enrolled.recoveryCodes;
    const used = await codeStep(await challengeFor(enrolled), code.toUpperCase().replace('-', ''));
    expect(used.statusCode).toBe(200);
    expect((await familyOf(enrolled.user.id))[0]).toMatchObject({ secondFactor: 1 });
    const again = await codeStep(await challengeFor(enrolled), code);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ error: 'ERR_TWO_FACTOR_CODE_INVALID' });
    const status = await t.request({ method: 'GET', url: '/api/auth/2fa', token: used.json<{ token: string }>().token });
    expect(status.json()).toMatchObject({ enabled: true, recoveryCodesLeft: 9 });
  });

  it('gives a challenge 5 attempts; then it is dead, even for the right code', async () => {
    const enrolled = await enrolledUser();
    const challenge = await challengeFor(enrolled);
    for (let i = 0; i < TWO_FACTOR.challengeAttempts; i += 1) {
      expect((await codeStep(challenge, '000000' === codeOf(enrolled.secret) ? '111111' : '000000')).json()).toMatchObject({ error: 'ERR_TWO_FACTOR_CODE_INVALID' });
    }
    const late = await codeStep(challenge, codeOf(enrolled.secret));
    expect(late.statusCode).toBe(401);
    expect(late.json()).toMatchObject({ error: 'ERR_TWO_FACTOR_CHALLENGE_EXPIRED' });
    // The password gives a new one.
    expect((await codeStep(await challengeFor(enrolled), codeOf(enrolled.secret))).statusCode).toBe(200);
  });

  it('lets a challenge expire after 5 minutes', async () => {
    const enrolled = await enrolledUser();
    const challenge = await challengeFor(enrolled);
    vi.setSystemTime(Date.now() + TWO_FACTOR.challengeSeconds * 1000 + 1000);
    const late = await codeStep(challenge, codeOf(enrolled.secret));
    expect(late.statusCode).toBe(401);
    expect(late.json()).toMatchObject({ error: 'ERR_TWO_FACTOR_CHALLENGE_EXPIRED' });
  });

  it('voids a challenge when the user signs out everywhere before the code comes', async () => {
    const enrolled = await enrolledUser();
    const challenge = await challengeFor(enrolled);
    expect((await t.request({ method: 'DELETE', url: '/api/auth/logout', token: enrolled.token })).statusCode).toBe(204);
    expect((await codeStep(challenge, codeOf(enrolled.secret))).json()).toMatchObject({ error: 'ERR_TWO_FACTOR_CHALLENGE_EXPIRED' });
  });

  it('refuses a malformed request with 400 ERR_VALIDATION and an unknown challenge with ERR_TWO_FACTOR_CHALLENGE_EXPIRED', async () => {
    const missing = await t.request({ method: 'POST', url: '/api/auth/login/2fa', payload: { challenge: 'x' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    const unknown = await codeStep('not-a-challenge', '123456');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ error: 'ERR_TWO_FACTOR_CHALLENGE_EXPIRED' });
  });
});

describe('recovery codes, turning off, and the admin reset', () => {
  it('makes new recovery codes for a code; the old ones stop working', async () => {
    const enrolled = await enrolledUser();
    const wrong = await t.request({ method: 'POST', url: '/api/auth/2fa/recovery-codes', token: enrolled.token, payload: { code: codeOf(enrolled.secret, 3) } });
    expect(wrong.json()).toMatchObject({ error: 'ERR_TWO_FACTOR_CODE_INVALID' });
    const res = await t.request({ method: 'POST', url: '/api/auth/2fa/recovery-codes', token: enrolled.token, payload: { code: codeOf(enrolled.secret) } });
    expect(res.statusCode).toBe(200);
    const fresh = res.json<{ recoveryCodes: string[] }>().recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect((await codeStep(await challengeFor(enrolled), enrolled.recoveryCodes[0] ?? '')).json()).toMatchObject({ error: 'ERR_TWO_FACTOR_CODE_INVALID' });
    expect((await codeStep(await challengeFor(enrolled), fresh[0] ?? '')).statusCode).toBe(200);
  });

  it('turns off with the password and a code; the other sign-ins end, this one carries on', async () => {
    const enrolled = await enrolledUser();
    const otherSession = (await codeStep(await challengeFor(enrolled), codeOf(enrolled.secret))).json<{ token: string }>();
    nextStep();
    const badPassword = await t.request({ method: 'POST', url: '/api/auth/2fa/disable', token: enrolled.token, payload: { password: 'wrong-pass', code: codeOf(enrolled.secret) } });
    expect(badPassword.statusCode).toBe(401);
    expect(badPassword.json()).toMatchObject({ error: 'ERR_INVALID_CREDENTIALS' });
    const badCode = await t.request({ method: 'POST', url: '/api/auth/2fa/disable', token: enrolled.token, payload: { password: enrolled.password, code: '12345x' } });
    expect(badCode.json()).toMatchObject({ error: 'ERR_TWO_FACTOR_CODE_INVALID' });

    const off = await t.request({ method: 'POST', url: '/api/auth/2fa/disable', token: enrolled.token, payload: { password: enrolled.password, code: codeOf(enrolled.secret) } });
    expect(off.statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: `/api/users/${enrolled.user.id}`, token: enrolled.token })).json()).toMatchObject({ twoFactorEnabled: false });
    expect((await t.request({ method: 'GET', url: `/api/users/${enrolled.user.id}`, token: otherSession.token })).json()).toMatchObject({ error: 'ERR_SESSION_EXPIRED' });
    expect((await passwordStep(enrolled.user.email, enrolled.password)).json()).toHaveProperty('token');
    const twice = await t.request({ method: 'POST', url: '/api/auth/2fa/disable', token: enrolled.token, payload: { password: enrolled.password, code: '123456' } });
    expect(twice.json()).toMatchObject({ error: 'ERR_TWO_FACTOR_NOT_ENABLED' });
  });

  it("lets an admin turn off another user's (a lost phone): their sign-ins end and the password alone signs in", async () => {
    const enrolled = await enrolledUser();
    const res = await t.request({ method: 'DELETE', url: `/api/users/${enrolled.user.id}/2fa`, token: t.adminToken });
    expect(res.statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: `/api/users/${enrolled.user.id}`, token: enrolled.token })).json()).toMatchObject({ error: 'ERR_SESSION_EXPIRED' });
    expect((await passwordStep(enrolled.user.email, enrolled.password)).json()).toMatchObject({ token: expect.any(String), user: { twoFactorEnabled: false } });
    expect(await t.ctx.db.selectFrom('recoveryCodes').select('codeHash').where('userId', '=', enrolled.user.id).execute()).toEqual([]);
  });

  it("refuses the admin reset on one's own account and for an unknown user", async () => {
    const admin = await enrolledUser({ profile: 'admin' });
    const self = await t.request({ method: 'DELETE', url: `/api/users/${admin.user.id}/2fa`, token: admin.token });
    expect(self.statusCode).toBe(403);
    expect(self.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    const unknown = await t.request({ method: 'DELETE', url: '/api/users/999999/2fa', token: t.adminToken });
    expect(unknown.json()).toMatchObject({ error: 'ERR_NO_USER_FOUND' });
  });
});

describe('when two-factor sign-in is required', () => {
  // TWO_FACTOR_REQUIRED is read from the environment at start; the rule is asked at each sign-in.
  beforeEach(() => {
    t.ctx.config.twoFactorRequired = 'admins';
  });
  afterAll(() => {
    t.ctx.config.twoFactorRequired = 'off';
  });

  it('walks a user who has not set it up through the set-up before the session starts', async () => {
    t.ctx.config.twoFactorRequired = 'off';
    const admin = await t.createUser({ profile: 'admin' });
    const plain = await t.createUser();
    t.ctx.config.twoFactorRequired = 'admins';
    // A plain user is not concerned.
    expect((await passwordStep(plain.user.email, plain.password)).json()).toHaveProperty('token');

    const first = await passwordStep(admin.user.email, admin.password);
    expect(first.json()).toEqual({ twoFactorSetupRequired: true, challenge: expect.any(String) });
    expect(refreshCookie(first)).toBeUndefined();
    const { challenge } = first.json<{ challenge: string }>();
    // A set-up challenge is not a code challenge.
    expect((await codeStep(challenge, '123456')).json()).toMatchObject({ error: 'ERR_TWO_FACTOR_CHALLENGE_EXPIRED' });

    const setup = await t.request({ method: 'POST', url: '/api/auth/login/2fa/setup', payload: { challenge } });
    expect(setup.statusCode).toBe(200);
    const { secret } = setup.json<{ secret: string }>();
    const wrong = await t.request({ method: 'POST', url: '/api/auth/login/2fa/enable', payload: { challenge, code: codeOf(secret, 2) } });
    expect(wrong.json()).toMatchObject({ error: 'ERR_TWO_FACTOR_CODE_INVALID' });
    const enabled = await t.request({ method: 'POST', url: '/api/auth/login/2fa/enable', payload: { challenge, code: codeOf(secret) } });
    expect(enabled.statusCode).toBe(200);
    const session = enabled.json<{ token: string; user: TUser; recoveryCodes: string[] }>();
    expect(session).toMatchObject({ token: expect.any(String), user: { id: admin.user.id, twoFactorEnabled: true } });
    expect(session.recoveryCodes).toHaveLength(10);
    expect(refreshCookie(enabled)).toBeDefined();
    // The sign-in it had from before the rule ended with the set-up, as turning it on ends every other one.
    expect((await familyOf(admin.user.id)).filter((f) => f.revokedAt === null)).toMatchObject([{ secondFactor: 1 }]);

    // It may not be turned off while required; from now on the password asks for a code.
    nextStep();
    const off = await t.request({ method: 'POST', url: '/api/auth/2fa/disable', token: session.token, payload: { password: admin.password, code: codeOf(secret) } });
    expect(off.statusCode).toBe(403);
    expect(off.json()).toMatchObject({ error: 'ERR_TWO_FACTOR_REQUIRED' });
    expect((await passwordStep(admin.user.email, admin.password)).json()).toMatchObject({ twoFactorRequired: true });
    expect((await t.request({ method: 'GET', url: '/api/auth/2fa', token: session.token })).json()).toMatchObject({ enabled: true, required: true });
    // The spent set-up challenge does nothing more.
    expect((await t.request({ method: 'POST', url: '/api/auth/login/2fa/setup', payload: { challenge } })).json()).toMatchObject({ error: 'ERR_TWO_FACTOR_CHALLENGE_EXPIRED' });
  });
});

describe('a role that requires two-factor sign-in', () => {
  it("walks its users through the set-up at their next sign-in; other roles' users and the built-in role are not concerned", async () => {
    t.ctx.config.twoFactorRequired = 'off';
    const role = await t.request({ method: 'POST', url: '/api/roles', token: t.adminToken, payload: { name: `Financeiro ${Date.now()}`, permissions: ['campaigns'], twoFactorRequired: true } });
    expect(role.statusCode).toBe(201);
    const member = await t.createUser();
    const other = await t.createUser();
    const given = await t.request({
      method: 'PUT',
      url: `/api/users/${member.user.id}`,
      token: t.adminToken,
      payload: { name: member.user.name, email: member.user.email, roleId: role.json<{ id: number }>().id },
    });
    expect(given.statusCode).toBe(200);
    expect((await passwordStep(other.user.email, other.password)).json()).toHaveProperty('token');
    const first = await passwordStep(member.user.email, member.password);
    expect(first.json()).toEqual({ twoFactorSetupRequired: true, challenge: expect.any(String) });
    expect(refreshCookie(first)).toBeUndefined();
    // The role no longer asks for it: the password alone signs in again.
    const relaxed = await t.request({
      method: 'PUT',
      url: `/api/roles/${role.json<{ id: number }>().id}`,
      token: t.adminToken,
      payload: { name: role.json<{ name: string }>().name, permissions: ['campaigns'], twoFactorRequired: false },
    });
    expect(relaxed.statusCode).toBe(200);
    expect((await passwordStep(member.user.email, member.password)).json()).toHaveProperty('token');
  });
});
