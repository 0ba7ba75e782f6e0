/**
 * Two-step verification as a person uses it, in Portuguese: set up from the profile by typing
 * the key shown on the page into an authenticator (here the otpauth library computes the codes),
 * keep the recovery codes, sign out, sign in with a code, then with a recovery code; the admin
 * sees it on in the users list.
 */
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, login, newContext, pageErrors, screenshot } from './browser';
import { ADMIN, startServer, type RunningServer } from './server';

let server: RunningServer;
let browser: Browser;
const ANA = { name: 'Ana Duas Etapas', email: 'ana@e2e.test', password: 'ana-pass-1' };

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const session = await fetch(`${server.baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  const { token } = (await session.json()) as { token: string };
  const created = await fetch(`${server.baseUrl}/api/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ ...ANA, profile: 'user' }),
  });
  expect(created.status).toBe(201);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** What the authenticator app shows `steps` periods from now. */
function codeOf(secret: string, steps = 0): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * 30_000 });
}

async function signOut(page: Page): Promise<void> {
  await page.getByTestId('user-menu-button').click();
  await page.getByTestId('user-menu-logout').click();
  await page.getByTestId('login-submit').waitFor();
}

async function passwordStep(page: Page): Promise<void> {
  await page.getByTestId('login-email').fill(ANA.email);
  await page.getByTestId('login-password').fill(ANA.password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('login-second-factor').waitFor();
}

describe('two-step verification', () => {
  it('is set up in the profile with the key on the page, then signs in with a generated code and with a recovery code', async () => {
    const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR' });
    const page = await context.newPage();
    await login(page, ANA);

    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('user-menu-profile').click();
    const section = page.getByTestId('two-factor-section');
    await section.getByText('Verificação em duas etapas').waitFor();
    await expect(section.getByTestId('two-factor-state').textContent()).resolves.toBe('Desativada');
    await section.getByTestId('two-factor-enable').click();

    const secretText = await page.getByTestId('two-factor-secret').textContent();
    const secret = (secretText ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByRole('img', { name: 'QR code para o aplicativo autenticador' }).waitFor();
    await screenshot(page, '2fa-01-setup');

    // A wrong code first: said so, nothing turned on.
    await page.getByTestId('two-factor-setup-code').fill(codeOf(secret, 5));
    await page.getByTestId('two-factor-setup-submit').click();
    await page.getByText('Código incorreto.', { exact: false }).waitFor();

    await page.getByTestId('two-factor-setup-code').fill(codeOf(secret));
    await page.getByTestId('two-factor-setup-submit').click();
    await page.getByTestId('recovery-codes').waitFor();
    const recoveryCodes = await page.getByTestId('recovery-code').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    await screenshot(page, '2fa-02-recovery-codes');
    await page.getByTestId('two-factor-dialog-close').click();
    await expect(section.getByTestId('two-factor-state').textContent()).resolves.toBe('Ativada');
    await section.getByText('Códigos de recuperação restantes: 10.', { exact: false }).waitFor();
    await screenshot(page, '2fa-03-profile-on');
    await page.getByTestId('user-cancel').click();

    // Signing in: the password, then the app's code. The set-up spent this period's code: the next one.
    await signOut(page);
    await passwordStep(page);
    await page.getByLabel('Código do aplicativo autenticador').waitFor();
    await screenshot(page, '2fa-04-login-code');
    await page.getByTestId('login-code').fill(codeOf(secret, 1));
    await page.getByTestId('login-code-submit').click();
    await page.getByTestId('app-bar').waitFor();

    // Without the phone: a recovery code, once.
    await signOut(page);
    await passwordStep(page);
    await page.getByTestId('login-use-recovery').click();
    await page.getByLabel('Código de recuperação').waitFor();
    await page.getByTestId('login-code').fill(recoveryCodes[0] ?? '');
    await screenshot(page, '2fa-05-login-recovery');
    await page.getByTestId('login-code-submit').click();
    await page.getByTestId('app-bar').waitFor();

    await signOut(page);
    await passwordStep(page);
    await page.getByTestId('login-use-recovery').click();
    await page.getByTestId('login-code').fill(recoveryCodes[0] ?? '');
    await page.getByTestId('login-code-submit').click();
    await page.getByText('Código incorreto.', { exact: false }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  it('shows the admin who has it on, in the users list', async () => {
    const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR' });
    const page = await context.newPage();
    await login(page);
    await page.goto('/users');
    const row = page.getByTestId('user-row').filter({ hasText: ANA.name });
    await expect(row.getByTestId('user-two-factor').textContent()).resolves.toBe('Ativada');
    await expect(page.getByTestId('user-row').filter({ hasText: 'Admin' }).first().getByTestId('user-two-factor').textContent()).resolves.toBe('Desativada');
    await screenshot(page, '2fa-06-users-list');
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
