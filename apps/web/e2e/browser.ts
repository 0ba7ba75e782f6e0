/** Chromium from the system (no browser download is possible here), driven by playwright-core. */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';
import { ADMIN, REPO_ROOT } from './server';

export const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

/**
 * Chromium's new headless mode is the whole browser: every context opens a window that preloads
 * the address bar's suggestion popups (two WebUI pages in a renderer of their own) and keeps a
 * spare renderer ready. No test uses either, and they were a third of a sign-in's work (6.9
 * core-seconds with them, 4.4 without, on this machine kind). A second --disable-features replaces
 * Playwright's own (chromiumSwitches in playwright-core 1.65), so its list comes first here.
 */
const DISABLED_FEATURES = [
  ...['AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades', 'HttpsFirstBalancedModeAutoEnable', 'LensOverlay', 'MediaRouter', 'PaintHolding'],
  ...['ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect', 'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch'],
  ...['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'SpareRendererForSitePerProcess'],
];

/** The browsers this file launched, whose open pages a failed test leaves as evidence (failure-evidence.ts). */
const launched = new Set<Browser>();

/** fakeMedia: a fake microphone and camera that need no permission prompt, for recording tests. */
export async function launchBrowser(options: { fakeMedia?: boolean } = {}): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--disable-features=${DISABLED_FEATURES.join(',')}`,
      ...(options.fakeMedia ? ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'] : []),
    ],
  });
  launched.add(browser);
  browser.on('disconnected', () => launched.delete(browser));
  return browser;
}

/** Uncaught exceptions and Content-Security-Policy violations in any page; the tests assert there were none. */
export const pageErrors: string[] = [];

/** `lessMotion`: the context asks for less motion (prefers-reduced-motion: reduce), as some people's systems do. */
export async function newContext(browser: Browser, baseURL: string, options: { locale?: string; mobile?: boolean; lessMotion?: boolean } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL,
    reducedMotion: options.lessMotion ? 'reduce' : 'no-preference',
    locale: options.locale ?? 'en-US',
    viewport: options.mobile ? { width: 390, height: 844 } : { width: 1366, height: 820 },
    deviceScaleFactor: 1,
  });
  context.setDefaultTimeout(15_000);
  context.on('page', (page) => {
    trailOf(page);
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

/**
 * Opens `path` signed in without the sign-in form, for the tests whose subject is not the form:
 * the context posts the password to the API (the refresh cookie lands in its jar) and the access
 * token is put where the app keeps it, as the form leaves them; the app then restores the session
 * as it does on a reload. One page load instead of the form's two and the route's own.
 */
export async function openSignedIn(page: Page, path = '/', credentials: { email: string; password: string } = ADMIN): Promise<void> {
  const answer = await page.context().request.post('/api/auth/login', { data: credentials });
  if (!answer.ok()) throw new Error(`signing in as ${credentials.email} answered ${answer.status()}: ${await answer.text()}`);
  const { token } = (await answer.json()) as { token?: string };
  if (!token) throw new Error(`signing in as ${credentials.email} asked for more than the password`);
  // localStorage belongs to the page's origin: a small same-origin document first.
  await page.goto('/api/health');
  await page.evaluate((value) => localStorage.setItem('token', value), token);
  await page.goto(path);
  await page.getByTestId('app-bar').waitFor();
}

/**
 * What a page asked the API and heard on its socket since this call, with the milliseconds since
 * the page opened, for a failure to say what the page saw (`explain` adds it to the error).
 */
export function recordTrail(page: Page): { explain: (error: unknown) => Error } {
  const trail = trailOf(page);
  const from = trail.lines.length;
  return {
    explain: (error) => new Error(`${error instanceof Error ? error.message : String(error)}\n--- what the page saw ---\n${trail.lines.slice(from).join('\n')}`),
  };
}

/** Opens an MUI select found by its test id and picks the option with the given text. */
export async function pickOption(page: Page, selectTestId: string, optionText: string): Promise<void> {
  await page.getByTestId(selectTestId).getByRole('combobox').click();
  await page.getByRole('option', { name: optionText, exact: true }).click();
}

type Trail = { lines: string[]; waiting: Map<Request, string>; started: number };
const trails = new WeakMap<Page, Trail>();

/**
 * The page's trail, recorded from its first call: its API answers, the API calls still unanswered,
 * its socket's connects and disconnects and the events it heard, and where it went.
 */
function trailOf(page: Page): Trail {
  const known = trails.get(page);
  if (known) return known;
  const trail: Trail = { lines: [], waiting: new Map(), started: Date.now() };
  trails.set(page, trail);
  const note = (line: string) => trail.lines.push(`${Date.now() - trail.started} ms ${line}`);
  const apiCall = (request: Request) => {
    const url = new URL(request.url());
    return url.pathname.startsWith('/api/') ? `${request.method()} ${url.pathname}` : null;
  };
  page.on('request', (request) => {
    const call = apiCall(request);
    if (call) trail.waiting.set(request, `${Date.now() - trail.started} ms ${call}`);
  });
  page.on('response', (response) => {
    const call = apiCall(response.request());
    if (!call) return;
    trail.waiting.delete(response.request());
    note(`${call} ${response.status()}`);
  });
  page.on('requestfailed', (request) => {
    const call = apiCall(request);
    if (!call) return;
    trail.waiting.delete(request);
    note(`${call} failed: ${request.failure()?.errorText ?? 'no answer'}`);
  });
  page.on('websocket', (socket) => {
    note('socket opened');
    socket.on('framereceived', ({ payload }) => {
      if (typeof payload !== 'string') return;
      // socket.io's connect, connect_error and disconnect packets (40, 44, 41), and the events' names.
      if (/^4[014]/.test(payload)) note(`socket heard ${payload.slice(0, 80)}`);
      const event = /^42(?:\/[^,]*,)?\d*\["([^"]+)"/.exec(payload)?.[1];
      if (event) note(`socket heard '${event}'`);
    });
    socket.on('close', () => note('socket closed'));
  });
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) note(`at ${new URL(frame.url()).pathname}`);
  });
  return trail;
}

/**
 * What every page still open shows when a test failed: a screenshot in artifacts/failed/, and its
 * address, the end of its text, the end of its trail and its unanswered API calls in the returned
 * lines. Never throws.
 */
export async function openPagesEvidence(testName: string): Promise<string[]> {
  const slug = testName.replace(/[^\p{L}\p{N}]+/gu, '-').slice(0, 80);
  const dir = path.join(ARTIFACTS, 'failed');
  mkdirSync(dir, { recursive: true });
  const lines: string[] = [];
  let n = 0;
  for (const browser of launched) {
    for (const context of browser.contexts()) {
      for (const page of context.pages()) {
        n += 1;
        const file = path.join(dir, `${slug}-${n}.png`);
        const shot = await page.screenshot({ path: file, timeout: 5_000 }).then(
          () => path.relative(REPO_ROOT, file),
          (error: unknown) => `none (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
        );
        const text = await page
          .evaluate(() => document.body?.innerText ?? '')
          .then((t) => t.replace(/\s+/g, ' ').trim().slice(-300))
          .catch(() => '(unreadable)');
        const trail = trails.get(page);
        const waiting = [...(trail?.waiting.values() ?? [])].map((call) => `  ${call}: no answer yet`);
        lines.push(`page ${n} at ${page.url()}; screenshot ${shot}`, `  text: ${text}`, ...(trail?.lines.slice(-25) ?? []).map((l) => `  ${l}`), ...waiting);
      }
    }
  }
  return lines;
}
