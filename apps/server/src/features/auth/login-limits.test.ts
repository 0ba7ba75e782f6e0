/**
 * Login attempts behind a reverse proxy: TRUST_PROXY says which hops to believe, so a forged
 * X-Forwarded-For does not buy a client more attempts, and clients behind the proxy are counted
 * one by one; attempts at one account are also counted whatever the addresses.
 */
import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../../core/config.js';
import { ADMIN, createTestApp, type TestApp } from '../../test/harness.js';

const PROXY = '127.0.0.1';

function attempt(t: TestApp, email: string, from: { remoteAddress: string; forwardedFor?: string }, password = 'wrong-password') {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: from.remoteAddress,
    headers: from.forwardedFor ? { 'x-forwarded-for': from.forwardedFor } : {},
    payload: { email, password },
  });
}

describe('TRUST_PROXY', () => {
  it('parses off, a hop count, and lists of addresses, CIDRs and named ranges; refuses anything else', () => {
    expect(parseTrustProxy('off')).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('2')).toBe(2);
    // 'on' once meant every hop; now it is the one proxy in front.
    expect(parseTrustProxy('on')).toBe(1);
    expect(parseTrustProxy('10.0.0.1, 192.168.0.0/16,loopback, ::1, fd00::/8')).toEqual(['10.0.0.1', '192.168.0.0/16', 'loopback', '::1', 'fd00::/8']);
    for (const bad of ['proxy.example.com', '10.0.0.1/33', '10.0.0/8', 'all', '10.0.0.1/8/1']) expect(() => parseTrustProxy(bad), bad).toThrow(/TRUST_PROXY/);
  });

  for (const trustProxy of ['on', '1', PROXY]) {
    it(`with TRUST_PROXY=${trustProxy}, a forged X-Forwarded-For buys no attempts, and clients behind the proxy are counted apart`, async () => {
      const t = await createTestApp({ LOGIN_RATE_LIMIT: '3', TRUST_PROXY: trustProxy });
      try {
        // The attacker writes a new address in front each time; the proxy appends the real one.
        const statuses: number[] = [];
        for (let i = 1; i <= 4; i += 1) statuses.push((await attempt(t, `victim${i}@test.local`, { remoteAddress: PROXY, forwardedFor: `10.9.9.${i}, 203.0.113.7` })).statusCode);
        expect(statuses).toEqual([401, 401, 401, 429]);
        // Another client behind the same proxy is not locked out.
        expect((await attempt(t, ADMIN.email, { remoteAddress: PROXY, forwardedFor: '203.0.113.8' }, ADMIN.password)).statusCode).toBe(200);
      } finally {
        await t.close();
      }
    });
  }

  it('believes X-Forwarded-For only from the listed proxies', async () => {
    const t = await createTestApp({ LOGIN_RATE_LIMIT: '3', TRUST_PROXY: PROXY });
    try {
      const statuses: number[] = [];
      // Straight from the internet, with a forged header: the connection's address counts.
      for (let i = 1; i <= 4; i += 1) statuses.push((await attempt(t, `user${i}@test.local`, { remoteAddress: '198.51.100.9', forwardedFor: `10.8.8.${i}` })).statusCode);
      expect(statuses).toEqual([401, 401, 401, 429]);
    } finally {
      await t.close();
    }
  });
});

describe('login attempts per account', () => {
  it('limits attempts at one account from many addresses, and leaves other accounts alone', async () => {
    const t = await createTestApp({ LOGIN_RATE_LIMIT: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 1; i <= 4; i += 1) statuses.push((await attempt(t, 'Target@Test.local', { remoteAddress: `198.51.100.${i}` })).statusCode);
      expect(statuses).toEqual([401, 401, 401, 429]);
      // The same account, written differently, is the same account.
      const again = await attempt(t, ' target@test.local', { remoteAddress: '198.51.100.50' });
      expect(again.statusCode).toBe(429);
      expect(again.json()).toMatchObject({ error: 'ERR_TOO_MANY_REQUESTS' });
      expect((await attempt(t, ADMIN.email, { remoteAddress: '198.51.100.51' }, ADMIN.password)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
