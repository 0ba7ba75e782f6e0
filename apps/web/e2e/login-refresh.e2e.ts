/**
 * The login page and the refresh contract in a real browser. A browser where nobody is signed in
 * (fresh, or after signing out) does not ask for a refresh, so the login page has no console
 * error, warning or failed request; a signed-in browser survives a reload through the refresh
 * cookie; without a valid cookie the refresh answers 401 (whaticket's frontend goes to its login
 * page on it). Then a whaticket-like frontend on another origin (FRONTEND_URL) signs in,
 * refreshes and reads with credentials, and a third origin is refused by the browser.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, pageErrors, screenshot } from './browser';
import { ADMIN, startServer, type RunningServer } from './server';

/** A page of another origin: an empty document that scripts can fetch from. */
function startOtherOrigin(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>another origin</title><p>frontend</p>');
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

let server: RunningServer;
let browser: Browser;
let front: { url: string; close: () => Promise<void> };
let stranger: { url: string; close: () => Promise<void> };

beforeAll(async () => {
  [front, stranger] = await Promise.all([startOtherOrigin(), startOtherOrigin()]);
  server = await startServer({ env: { FRONTEND_URL: front.url } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await front?.close();
  await stranger?.close();
});

/** Everything a page reports that a person would call a defect: console errors and warnings, failed requests, 4xx/5xx answers. */
function watch(page: Page) {
  const problems: string[] = [];
  const refreshes: number[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('requestfailed', (request) => problems.push(`failed: ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ''}`));
  page.on('response', (response) => {
    if (response.url().endsWith('/api/auth/refresh_token')) refreshes.push(response.status());
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  return { problems, refreshes };
}

async function signIn(page: Page): Promise<void> {
  await page.getByTestId('login-email').fill(ADMIN.email);
  await page.getByTestId('login-password').fill(ADMIN.password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('app-bar').waitFor();
  await dashboardShown(page);
}

/** The first screen (the dashboard) drawn, its lazy chunk loaded and its figures read: a reload now aborts nothing. */
async function dashboardShown(page: Page): Promise<void> {
  await page.getByTestId('dashboard-today-total').waitFor();
  await page.waitForLoadState('networkidle');
}

describe('our login page and the refresh contract', () => {
  it('opens fresh and after a sign-out with nothing in the console; a reload keeps the sign-in; without a cookie the refresh answers 401', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    const seen = watch(page);

    // Fresh: no token stored, so no refresh is asked.
    await page.goto('/login');
    await page.getByTestId('login-page').waitFor();
    await page.waitForTimeout(500);
    expect(seen.refreshes).toEqual([]);
    expect(seen.problems).toEqual([]);
    await screenshot(page, 'login-refresh-01-fresh');

    // Signed in, a reload restores the session through the refresh cookie.
    await signIn(page);
    await page.reload();
    await dashboardShown(page);
    expect(seen.refreshes).toEqual([200]);
    expect(new URL(page.url()).pathname).not.toBe('/login');

    // Signed out: back on the login page, and a reload there asks nothing either.
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('user-menu-logout').click();
    await page.getByTestId('login-page').waitFor();
    // The login page's own reads end first: a reload would abort them, which is not a fault.
    await page.waitForLoadState('networkidle');
    await page.reload();
    await page.getByTestId('login-page').waitFor();
    await page.waitForTimeout(500);
    expect(seen.refreshes).toEqual([200]);
    expect(seen.problems).toEqual([]);
    await screenshot(page, 'login-refresh-02-after-sign-out');

    // The contract itself, from this browser: the cookie is gone, so 401 with the code.
    const refused = await page.request.post('/api/auth/refresh_token');
    expect(refused.status()).toBe(401);
    expect(await refused.json()).toMatchObject({ error: 'ERR_INVALID_TOKEN' });
    // Signed in again, the refresh answers the session.
    await signIn(page);
    const renewed = await page.request.post('/api/auth/refresh_token');
    expect(renewed.status()).toBe(200);
    expect(await renewed.json()).toMatchObject({ token: expect.any(String), user: { email: ADMIN.email } });
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

describe('a frontend on another origin (FRONTEND_URL)', () => {
  it('signs in, refreshes with the cookie and reads with the token; another origin cannot read', async () => {
    const context = await newContext(browser, front.url);
    const page = await context.newPage();
    await page.goto('/');
    const api = `${server.baseUrl}/api`;
    // As whaticket's axios does: JSON with credentials (a preflight), then the bearer token.
    const result = await page.evaluate(
      async ({ api, credentials }) => {
        const login = await fetch(`${api}/auth/login`, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) });
        const refresh = await fetch(`${api}/auth/refresh_token`, { method: 'POST', credentials: 'include' });
        const { token } = (await refresh.json()) as { token: string };
        const users = await fetch(`${api}/users/?searchParam=&pageNumber=1`, { credentials: 'include', headers: { authorization: `Bearer ${token}` } });
        const body = (await users.json()) as { users: unknown[]; hasMore: boolean };
        return { login: login.status, refresh: refresh.status, users: users.status, count: body.users.length, hasMore: body.hasMore };
      },
      { api, credentials: ADMIN },
    );
    expect(result).toEqual({ login: 200, refresh: 200, users: 200, count: 1, hasMore: false });
    // Media are shown by address, without CORS (as whaticket's chat shows images): the resource policy lets the frontend load them
    // (two ports of one IP address, whaticket's usual set-up, are not the same site for Chromium's resource policy).
    const loaded = await page.evaluate(
      (src) =>
        new Promise<boolean>((resolve) => {
          const image = new Image();
          image.onload = () => resolve(true);
          image.onerror = () => resolve(false);
          image.src = src;
        }),
      `${server.baseUrl}/favicon.svg`,
    );
    expect(loaded).toBe(true);

    const other = await context.newPage();
    await other.goto(stranger.url);
    const refused = await other.evaluate(async (api) => {
      try {
        await fetch(`${api}/users/`, { credentials: 'include' });
        return 'read';
      } catch (error) {
        return error instanceof TypeError ? 'blocked' : 'other';
      }
    }, api);
    expect(refused).toBe('blocked');
    await context.close();
  });
});
