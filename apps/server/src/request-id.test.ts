/**
 * The request id: a well-formed X-Request-Id is kept, anything else is replaced by a UUID; the
 * answer carries it back, every line of the request carries it as `reqId`, and so does the line
 * a job writes for work the request woke (here the mail sender, woken by the `email.queued`
 * event of a tool API call, reporting the SMTP server's refusal). Every line is one JSON object.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, waitFor, type TestApp } from './test/harness.js';
import { collectLog, LEVEL, type LogLine } from './test/log-lines.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let t: TestApp;
let smtp: SMTPServer;
let smtpPort = 0;
const log = collectLog();

beforeAll(async () => {
  // Every recipient is refused for now (451): the mail sender retries, and says so at warn.
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo: (_address, _session, callback) => callback(Object.assign(new Error('try again later'), { responseCode: 451 })),
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  t = await createTestApp({ LOG_LEVEL: 'debug', MAIL_RETRY_SECONDS: '60' }, { logDestination: log.destination });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

function linesOf(reqId: string): LogLine[] {
  return log.lines().filter((line) => line.reqId === reqId);
}

describe('X-Request-Id', () => {
  it('is kept when well formed: the answer and every line of the request carry it', async () => {
    for (const given of ['abc-123_XYZ.9876', '0f3c2a9b8d7e6f5a4b3c2d1e0f9a8b7c', 'a'.repeat(64)]) {
      const res = await t.request({ method: 'GET', url: '/api/health', headers: { 'x-request-id': given } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-request-id']).toBe(given);
      const lines = await waitFor(
        async () => linesOf(given),
        (found) => found.some((line) => line.msg === 'request completed'),
      );
      expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
      // Per-request detail: debug.
      for (const line of lines) expect(line.level, String(line.msg)).toBe(LEVEL.debug);
    }
  });

  it('is replaced by a new UUID when missing, too short, too long or carrying other characters', async () => {
    const seen = new Set<string>();
    for (const given of [undefined, 'short', 'a'.repeat(65), 'has spaces in it', 'job:mail:1', 'new\u00e9line-id', '../../etc/passwd', '<script>alert(1)</script>']) {
      const res = await t.request({ method: 'GET', url: '/api/health', headers: given === undefined ? {} : { 'x-request-id': given } });
      const id = String(res.headers['x-request-id']);
      expect(id, String(given)).toMatch(UUID);
      expect(seen.has(id)).toBe(false);
      seen.add(id);
      await waitFor(
        async () => linesOf(id),
        (found) => found.some((line) => line.msg === 'request completed'),
      );
      if (given) expect(log.text()).not.toContain(`"reqId":"${given}"`);
    }
  });

  it('is on the lines of an error answer too', async () => {
    const res = await t.request({ method: 'GET', url: '/api/tickets', headers: { 'x-request-id': 'unauthorised-0001' } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['x-request-id']).toBe('unauthorised-0001');
    await waitFor(
      async () => linesOf('unauthorised-0001'),
      (found) => found.some((line) => line.msg === 'request completed' && (line.res as { statusCode?: number } | undefined)?.statusCode === 401),
    );
  });
});

describe('the request id in the work a request starts', () => {
  it('is on the mail sender’s line about the mail the request queued', async () => {
    for (const [key, value] of Object.entries({ emailHost: '127.0.0.1', emailPort: String(smtpPort), emailSecurity: 'none', emailFrom: 'zapdesk@loja.example', emailTo: 'equipe@loja.example' })) {
      expect((await t.request({ method: 'PUT', url: `/api/settings/${key}`, token: t.adminToken, payload: { value } })).statusCode).toBe(200);
    }
    const settings = (await t.request({ method: 'GET', url: '/api/settings', token: t.adminToken })).json<{ key: string; value: string }[]>();
    const apiToken = settings.find((s) => s.key === 'userApiToken')?.value ?? '';
    const reqId = 'mail-request-0001';
    const queued = await t.request({ method: 'POST', url: '/api/zdgSendEmail', headers: { 'x-request-id': reqId }, payload: { zdgSubject: 'Relatório', zdgText: 'texto', token: apiToken } });
    expect(queued.statusCode).toBe(202);
    const lines = await waitFor(
      async () => linesOf(reqId),
      (found) => found.some((line) => line.msg === 'mail not sent, tried again later'),
    );
    const retry = lines.find((line) => line.msg === 'mail not sent, tried again later');
    // Degraded but handled: a warning, with the mail's id and the server's answer.
    expect(retry).toMatchObject({ level: LEVEL.warn, emailId: queued.json<{ id: number }>().id, attempts: 1 });
    expect(String(retry?.error)).toContain('try again later');
    // The token the call came with is in none of the lines.
    expect(log.text()).not.toContain(apiToken);
  });

  it('every line written so far is one JSON object with a level, a time and a message or a reqId', () => {
    const lines = log.lines();
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) {
      expect(typeof line.level).toBe('number');
      expect(typeof line.time).toBe('number');
    }
  });
});
