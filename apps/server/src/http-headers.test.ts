/**
 * Security headers on every answer (through @fastify/helmet): a Content-Security-Policy the web
 * app works under, no framing, nosniff, a Referrer-Policy, HSTS over HTTPS only; media with
 * nosniff and a Content-Disposition; index.html revalidated, hashed assets immutable.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import { createTestApp, type TestApp } from './test/harness.js';

let t: TestApp;
let webDist: string;
let connectionId: number;

function directives(csp: string | undefined): Map<string, string> {
  return new Map(
    (csp ?? '')
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.split(' ')[0] ?? '', d.slice(d.indexOf(' ') + 1)]),
  );
}

beforeAll(async () => {
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-web-'));
  fs.mkdirSync(path.join(webDist, 'assets'));
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><script type="module" src="/assets/index-abc123.js"></script>');
  fs.writeFileSync(path.join(webDist, 'assets', 'index-abc123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  t = await createTestApp({ SIMULATOR: 'on', WEB_DIST: webDist, TRUST_PROXY: '1' });
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Phone', channel: 'simulator', isDefault: true } });
  connectionId = created.json<{ id: number }>().id;
  await t.request({ method: 'POST', url: `/api/simulator/${connectionId}/scan`, token: t.adminToken });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

describe('security headers', () => {
  it('sends a policy the web app works under, on the API, the pages and errors alike', async () => {
    for (const url of ['/api/health', '/', '/tickets/12', '/assets/index-abc123.js', '/api/nowhere']) {
      const res = await t.request({ method: 'GET', url });
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('script-src'), url).toBe("'self'");
      expect(csp.get('default-src'), url).toBe("'self'");
      expect(csp.get('frame-ancestors'), url).toBe("'none'");
      expect(csp.get('object-src'), url).toBe("'none'");
      expect(csp.get('connect-src'), url).toBe("'self'");
      expect(csp.get('img-src'), url).toContain("'self'");
      expect(csp.get('media-src'), url).toContain('blob:');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      // Plain HTTP: no HSTS.
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('sends a Permissions-Policy that allows the microphone (voice notes) to the app alone and turns off the rest', async () => {
    for (const request of [
      { method: 'GET' as const, url: '/api/health' },
      { method: 'GET' as const, url: '/' },
      { method: 'GET' as const, url: '/assets/index-abc123.js' },
      { method: 'GET' as const, url: '/api/nowhere' },
      { method: 'GET' as const, url: '/api/docs' },
      { method: 'POST' as const, url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{bad json' },
    ]) {
      const res = await t.request(request);
      const policy = new Map(
        (res.headers['permissions-policy']?.toString() ?? '')
          .split(',')
          .map((d) => d.trim())
          .filter(Boolean)
          .map((d) => [d.slice(0, d.indexOf('=')), d.slice(d.indexOf('=') + 1)]),
      );
      expect(policy.get('microphone'), request.url).toBe('(self)');
      for (const feature of ['camera', 'geolocation', 'payment', 'usb', 'serial', 'hid', 'midi', 'display-capture']) expect(policy.get(feature), `${request.url} ${feature}`).toBe('()');
    }
  });

  it('adds HSTS when the request came over HTTPS through the trusted proxy', async () => {
    const viaProxy = await t.app.inject({ method: 'GET', url: '/api/health', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.5' } });
    expect(viaProxy.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
  });

  it('serves index.html to be revalidated and hashed assets as immutable', async () => {
    for (const url of ['/', '/index.html', '/tickets']) {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    const asset = await t.request({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await t.request({ method: 'GET', url: '/favicon.svg' })).headers['cache-control']).toBe('public, max-age=3600');
  });

  it('serves media with nosniff, inline for pictures, sound and video, as a download otherwise', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    const files = [
      { from: '5511977770001', mimetype: 'image/png', data: png, filename: 'foto.png', disposition: /^inline; filename=".+\.png"$/ },
      { from: '5511977770002', mimetype: 'text/html', data: Buffer.from('<script>alert(1)</script>'), filename: 'pagina.html', disposition: /^attachment; filename=".+"$/ },
      { from: '5511977770003', mimetype: 'application/pdf', data: Buffer.from('%PDF-1.4'), filename: 'boleto.pdf', disposition: /^attachment; filename=".+\.pdf"$/ },
    ];
    for (const file of files) {
      const sent = await t.request({
        method: 'POST',
        url: `/api/simulator/${connectionId}/inbound`,
        token: t.adminToken,
        payload: { from: file.from, media: { base64: file.data.toString('base64'), mimetype: file.mimetype, filename: file.filename } },
      });
      expect(sent.statusCode).toBe(200);
      const ticket = (await t.request({ method: 'GET', url: `/api/tickets?showAll=true&searchParam=${file.from}`, token: t.adminToken })).json<{ tickets: TTicket[] }>().tickets[0];
      const message = (await t.request({ method: 'GET', url: `/api/messages/${ticket?.id ?? 0}`, token: t.adminToken })).json<{ messages: TMessage[] }>().messages[0];
      const served = await t.request({ method: 'GET', url: message?.mediaUrl ?? '' });
      expect(served.statusCode, file.filename).toBe(200);
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['content-disposition'], file.filename).toMatch(file.disposition);
    }
  });

  it('keeps the API docs page working under its own policy', async () => {
    const res = await t.request({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/);
    // Served over plain HTTP on a LAN, the page must not ask for HTTPS sub-resources.
    expect(res.headers['content-security-policy']).not.toMatch(/upgrade-insecure-requests/);
  });
});
