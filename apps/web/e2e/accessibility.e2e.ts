/**
 * axe-core on every screen an agent or an admin works in, in Portuguese and English, with data on
 * them (tickets waiting and open, a chat with messages both ways, a connection, a contact, a quick
 * answer, an agent, a queue). A serious or critical violation fails the run and names the element.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZTicketListSchema } from '@zapdesk/shared/messaging';
import { seriousViolations } from './axe';
import { launchBrowser, login, newContext, screenshot } from './browser';
import { startServer, type RunningServer } from './server';
import { apiAs, idOf, scanWhenReady, signIn } from './simulator';

let server: RunningServer;
let browser: Browser;
let adminToken = '';
let chatTicketId = 0;

const api = (route: string, options: { method?: string; body?: unknown } = {}) => apiAs(server.baseUrl, () => adminToken)(route, options);

async function ticketOf(from: string): Promise<number> {
  const { tickets } = ZTicketListSchema.parse(await (await api('/tickets?status=pending&showAll=true')).json());
  return tickets.find((ticket) => ticket.contact.number === from)?.id ?? 0;
}

beforeAll(async () => {
  server = await startServer({ simulator: true });
  browser = await launchBrowser();
  adminToken = (await signIn(server.baseUrl)).token;
  const queueId = await idOf(await api('/queue', { method: 'POST', body: { name: 'Vendas', color: '#1273DE', greetingMessage: '' } }));
  const connectionId = await idOf(await api('/whatsapp', { method: 'POST', body: { name: 'Loja', channel: 'simulator', queueIds: [queueId] } }));
  await scanWhenReady(api, connectionId);
  await api('/users', { method: 'POST', body: { name: 'Ana Agente', email: 'ana@e2e.test', password: 'ana-secret-1', profile: 'user', queueIds: [queueId] } });
  await api('/quickAnswers', { method: 'POST', body: { shortcut: 'preco', message: 'Nossos preços estão em loja.example' } });
  await api('/contacts', { method: 'POST', body: { name: 'Carla Contato', number: '5511966660001' } });
  for (const [from, name] of [
    ['5511966660002', 'Bruno Espera'],
    ['5511966660003', 'Diana Conversa'],
  ]) {
    await api(`/simulator/${connectionId}/inbound`, { method: 'POST', body: { from, name, body: `Olá, sou ${name}` } });
  }
  for (let tries = 0; tries < 60 && chatTicketId === 0; tries += 1) {
    chatTicketId = await ticketOf('5511966660003');
    if (chatTicketId === 0) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(chatTicketId).toBeGreaterThan(0);
  const me = (await signIn(server.baseUrl)).user.id;
  await api(`/tickets/${chatTicketId}`, { method: 'PUT', body: { status: 'open', userId: me } });
  await api(`/messages/${chatTicketId}`, { method: 'POST', body: { body: 'Bom dia, Diana! Em que posso ajudar?' } });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Each screen, and what shows once it has loaded its data. */
const SCREENS: { name: string; path: () => string; ready: (page: Page) => Promise<unknown> }[] = [
  { name: 'dashboard', path: () => '/', ready: (page) => page.getByTestId('dashboard-today-total').waitFor() },
  { name: 'tickets', path: () => '/tickets', ready: (page) => page.getByTestId('ticket-row').first().waitFor() },
  { name: 'chat', path: () => `/tickets/${chatTicketId}`, ready: (page) => page.getByTestId('message').nth(1).waitFor() },
  { name: 'connections', path: () => '/connections', ready: (page) => page.getByTestId('connection-row').first().waitFor() },
  { name: 'contacts', path: () => '/contacts', ready: (page) => page.getByTestId('contact-row').first().waitFor() },
  { name: 'quick answers', path: () => '/quickAnswers', ready: (page) => page.getByTestId('quick-answer-row').first().waitFor() },
  { name: 'Kanban', path: () => '/Kanban', ready: (page) => page.getByTestId('kanban-card').first().waitFor() },
  { name: 'users', path: () => '/users', ready: (page) => page.getByTestId('user-row').first().waitFor() },
  { name: 'queues', path: () => '/queues', ready: (page) => page.getByTestId('queue-row').first().waitFor() },
  { name: 'settings', path: () => '/settings', ready: (page) => page.getByTestId('settings-group-general').waitFor() },
];

describe.each([
  ['pt', 'pt-BR'],
  ['en', 'en-US'],
])('accessibility in %s', (language, locale) => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await newContext(browser, server.baseUrl, { locale });
    page = await context.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  afterAll(async () => {
    await context?.close();
  });

  it('login: no serious or critical violation', async () => {
    await page.goto('/login');
    await page.getByTestId('login-submit').waitFor();
    const violations = await seriousViolations(page);
    // The screens that follow are checked signed in, whatever this one found.
    await login(page);
    expect(violations, violations.join('\n')).toEqual([]);
  });

  it.each(SCREENS.map((screen) => [screen.name, screen] as const))('%s: no serious or critical violation', async (_name, screen) => {
    await page.goto(screen.path());
    await screen.ready(page);
    // Let fonts, transitions and the first live update settle: axe reads computed colours.
    await page.waitForTimeout(300);
    const violations = await seriousViolations(page);
    await screenshot(page, `a11y-${language}-${screen.name.replace(/\s+/g, '-').toLowerCase()}`);
    expect(violations, violations.join('\n')).toEqual([]);
  });
});

/** The longest transition or animation of an element, in seconds, as the browser computed it. */
function longestMotion(page: Page, selector: string): Promise<number> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const style = getComputedStyle(element);
      const seconds = (list: string) => Math.max(...list.split(',').map((part) => parseFloat(part) * (part.trim().endsWith('ms') ? 0.001 : 1)));
      return Math.max(seconds(style.transitionDuration), seconds(style.animationDuration));
    });
}

describe('less motion, when the system asks for it', () => {
  it('moves nothing but keeps the toasts on screen for their time', async () => {
    const still = await newContext(browser, server.baseUrl, { lessMotion: true });
    const moving = await newContext(browser, server.baseUrl);
    try {
      const calm = await still.newPage();
      const lively = await moving.newPage();
      for (const page of [calm, lively]) await page.goto('/login');
      // A button's hover and focus colours fade in MUI's default theme; with less motion they change at once.
      expect(await longestMotion(lively, '[data-testid="login-submit"]')).toBeGreaterThan(0.1);
      expect(await longestMotion(calm, '[data-testid="login-submit"]')).toBeLessThan(0.001);
      // The welcome toast: its timer bar still runs its full time, since its end is what closes the toast.
      await login(calm);
      const toast = calm.locator('.Toastify__toast');
      await toast.first().waitFor();
      expect(await longestMotion(calm, '.Toastify__progress-bar--animated')).toBeGreaterThanOrEqual(1);
      await calm.waitForTimeout(500);
      expect(await toast.count()).toBe(1);
      await toast.first().waitFor({ state: 'detached' });
    } finally {
      await still.close();
      await moving.close();
    }
  });
});
