import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenService } from './tokens.js';

const service = () => new TokenService({ accessSecret: 'a'.repeat(48), refreshSecret: 'r'.repeat(48), accessTtl: '15m', refreshTtl: '7d' });

describe('access tokens', () => {
  afterEach(() => vi.useRealTimers());

  it('verify their signature, kind and claims; a token checked before still expires on time', async () => {
    const tokens = service();
    const token = await tokens.signAccess({ userId: 7, tokenVersion: 2, family: 'f1' });
    expect(await tokens.verifyAccess(token)).toMatchObject({ ok: true, claims: { userId: 7, tokenVersion: 2, family: 'f1' } });
    // Remembered after the first check: the same answer again...
    expect(await tokens.verifyAccess(token)).toMatchObject({ ok: true, claims: { userId: 7 } });
    // ...until its expiry, which the remembered answer does not outlive.
    vi.useFakeTimers({ now: Date.now() + 16 * 60_000, toFake: ['Date'] });
    expect(await tokens.verifyAccess(token)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuse a changed token, a refresh token, and a token signed with another secret', async () => {
    const tokens = service();
    const token = await tokens.signAccess({ userId: 7, tokenVersion: 2 });
    await tokens.verifyAccess(token);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: '1' })).toString('base64url')}.${signature}`;
    expect(await tokens.verifyAccess(forged)).toEqual({ ok: false, reason: 'invalid' });
    expect(await tokens.verifyAccess(await tokens.signRefresh({ userId: 7, tokenVersion: 2 }))).toEqual({ ok: false, reason: 'invalid' });
    const other = new TokenService({ accessSecret: 'b'.repeat(48), refreshSecret: 'r'.repeat(48), accessTtl: '15m', refreshTtl: '7d' });
    expect(await other.verifyAccess(token)).toEqual({ ok: false, reason: 'invalid' });
  });
});
