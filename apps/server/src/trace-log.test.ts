/**
 * Nothing secret in the log at trace level, over a whole day's flow: the real server (a child
 * process, as operators run it) at LOG_LEVEL=trace signs in with a password, refreshes its
 * cookie, turns two-factor sign-in on and signs in with a code, creates an API token and sends
 * a message and a mail with it, stores SMTP and Vonage credentials, regenerates the integration
 * token, receives a message on a simulator connection, and registers an outgoing webhook with its
 * own secret (the call carrying a signature header), pings it and gets a new secret. Every line on stdout is one JSON object, request lines
 * carry their reqId, and no secret appears in any line, as is, in base64 or URL-encoded.
 */
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from './test/harness.js';
import { startServer, waitFor, type Server } from './test/server-process.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ADMIN = { email: 'trace@test.local', password: 'Trace-Admin-Pass-4471' };
const SMTP = { user: 'smtp-user-trace', pass: 'Smtp-Pass-Trace-8812' };
const VONAGE = { apiSecret: 'VonageSecretTrace93', signatureSecret: 'VonageSignatureTrace-5521' };
const WEBHOOK = { secret: 'whsec-Trace-Webhook-7710', signature: 'sha256=f00dfeedTraceSignature4410' };

type Answer<T> = { status: number; body: T; headers: Headers };

async function api<T = unknown>(server: Server, method: string, url: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer<T>> {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T, headers: res.headers };
}

function cookieOf(answer: Answer<unknown>): string {
  return /jrt=([^;]+)/.exec(answer.headers.get('set-cookie') ?? '')?.[1] ?? '';
}

function codeOf(secret: string, step = 0): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + step * 30_000 });
}

/** Each secret as it is, and as it would look base64-, base64url- or URL-encoded. */
function forms(value: string): string[] {
  const bytes = Buffer.from(value);
  return [...new Set([value, bytes.toString('base64').replace(/=+$/, ''), bytes.toString('base64url'), encodeURIComponent(value)])];
}

