/** Chromium from the system (no browser download is possible here), driven by playwright-core. */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ADMIN } from './server';

export const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

/** fakeMedia: a fake microphone and camera that need no permission prompt, for recording tests. */
export function launchBrowser(options: { fakeMedia?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...(options.fakeMedia ? ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'] : []),
    ],
  });
}

/** Uncaught exceptions and Content-Security-Policy violations in any page; the tests assert there were none. */
export const pageErrors: string[] = [];

export async function newContext(browser: Browser, baseURL: string, options: { locale?: string; mobile?: boolean } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL,
    locale: options.locale ?? 'en-US',
    viewport: options.mobile ? { width: 390, height: 844 } : { width: 1366, height: 820 },
    deviceScaleFactor: 1,
  });
  context.setDefaultTimeout(15_000);
  context.on('page', (page) => {
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
    // The server's policy allows what the app needs; anything it blocks is a defect.
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) pageErrors.push(`${page.url()}: ${message.text()}`);
    });
  });
  return context;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  // Let toasts and transitions settle so the picture shows the screen, not an animation frame.
  await page.waitForTimeout(350);
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

export async function login(page: Page, credentials: { email: string; password: string } = ADMIN): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('login-email').fill(credentials.email);
  await page.getByTestId('login-password').fill(credentials.password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('app-bar').waitFor();
}

/** Opens an MUI select found by its test id and picks the option with the given text. */
export async function pickOption(page: Page, selectTestId: string, optionText: string): Promise<void> {
  await page.getByTestId(selectTestId).getByRole('combobox').click();
  await page.getByRole('option', { name: optionText, exact: true }).click();
}
