/**
 * Secrets never reach the log, at any level: the real server at LOG_LEVEL=trace (where the
 * multipart parser logs the request's headers) gets a sign-in, a JSON request and a multipart
 * upload carrying a bearer token, cookies, signatures, API keys and tokens in the body and the
 * address; none of them appears in what it writes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, waitFor } from './test/server-process.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SECRET = {
  adminPassword: 'Admin-Pass-Log-7731',
  cookie: 'CookieValue-Log-5519',
  hubSignature: 'sha256=HubSignature-Log-2208',
  apiKey: 'ApiKey-Log-9902',
  bodyToken: 'BodyToken-Log-4410',
  bodyPassword: 'BodyPassword-Log-6627',
  queryToken: 'QueryToken-Log-3385',
};

describe('the log at trace level', () => {
  it('holds no bearer token, cookie, signature, API key, password or token of a request', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-log-'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const server = await startServer(
      { LOG_LEVEL: 'trace', DATA_DIR: dataDir, ADMIN_EMAIL: 'log@test.local', ADMIN_PASSWORD: SECRET.adminPassword, WEB_DIST: path.join(dataDir, 'no-web'), SIMULATOR: 'on' },
      cleanups,
    );
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'log@test.local', password: SECRET.adminPassword }),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const refreshCookie = /jrt=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1] ?? '';
    expect(refreshCookie.length).toBeGreaterThan(20);
    const secretHeaders = {
      authorization: `Bearer ${token}`,
      cookie: `jrt=${refreshCookie}; other=${SECRET.cookie}`,
      'x-hub-signature-256': SECRET.hubSignature,
      'x-hub-signature': SECRET.hubSignature,
      'x-api-key': SECRET.apiKey,
    };

    const json = await fetch(`${server.url}/api/queue?token=${SECRET.queryToken}`, {
      method: 'POST',
      headers: { ...secretHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({ token: SECRET.bodyToken, password: SECRET.bodyPassword, apiKey: SECRET.apiKey }),
    });
    expect(json.status).toBe(400);

    const form = new FormData();
    form.append('body', 'a file');
    form.append('token', SECRET.bodyToken);
    form.append('medias', new Blob(['hello']), 'hello.txt');
    const upload = await fetch(`${server.url}/api/messages/999?access_token=${SECRET.queryToken}`, { method: 'POST', headers: secretHeaders, body: form });
    expect(upload.status).toBeGreaterThanOrEqual(400);

    const refreshed = await fetch(`${server.url}/api/auth/refresh_token`, { method: 'POST', headers: { cookie: `jrt=${refreshCookie}` } });
    expect(refreshed.status).toBe(200);
    const { token: newToken } = (await refreshed.json()) as { token: string };
    const newCookie = /jrt=([^;]+)/.exec(refreshed.headers.get('set-cookie') ?? '')?.[1] ?? '';

    // The requests were logged (the multipart parser's own lines too) before looking for secrets in them.
    const output = await waitFor(
      async () => server.output(),
      (text) => (text.match(/request completed/g) ?? []).length >= 4 && text.includes('Providing options to busboy'),
    );
    for (const [name, value] of Object.entries({ ...SECRET, token, refreshCookie, newToken, newCookie, tokenSignature: token.split('.')[2] ?? token })) {
      expect(output, name).not.toContain(value);
    }
    expect(output).toContain('[redacted]');
  }, 120_000);
});
