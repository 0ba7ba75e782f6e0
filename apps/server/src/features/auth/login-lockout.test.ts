/**
 * Nobody can keep an account locked: wrong passwords from an attacker's addresses slow those
 * addresses down, while the owner, from an address or a browser that signed in before, still
 * gets in with the right password, and is then told about the failed attempts.
 */
import { describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, type TestApp } from '../../test/harness.js';

const LIMIT = 3;

function attempt(t: TestApp, options: { remoteAddress: string; password?: string; email?: string; cookie?: string }) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: options.remoteAddress,
    headers: options.cookie ? { cookie: options.cookie } : {},
    payload: { email: options.email ?? ADMIN.email, password: options.password ?? 'wrong-password' },
  });
}

async function statusesOf(t: TestApp, count: number, options: { remoteAddress: string; email?: string }): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) statuses.push((await attempt(t, options)).statusCode);
  return statuses;
}

describe('an account under attack', () => {
  it('lets the owner in from the address of their last sign-in, and tells them what happened', async () => {
    const t = await createTestApp({ LOGIN_RATE_LIMIT: String(LIMIT) });
    try {
      const owner = '203.0.113.10';
      expect((await attempt(t, { remoteAddress: owner, password: ADMIN.password })).statusCode).toBe(200);
      // The attacker's address is slowed down…
      expect(await statusesOf(t, LIMIT + 2, { remoteAddress: '198.51.100.66' })).toEqual([401, 401, 401, 429, 429]);
      // …and so is any new address while the account is being sprayed.
      expect((await attempt(t, { remoteAddress: '198.51.100.67' })).statusCode).toBe(429);
      expect((await attempt(t, { remoteAddress: '198.51.100.68', password: ADMIN.password })).statusCode).toBe(429);

      const signedIn = await attempt(t, { remoteAddress: owner, password: ADMIN.password });
      expect(signedIn.statusCode).toBe(200);
      const { failedAttempts } = signedIn.json<{ failedAttempts?: { count: number; lastAt: string; lastAddress: string } }>();
      expect(failedAttempts).toMatchObject({ count: LIMIT, lastAddress: '198.51.100.66' });
      expect(Date.now() - Date.parse(failedAttempts?.lastAt ?? '')).toBeLessThan(60_000);
      // Told once: the next sign-in has nothing to tell.
      expect((await attempt(t, { remoteAddress: owner, password: ADMIN.password })).json()).not.toHaveProperty('failedAttempts');
    } finally {
      await t.close();
    }
  });

  it('lets the owner in from a browser that signed in before, from any address', async () => {
    const t = await createTestApp({ LOGIN_RATE_LIMIT: String(LIMIT) });
    try {
      const first = await attempt(t, { remoteAddress: '203.0.113.20', password: ADMIN.password });
      const device = first.cookies.find((c) => c.name === 'jdv');
      expect(device?.httpOnly).toBe(true);
      const cookie = `jdv=${device?.value ?? ''}`;
      // Attempts from many addresses, one each.
      for (let i = 1; i <= LIMIT + 1; i += 1) await attempt(t, { remoteAddress: `198.51.100.${100 + i}` });
      expect((await attempt(t, { remoteAddress: '198.51.100.120', password: ADMIN.password })).statusCode).toBe(429);
      // The owner's browser, now on another network (a phone's, a hotel's).
      expect((await attempt(t, { remoteAddress: '192.0.2.44', password: ADMIN.password, cookie })).statusCode).toBe(200);
      // A marker made up or of another account is no marker.
      expect((await attempt(t, { remoteAddress: '192.0.2.45', password: ADMIN.password, cookie: `jdv=1.${'A'.repeat(43)}` })).statusCode).toBe(429);
    } finally {
      await t.close();
    }
  });

  it("counts failures only: a whole office signing in from one address is never refused, and a sign-in resets the address's count", async () => {
    const t = await createTestApp({ LOGIN_RATE_LIMIT: String(LIMIT) });
    try {
      const office = '203.0.113.50';
      const users = await Promise.all(Array.from({ length: LIMIT + 2 }, (_, i) => t.createUser({ email: `agent${i}@office.test`, password: `office-pass-${i}` })));
      for (const [i, { user }] of users.entries()) expect((await attempt(t, { remoteAddress: office, email: user.email, password: `office-pass-${i}` })).statusCode).toBe(200);
      // A typo or two, then the right password: the count starts again.
      const email = users[0]?.user.email ?? '';
      expect(await statusesOf(t, LIMIT - 1, { remoteAddress: office, email })).toEqual([401, 401]);
      expect((await attempt(t, { remoteAddress: office, email, password: 'office-pass-0' })).statusCode).toBe(200);
      expect(await statusesOf(t, LIMIT - 1, { remoteAddress: office, email })).toEqual([401, 401]);
    } finally {
      await t.close();
    }
  });
});
