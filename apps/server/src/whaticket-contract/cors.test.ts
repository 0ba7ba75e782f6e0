/**
 * A whaticket frontend served from another origin (FRONTEND_URL): CORS with credentials for
 * exactly that origin, on the API (preflights included) and in the socket's options; no CORS
 * header for any other origin, nor without FRONTEND_URL. Runs on SQLite, and on PostgreSQL when
 * TEST_DATABASE_URL is set.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { Server } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config.js';
import { socketCors } from '../core/http/cors.js';
import { ADMIN, createTestApp, type TestApp } from '../test/harness.js';

const FRONT = 'http://desk.example.test:3000';
const OTHER = 'http://evil.example.test';

let t: TestApp;
let plain: TestApp;
beforeAll(async () => {
  // Written as an admin would, with a trailing slash and capitals: the origin is what counts.
  t = await createTestApp({ FRONTEND_URL: 'http://Desk.Example.test:3000/' });
  plain = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  await plain?.close();
});

function corsHeaders(res: LightMyRequestResponse): Record<string, unknown> {
  return Object.fromEntries(Object.entries(res.headers).filter(([name]) => name.startsWith('access-control-')));
}

function preflight(app: TestApp, origin: string, method: string, url: string, headers = 'authorization,content-type') {
  return app.request({ method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers } });
}

describe('CORS for FRONTEND_URL', () => {
  it.each([
    ['GET', '/api/users/', 'authorization'],
    ['PUT', '/api/users/1', 'authorization,content-type'],
    ['DELETE', '/api/whatsappsession/1', 'authorization'],
    // A reply with files: multipart/form-data is a simple content type, the bearer token is not.
    ['POST', '/api/messages/1', 'authorization'],
    ['POST', '/api/auth/refresh_token', 'content-type'],
  ])('answers the allowed origin’s preflight for %s %s with credentials', async (method, url, headers) => {
    const res = await preflight(t, FRONT, method, url, headers);
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(FRONT);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(String(res.headers['access-control-allow-methods']).split(', ')).toContain(method);
    const allowed = String(res.headers['access-control-allow-headers']).toLowerCase().split(', ');
    for (const header of headers.split(',')) expect(allowed).toContain(header);
    expect(res.headers['access-control-max-age']).toBe('600');
    expect(res.headers.vary).toContain('Origin');
  });

  it('gives another origin’s preflight no CORS header (the route table’s usual 404)', async () => {
    const res = await preflight(t, OTHER, 'GET', '/api/users/');
    expect(res.statusCode).toBe(404);
    expect(corsHeaders(res)).toEqual({});
    // A look-alike of the allowed origin is another origin.
    for (const origin of [`${FRONT}.evil.test`, 'https://desk.example.test:3000', 'http://desk.example.test', 'null']) {
      expect(corsHeaders(await preflight(t, origin, 'GET', '/api/users/'))).toEqual({});
    }
  });

  it('signs in, refreshes and reads from the allowed origin with credentials; errors carry the headers too', async () => {
    const login = await t.request({ method: 'POST', url: '/api/auth/login', headers: { origin: FRONT }, payload: ADMIN });
    expect(login.statusCode).toBe(200);
    expect(login.headers['access-control-allow-origin']).toBe(FRONT);
    expect(login.headers['access-control-allow-credentials']).toBe('true');
    const cookie = login.cookies.find((c) => c.name === 'jrt');
    expect(cookie?.value).toBeTruthy();

    const refreshed = await t.request({ method: 'POST', url: '/api/auth/refresh_token', headers: { origin: FRONT, cookie: `jrt=${cookie?.value ?? ''}` } });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.headers['access-control-allow-origin']).toBe(FRONT);
    const { token } = refreshed.json<{ token: string }>();

    const list = await t.request({ method: 'GET', url: '/api/users/', token, headers: { origin: FRONT } });
    expect(list.statusCode).toBe(200);
    expect(list.headers['access-control-allow-origin']).toBe(FRONT);
    expect(list.headers['access-control-allow-credentials']).toBe('true');

    // whaticket reads the error code of a refused call: the browser must let it see the body.
    const refused = await t.request({ method: 'POST', url: '/api/auth/refresh_token', headers: { origin: FRONT } });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ error: 'ERR_INVALID_TOKEN' });
    expect(refused.headers['access-control-allow-origin']).toBe(FRONT);
    expect(refused.headers['access-control-allow-credentials']).toBe('true');
  });

  it('gives another origin, and a same-origin call (no Origin header), no CORS header', async () => {
    const other = await t.request({ method: 'GET', url: '/api/users/', token: t.adminToken, headers: { origin: OTHER } });
    expect(other.statusCode).toBe(200);
    expect(corsHeaders(other)).toEqual({});
    const login = await t.request({ method: 'POST', url: '/api/auth/login', headers: { origin: OTHER }, payload: ADMIN });
    expect(corsHeaders(login)).toEqual({});

    const sameOrigin = await t.request({ method: 'GET', url: '/api/users/', token: t.adminToken });
    expect(sameOrigin.statusCode).toBe(200);
    expect(corsHeaders(sameOrigin)).toEqual({});
  });

  it('lets the frontend load media and files by address (Cross-Origin-Resource-Policy cross-origin), same-origin only without FRONTEND_URL', async () => {
    for (const url of ['/api/health', '/no-such-file.png']) {
      expect((await t.request({ method: 'GET', url })).headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect((await plain.request({ method: 'GET', url })).headers['cross-origin-resource-policy']).toBe('same-origin');
    }
  });

  it('adds nothing without FRONTEND_URL, whatever the origin', async () => {
    expect(corsHeaders(await preflight(plain, FRONT, 'GET', '/api/users/'))).toEqual({});
    const res = await plain.request({ method: 'GET', url: '/api/users/', token: plain.adminToken, headers: { origin: FRONT } });
    expect(res.statusCode).toBe(200);
    expect(corsHeaders(res)).toEqual({});
    expect(res.headers.vary ?? '').not.toContain('Origin');
  });

  it('gives the socket server the same one origin', async () => {
    const options = socketCors(t.ctx.config.frontendOrigin);
    expect(options).toMatchObject({ credentials: true });
    const decide = (origin: string | undefined) => new Promise<boolean | undefined>((resolve, reject) => options?.origin(origin, (error, allow) => (error ? reject(error) : resolve(allow))));
    expect(await decide(FRONT)).toBe(true);
    expect(await decide(OTHER)).toBe(false);
    expect(await decide(undefined)).toBe(false);
    expect(socketCors(plain.ctx.config.frontendOrigin)).toBeUndefined();
  });

  it('makes a real socket.io server answer the allowed origin’s polling handshake with credentials, and another origin nothing', async () => {
    const cors = socketCors(FRONT);
    const httpServer = http.createServer();
    const io = new Server(httpServer, { path: '/socket.io', serveClient: false, ...(cors ? { cors } : {}) });
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = httpServer.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}/socket.io/?EIO=4&transport=polling`;
      const allowed = await fetch(url, { headers: { origin: FRONT } });
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(FRONT);
      expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
      const preflight = await fetch(url, { method: 'OPTIONS', headers: { origin: FRONT, 'access-control-request-method': 'POST' } });
      expect(preflight.headers.get('access-control-allow-origin')).toBe(FRONT);
      const other = await fetch(url, { headers: { origin: OTHER } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      expect(other.headers.get('access-control-allow-credentials')).toBeNull();
    } finally {
      await io.close();
    }
  });

  it('reads FRONTEND_URL as one origin and refuses anything else at start-up', () => {
    expect(loadConfig({ FRONTEND_URL: 'https://Desk.Example.com/' }).frontendOrigin).toBe('https://desk.example.com');
    expect(loadConfig({ FRONTEND_URL: 'http://localhost:3000' }).frontendOrigin).toBe('http://localhost:3000');
    expect(loadConfig({ FRONTEND_URL: '' }).frontendOrigin).toBeUndefined();
    expect(loadConfig({}).frontendOrigin).toBeUndefined();
    for (const bad of ['desk.example.com', 'ftp://desk.example.com', 'https://desk.example.com/app', 'https://desk.example.com/?x=1', 'https://user:pw@desk.example.com', '*']) {
      expect(() => loadConfig({ FRONTEND_URL: bad })).toThrow(/FRONTEND_URL/);
    }
  });
});
