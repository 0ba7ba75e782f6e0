/**
 * Session handling against a server whose access tokens live 3 seconds: an expired token is
 * refreshed once and the call retried, a password change keeps this browser signed in, and a
 * revoked session sends the tab to /login.
 */
import type { Browser, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, login, newContext, pageErrors, recordTrail, screenshot } from './browser';
import { ADMIN, startServer, type RunningServer } from './server';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ env: { ACCESS_TOKEN_TTL: '3s' } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('session', () => {
  it('refreshes an expired access token once and retries the call', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await login(page);
    await page.goto('/queues');
    await page.getByTestId('queues-page').waitFor();

    const statuses: string[] = [];
    const record = (response: Response) => {
      const url = new URL(response.url());
      if (url.pathname.startsWith('/api/')) statuses.push(`${response.request().method()} ${url.pathname} ${response.status()}`);
    };
    page.on('response', record);

    await sleep(4000);
    await page.getByTestId('add-queue').click();
    await page.getByTestId('queue-name').fill('After expiry');
    await page.getByTestId('queue-submit').click();
    await page.getByTestId('queue-row').filter({ hasText: 'After expiry' }).waitFor();

    expect(statuses).toContain('POST /api/queue 403');
    expect(statuses).toContain('POST /api/auth/refresh_token 200');
    expect(statuses).toContain('POST /api/queue 201');
    expect(new URL(page.url()).pathname).toBe('/queues');
    page.off('response', record);
    await context.close();
  });

  it('keeps the browser signed in after changing its own password, and other tabs of a revoked session go to /login', async () => {
    const session = await fetch(`${server.baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    const { token } = (await session.json()) as { token: string };
    const created = await fetch(`${server.baseUrl}/api/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'Pat Password', email: 'pat@e2e.test', password: 'first-pass', profile: 'user' }),
    });
    expect(created.status).toBe(201);

    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    const trail = recordTrail(page);
    await login(page, { email: 'pat@e2e.test', password: 'first-pass' });
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('user-menu-profile').click();
    await page.getByTestId('user-password').fill('second-pass');
    // Without the current password, or with a wrong one, nothing changes and the session stays.
    await page.getByTestId('user-submit').click();
    await page.getByText('Required').first().waitFor();
    await page.getByTestId('user-current-password').fill('not-my-pass');
    await page.getByTestId('user-submit').click();
    await page.getByText('The current password is not right').waitFor();
    await screenshot(page, 'session-50-current-password-wrong');
    expect(new URL(page.url()).pathname).not.toBe('/login');
    await page.getByTestId('user-current-password').fill('first-pass');
    await page.getByTestId('user-submit').click();
    await page.locator('.Toastify__toast', { hasText: 'User saved successfully!' }).waitFor();

    // Still signed in: the list loads with the new token.
    await page.getByTestId('menu-contacts').click();
    await page.getByTestId('empty-state').waitFor();
    expect(new URL(page.url()).pathname).toBe('/contacts');

    // Another browser logs in with the new password; its logout ends every session of the user,
    // and this tab follows to /login once its socket is dropped.
    const other = await newContext(browser, server.baseUrl);
    const otherPage = await other.newPage();
    await login(otherPage, { email: 'pat@e2e.test', password: 'second-pass' });
    await otherPage.getByTestId('user-menu-button').click();
    await otherPage.getByTestId('user-menu-logout').click();
    await otherPage.waitForURL('**/login');
    await page.waitForURL('**/login').catch((error: unknown) => {
      throw trail.explain(error);
    });

    await other.close();
    await context.close();
  });

  it('ends the session on the server when signing out after the access token expired', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await login(page);
    await page.getByTestId('user-menu-button').click();
    // The tab was left open past its access token's life (3 s here, 15 minutes by default).
    await sleep(4000);
    await page.getByTestId('user-menu-logout').click();
    await page.waitForURL('**/login');
    // The browser's refresh cookie no longer opens a session: the server ended it, not only the tab.
    expect((await context.request.post('/api/auth/refresh_token')).status()).toBe(401);
    await context.close();
  });

  it('rejects wrong credentials with the translated error', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByTestId('login-email').fill(ADMIN.email);
    await page.getByTestId('login-password').fill('wrong-password');
    await page.getByTestId('login-submit').click();
    await page.locator('.Toastify__toast', { hasText: 'Authentication error. Please try again.' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  it('asks a user whose password is below the policy to change it, and tells of failed attempts since the last sign-in', async () => {
    // A first admin whose password (6 characters) dates from before the policy.
    const old = await startServer({ env: { ADMIN_PASSWORD: 'admin1' } });
    try {
      for (let i = 0; i < 2; i += 1) {
        const wrong = await fetch(`${old.baseUrl}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: ADMIN.email, password: 'not-it' }),
        });
        expect(wrong.status).toBe(401);
      }
      const context = await newContext(browser, old.baseUrl, { locale: 'pt-BR' });
      const page = await context.newPage();
      await login(page, { email: ADMIN.email, password: 'admin1' });
      const dialog = page.getByTestId('password-change-dialog');
      await dialog.getByText('Sua senha não segue mais as regras de segurança').waitFor();
      await screenshot(page, 'session-60-password-change-dialog');
      await page.getByTestId('password-change-later').click();
      await page.getByTestId('password-change-banner').getByText('Sua senha precisa ser trocada').waitFor();
      await page.getByTestId('failed-attempts-notice').getByText('Houve 2 tentativas de entrar na sua conta com a senha errada desde o seu último acesso').waitFor();
      await screenshot(page, 'session-61-password-banner-and-failed-attempts');

      await page.getByTestId('password-change-banner').getByTestId('sign-in-notice-change').click();
      await page.getByTestId('user-password').fill('senha123');
      await page.getByTestId('user-current-password').fill('admin1');
      await page.getByTestId('user-submit').click();
      await page.getByText('Muito comum: escolha outra').waitFor();
      await screenshot(page, 'session-62-password-too-common');
      await page.getByTestId('user-password').fill('uma-senha-nova-e-longa');
      await page.getByTestId('user-submit').click();
      await page.getByTestId('user-modal').waitFor({ state: 'detached' });
      await page.getByTestId('password-change-banner').waitFor({ state: 'detached' });
      expect(await page.getByTestId('password-change-dialog').count()).toBe(0);
      await context.close();
    } finally {
      await old.stop();
    }
  });

  it('raised no uncaught error in any page', () => {
    expect(pageErrors).toEqual([]);
  });
});
