/**
 * Guessing the API token: wrong tokens from one address are refused with 429 after a few a minute,
 * while the integration that holds the right token, from its own address, carries on. Only
 * failures count: a busy integration never throttles itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_FAILURES_PER_MINUTE } from './tool-auth.js';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let apiToken = '';

beforeAll(async () => {
  t = await createTestApp();
  const settings = (await t.request({ method: 'GET', url: '/api/settings', token: t.adminToken })).json<{ key: string; value: string }[]>();
  apiToken = settings.find((s) => s.key === 'userApiToken')?.value ?? '';
  expect(apiToken).not.toBe('');
});

afterAll(async () => {
  await t.close();
});

function contacts(token: string, remoteAddress: string) {
  return t.request({ method: 'GET', url: '/api/contactsZDG', headers: { authorization: `Bearer ${token}` }, remoteAddress });
}

describe('wrong API tokens', () => {
  it('are refused with 429 past the limit from one address; the right token from another address still works', async () => {
    const guesser = '198.51.100.20';
    const statuses: number[] = [];
    for (let i = 0; i < API_TOKEN_FAILURES_PER_MINUTE + 5; i += 1) statuses.push((await contacts(`guess-${i}`, guesser)).statusCode);
    expect(statuses.slice(0, API_TOKEN_FAILURES_PER_MINUTE)).toEqual(Array.from({ length: API_TOKEN_FAILURES_PER_MINUTE }, () => 401));
    expect(statuses.slice(API_TOKEN_FAILURES_PER_MINUTE)).toEqual([429, 429, 429, 429, 429]);
    const refused = await contacts('one-more-guess', guesser);
    expect(refused.json()).toMatchObject({ error: 'ERR_TOO_MANY_REQUESTS' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // A token in the body is a guess like any other.
    const inBody = await t.request({ method: 'POST', url: '/api/zdg', payload: { token: 'body-guess', number: '5511999990000', message: 'x' }, remoteAddress: guesser });
    expect(inBody.statusCode).toBe(429);

    // The integration, from its own address, is not locked out.
    expect((await contacts(apiToken, '203.0.113.30')).statusCode).toBe(200);
  });

  it('count failures only: right tokens never use up the allowance', async () => {
    const integration = '203.0.113.31';
    for (let i = 0; i < API_TOKEN_FAILURES_PER_MINUTE + 5; i += 1) expect((await contacts(apiToken, integration)).statusCode).toBe(200);
    // Its own typo now and then is still answered as a wrong token, not as a throttle.
    expect((await contacts(`${apiToken}x`, integration)).statusCode).toBe(401);
    expect((await contacts(apiToken, integration)).statusCode).toBe(200);
  });

  it('an expired session is not a guess; a forged one is', async () => {
    const address = '198.51.100.21';
    const { access } = await t.expiredTokens((await t.login('admin@test.local', 'admin-pass')).user.id);
    for (let i = 0; i < API_TOKEN_FAILURES_PER_MINUTE + 2; i += 1) expect((await contacts(access, address)).statusCode).toBe(403);
    expect((await contacts(`${access}x`, address)).statusCode).toBe(401);
  });
});