describe('the log at trace level, over a whole flow', () => {
  it('is one JSON object per line, with reqId on request lines, and holds none of the secrets handled', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-trace-'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const pgDb = process.env.TEST_DB === 'postgres' ? await createPostgresDatabase() : undefined;
    if (pgDb) cleanups.push(pgDb.drop);

    // An SMTP server that wants SMTP's user and password, and keeps the mails.
    const mails: string[] = [];
    const smtp = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      onAuth: (auth, _session, callback) => (auth.username === SMTP.user && auth.password === SMTP.pass ? callback(null, { user: auth.username }) : callback(new Error('bad credentials'))),
      onData: (stream, _session, callback) => {
        let text = '';
        stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
        stream.on('end', () => {
          mails.push(text);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => smtp.close(() => resolve())));
    // A webhook receiver: keeps the events it was sent.
    const received: string[] = [];
    const receiver = http.createServer((req, res) => {
      received.push(String(req.headers['x-zapdesk-event']));
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

    const server = await startServer(
      {
        LOG_LEVEL: 'trace',
        DATA_DIR: dataDir,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        WEB_DIST: path.join(dataDir, 'no-web'),
        SIMULATOR: 'on',
        LOGIN_RATE_LIMIT: '1000',
        ALLOW_PRIVATE_WEBHOOK_URLS: 'on',
        ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
      },
      cleanups,
    );
    const secrets: Record<string, string> = { adminPassword: ADMIN.password, smtpPass: SMTP.pass, ...VONAGE, ...WEBHOOK };

    // Sign-in with the password, and a refresh with the cookie.
    const login = await api<{ token: string }>(server, 'POST', '/api/auth/login', { body: ADMIN });
    expect(login.status).toBe(200);
    secrets.loginToken = login.body.token;
    secrets.loginCookie = cookieOf(login);
    const refreshed = await api<{ token: string }>(server, 'POST', '/api/auth/refresh_token', { headers: { cookie: `jrt=${secrets.loginCookie}` } });
    expect(refreshed.status).toBe(200);
    secrets.refreshedToken = refreshed.body.token;
    secrets.refreshedCookie = cookieOf(refreshed);

    // Two-factor sign-in: the pending secret, the code that turns it on, the recovery codes; a sign-in with a code.
    const setup = await api<{ secret: string; otpauthUrl: string }>(server, 'POST', '/api/auth/2fa/setup', { token: secrets.refreshedToken });
    expect(setup.status).toBe(200);
    secrets.totpSecret = setup.body.secret;
    secrets.otpauthUrl = setup.body.otpauthUrl;
    const enableCode = codeOf(setup.body.secret);
    const enabled = await api<{ recoveryCodes: string[] }>(server, 'POST', '/api/auth/2fa/enable', { token: secrets.refreshedToken, body: { code: enableCode } });
    expect(enabled.status).toBe(200);
    enabled.body.recoveryCodes.forEach((code, i) => (secrets[`recoveryCode${i}`] = code));
    const challenged = await api<{ challenge: string }>(server, 'POST', '/api/auth/login', { body: ADMIN });
    expect(challenged.body.challenge).toBeTruthy();
    secrets.challenge = challenged.body.challenge;
    const loginCode = codeOf(setup.body.secret, 1);
    const second = await api<{ token: string }>(server, 'POST', '/api/auth/login/2fa', { body: { challenge: secrets.challenge, code: loginCode } });
    expect(second.status).toBe(200);
    const token = second.body.token;
    secrets.twoFactorToken = token;
    secrets.twoFactorCookie = cookieOf(second);

    // Settings with credentials: SMTP's password, Vonage's secrets and private key; the integration token regenerated.
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const settings: Record<string, string> = {
      emailHost: '127.0.0.1',
      emailPort: String((smtp.server.address() as AddressInfo).port),
      emailSecurity: 'none',
      emailUser: SMTP.user,
      emailPass: SMTP.pass,
      emailFrom: 'zapdesk@loja.example',
      emailTo: 'equipe@loja.example',
      vonageApiKey: 'vonagekey1',
      vonageApiSecret: VONAGE.apiSecret,
      vonageSignatureSecret: VONAGE.signatureSecret,
      vonagePrivateKey: privateKey,
    };
    for (const [key, value] of Object.entries(settings)) {
      expect((await api(server, 'PUT', `/api/settings/${key}`, { token, body: { value } })).status, key).toBe(200);
    }
    // The key's body: a line of it would be enough to leak it.
    secrets.vonagePrivateKeyLine = privateKey.split('\n')[3] ?? privateKey;
    const regenerated = await api<{ value: string }>(server, 'POST', '/api/settings/userApiToken/regenerate', { token });
    expect(regenerated.status).toBe(200);
    secrets.userApiToken = regenerated.body.value;

    // A named API token, created and used: a message out through the simulator, a mail through SMTP with its password.
    const connection = await api<{ id: number }>(server, 'POST', '/api/whatsapp', { token, body: { name: 'Trace phone', channel: 'simulator', isDefault: true } });
    expect(connection.status).toBe(201);
    expect((await api(server, 'POST', `/api/simulator/${connection.body.id}/scan`, { token })).status).toBe(200);
    const created = await api<{ token: string }>(server, 'POST', '/api/api-tokens', { token, body: { name: 'Trace integration', permissions: ['campaigns', 'email'] } });
    expect(created.status).toBe(201);
    secrets.apiToken = created.body.token;
    const sent = await api(server, 'POST', '/api/messages/send', { token: secrets.apiToken, body: { number: '5511987650001', body: 'Olá do log' } });
    expect(sent.status).toBe(200);
    const mailed = await api(server, 'POST', '/api/zdgSendEmail', { body: { zdgSubject: 'Relatório', zdgText: 'texto', token: secrets.apiToken } });
    expect(mailed.status).toBe(202);
    await waitFor(
      async () => mails.length,
      (count) => count > 0,
    );
    expect(mails[0]).toContain('Subject:');
    const outbox = await waitFor(
      async () => (await api<{ body: string }[]>(server, 'GET', `/api/simulator/${connection.body.id}/outbox`, { token })).body,
      (items) => items.some((item) => item.body === 'Olá do log'),
    );
    expect(outbox.some((item) => item.body === 'Olá do log')).toBe(true);

    // A message in; a webhook-style call with a signature header and a secret field; a request with the id of its caller.
    expect((await api(server, 'POST', `/api/simulator/${connection.body.id}/inbound`, { token, body: { from: '5511987650002', name: 'Cliente Trace', body: 'oi do cliente' } })).status).toBe(200);
    const hook = await api<{ id: number; secret: string }>(server, 'POST', '/api/webhooks', {
      token,
      headers: { 'x-zapdesk-signature': WEBHOOK.signature, 'x-request-id': 'trace-flow-0001' },
      body: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['ticket.created', 'message.created'], secret: WEBHOOK.secret },
    });
    expect(hook.status).toBe(201);
    expect(hook.body.secret).toBe(WEBHOOK.secret);
    expect((await api(server, 'POST', `/api/webhooks/${hook.body.id}/ping`, { token })).status).toBe(201);
    await waitFor(
      async () => received,
      (events) => events.includes('ping'),
    );
    const rotated = await api<{ secret: string }>(server, 'POST', `/api/webhooks/${hook.body.id}/secret`, { token });
    expect(rotated.status).toBe(200);
    secrets.rotatedWebhookSecret = rotated.body.secret;

    // Everything above was logged (each request's last line, and the mail's and message's work) before reading it.
    const lines = await waitFor(
      async () =>
        server
          .stdout()
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => JSON.parse(line) as { level: number; msg?: string; reqId?: string; req?: { url?: string } }),
      (parsed) => parsed.some((line) => line.reqId === 'trace-flow-0001' && line.msg === 'request completed') && parsed.some((line) => line.msg === 'inbound messages stored'),
    );
    expect(lines.length).toBeGreaterThan(50);
    for (const line of lines) {
      expect(typeof line.level).toBe('number');
      if (line.msg === 'incoming request' || line.msg === 'request completed') expect(line.reqId, JSON.stringify(line)).toBeTruthy();
    }
    // The lines trace and debug add are there: this is the log at its fullest.
    expect(lines.some((line) => line.level === 10 && line.msg === 'domain event')).toBe(true);
    for (const msg of ['connection status', 'message sent', 'inbound messages stored', 'mail sent'])
      expect(
        lines.some((line) => line.msg === msg),
        msg,
      ).toBe(true);

    // The human banner is on stderr, not among the JSON lines (ADMIN_PASSWORD given: no password shown there either).
    expect(server.stdout()).not.toContain('ZapDesk is running at');
    const everything = server.output();
    expect(everything).toContain('ZapDesk is running at');
    for (const [name, value] of Object.entries(secrets)) {
      expect(value.length, name).toBeGreaterThan(5);
      for (const form of forms(value)) expect(everything.includes(form), `${name} (${form}) in the log`).toBe(false);
    }
    // A JWT's signature alone, and the two-factor codes as JSON values.
    for (const jwt of [secrets.loginToken, secrets.refreshedToken, token]) expect(everything).not.toContain(jwt?.split('.')[2] ?? 'x');
    for (const code of [enableCode, loginCode]) expect(everything).not.toContain(`"${code}"`);
  }, 180_000);
});
