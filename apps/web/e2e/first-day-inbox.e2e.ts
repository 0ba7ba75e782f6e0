/**
 * The first day in the inbox, in Portuguese, on a desktop (1440×900) and a phone (390×844):
 * every ticket action (accept, resolve, reopen, transfer, return) shows its result from its own
 * answer while the test holds back the live events, and the held events arriving late, twice,
 * change nothing; a waiting ticket opens read-only on a click; the Inbox opens on 'Aguardando'
 * when nobody is being served; the list line shows the customer's words, formatted, and a search
 * shows the matched words in context.
 */
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZTicketListSchema } from '@zapdesk/shared/messaging';
import { launchBrowser, newContext, pageErrors, screenshot, openSignedIn } from './browser';
import { startServer, type RunningServer } from './server';
import { apiAs, idOf, scanWhenReady, signIn } from './simulator';

let server: RunningServer;
let browser: Browser;
let adminToken = '';
let plain = 0;
let withMenu = 0;
let support = 0;

const api = (route: string, options: { method?: string; body?: unknown } = {}) => apiAs(server.baseUrl, () => adminToken)(route, options);

async function writeIn(connectionId: number, from: string, name: string, body: string): Promise<void> {
  expect((await api(`/simulator/${connectionId}/inbound`, { method: 'POST', body: { from, name, body } })).status).toBe(200);
}

async function ticketIdOf(from: string): Promise<number> {
  const { tickets } = ZTicketListSchema.parse(await (await api(`/tickets?showAll=true&searchParam=${from}`)).json());
  return tickets.find((ticket) => ticket.contact.number === from && ticket.status !== 'closed')?.id ?? 0;
}

/**
 * Holds back the live ticket events (socket.io's 'ticket' and 'appMessage' frames, which carry the
 * ticket) between the server and the page while `holding`; `release` sends what was held, in order.
 */
async function holdLiveEvents(page: Page) {
  const state = { holding: false, held: [] as string[], route: undefined as WebSocketRoute | undefined };
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    const upstream = ws.connectToServer();
    state.route = ws;
    ws.onMessage((message) => upstream.send(message));
    upstream.onMessage((message) => {
      if (state.holding && typeof message === 'string' && /^42(\/[^,]*,)?\["(ticket|appMessage)"/.test(message)) {
        state.held.push(message);
        return;
      }
      ws.send(message);
    });
  });
  return {
    state,
    hold: () => {
      state.holding = true;
    },
    release: () => {
      state.holding = false;
      for (const frame of state.held) state.route?.send(frame);
    },
  };
}

/** The held events arrive: late, in order; then all again; then the oldest ticket event once more. */
function replayLate(live: Awaited<ReturnType<typeof holdLiveEvents>>): void {
  const held = [...live.state.held];
  live.release();
  for (const frame of held) live.state.route?.send(frame);
  const oldest = held.find((frame) => frame.startsWith('42["ticket"'));
  if (oldest) live.state.route?.send(oldest);
}

async function desktopPage(): Promise<Page> {
  const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR' });
  const page = await context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  return page;
}

async function phonePage(): Promise<Page> {
  const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR', mobile: true });
  return context.newPage();
}

/** A condition waited for as long as a busy machine may need (vitest's default is one second). */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });

const chatStatus = (page: Page) => page.getByTestId('ticket-view').getAttribute('data-status');
const count = (page: Page, tab: string) => page.getByTestId(`count-${tab}`).getAttribute('data-count');

beforeAll(async () => {
  server = await startServer({ simulator: true });
  browser = await launchBrowser();
  adminToken = (await signIn(server.baseUrl)).token;
  const sales = await idOf(await api('/queue', { method: 'POST', body: { name: 'Vendas', color: '#1273DE', greetingMessage: '' } }));
  support = await idOf(await api('/queue', { method: 'POST', body: { name: 'Suporte', color: '#0B7A3E', greetingMessage: '' } }));
  plain = await idOf(await api('/whatsapp', { method: 'POST', body: { name: 'Loja', channel: 'simulator', farewellMessage: 'Obrigado pelo contato, {{name}}!' } }));
  withMenu = await idOf(
    await api('/whatsapp', {
      method: 'POST',
      body: { name: 'Atendimento', channel: 'simulator', greetingMessage: 'Olá! Escolha uma opção:', queueIds: [sales, support] },
    }),
  );
  await scanWhenReady(api, plain);
  await scanWhenReady(api, withMenu);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('every action answers at once, whatever the live events do', () => {
  it('desktop: open a waiting ticket by a click, accept, resolve, reopen, transfer and return with the events held back, then replayed twice', async () => {
    const from = '5511988880001';
    await writeIn(plain, from, 'Carla Cliente', 'Oi, preciso de ajuda com meu pedido');
    await eventually(() => ticketIdOf(from)).toBeGreaterThan(0);
    const ticketId = await ticketIdOf(from);
    const page = await desktopPage();
    const live = await holdLiveEvents(page);
    await openSignedIn(page, '/tickets');

    // Nobody is being served: the Inbox opens on 'Aguardando', where the ticket is.
    await eventually(() => page.getByTestId('tab-pending').getAttribute('aria-selected')).toBe('true');
    const row = page.getByTestId('ticket-row').filter({ hasText: 'Carla Cliente' });
    await row.waitFor();
    await screenshot(page, 'first-day-inbox-desktop-waiting-tab');

    live.hold();
    // A click opens it read-only, with Aceitar in the header.
    await row.click();
    await page.waitForURL(`**/tickets/${ticketId}`);
    expect(await chatStatus(page)).toBe('pending');
    await eventually(() => page.getByTestId('message-input').getAttribute('placeholder')).toContain('clique em Aceitar');
    expect(await page.getByTestId('ticket-view').getByTestId('ticket-accept').textContent()).toBe('Aceitar');
    await screenshot(page, 'first-day-inbox-desktop-waiting-read-only');

    await page.getByTestId('ticket-view').getByTestId('ticket-accept').click();
    await eventually(() => chatStatus(page)).toBe('open');
    await eventually(() => count(page, 'pending')).toBe('0');
    await eventually(() => count(page, 'open')).toBe('1');
    await page.getByTestId('tab-open').click();
    await page.getByTestId('ticket-row').filter({ hasText: 'Carla Cliente' }).waitFor();

    await page.getByTestId('ticket-view').getByTestId('ticket-resolve').click();
    await eventually(() => chatStatus(page)).toBe('closed');
    // The header and the input say so at once: Reabrir, no Retornar/Resolver, the resolved state.
    await page.getByTestId('ticket-view').getByTestId('ticket-reopen').waitFor();
    expect(await page.getByTestId('ticket-view').getByTestId('ticket-resolve').count()).toBe(0);
    expect(await page.getByTestId('ticket-view').getByTestId('ticket-return').count()).toBe(0);
    await eventually(() => page.getByTestId('message-input').getAttribute('placeholder')).toContain('Ticket resolvido');
    await eventually(() => count(page, 'open')).toBe('0');
    await eventually(() => page.getByTestId('ticket-row').filter({ hasText: 'Carla Cliente' }).count()).toBe(0);
    await screenshot(page, 'first-day-inbox-desktop-resolved-at-once');
    await page.getByTestId('tab-resolved').click();
    await page.getByTestId('ticket-row').filter({ hasText: 'Carla Cliente' }).waitFor();

    await page.getByTestId('ticket-view').getByTestId('ticket-reopen').click();
    await eventually(() => chatStatus(page)).toBe('open');
    await eventually(() => page.getByTestId('ticket-row').filter({ hasText: 'Carla Cliente' }).count()).toBe(0);
    await page.getByTestId('tab-inbox').click();
    await eventually(() => count(page, 'open')).toBe('1');

    // Transfer to Suporte without a user: back to the waiting list, and the chat leaves.
    await page.getByTestId('ticket-view').getByTestId('ticket-transfer').click();
    await page.getByTestId('transfer-queue').getByRole('combobox').click();
    await page.getByRole('option', { name: 'Suporte', exact: true }).click();
    await page.getByTestId('transfer-submit').click();
    await page.waitForURL((url) => url.pathname === '/tickets');
    await eventually(() => count(page, 'open')).toBe('0');
    await eventually(() => count(page, 'pending')).toBe('1');

    // Accept from the row, then return it to the queue.
    await page.getByTestId('tab-pending').click();
    await page.getByTestId('ticket-row').filter({ hasText: 'Carla Cliente' }).getByTestId('ticket-accept').click();
    await page.waitForURL(`**/tickets/${ticketId}`);
    await eventually(() => chatStatus(page)).toBe('open');
    await page.getByTestId('ticket-view').getByTestId('ticket-return').click();
    await page.waitForURL((url) => url.pathname === '/tickets');
    await eventually(() => count(page, 'pending')).toBe('1');
    await eventually(() => count(page, 'open')).toBe('0');

    // Every result above came from the actions' answers: the events were all held.
    expect(live.state.held.length).toBeGreaterThan(5);
    // Now they arrive late, twice, and then the oldest once more (the ticket 'open' after the first
    // Aceitar): none of them may roll the ticket back.
    replayLate(live);
    // A new live event after them (the socket keeps its order): once it shows, the replays were applied.
    await writeIn(plain, '5511988880002', 'Davi Depois', 'Oi!');
    await page.getByTestId('tab-pending').click();
    await page.getByTestId('ticket-row').filter({ hasText: 'Davi Depois' }).waitFor();
    expect(await page.getByTestId('ticket-row').filter({ hasText: 'Carla Cliente' }).getAttribute('data-status')).toBe('pending');
    await eventually(() => count(page, 'pending')).toBe('2');
    expect(await count(page, 'open')).toBe('0');
    await page.getByTestId('ticket-row').filter({ hasText: 'Carla Cliente' }).click();
    await eventually(() => chatStatus(page)).toBe('pending');
    expect(pageErrors).toEqual([]);
  });

  it('phone: a waiting ticket opens read-only, Aceitar then Resolver show at once with the events held, and stay after they arrive twice', async () => {
    const from = '5511988880003';
    await writeIn(plain, from, 'Elisa Celular', 'Bom dia, vocês entregam hoje?');
    await eventually(() => ticketIdOf(from)).toBeGreaterThan(0);
    const ticketId = await ticketIdOf(from);
    const page = await phonePage();
    const live = await holdLiveEvents(page);
    await openSignedIn(page, '/tickets');
    await page.getByTestId('tab-pending').click();
    live.hold();
    await page.getByTestId('ticket-row').filter({ hasText: 'Elisa Celular' }).click();
    await page.waitForURL(`**/tickets/${ticketId}`);
    await page.getByTestId('ticket-view').getByTestId('ticket-accept').waitFor();
    await screenshot(page, 'first-day-inbox-phone-waiting-read-only');
    await page.getByTestId('ticket-view').getByTestId('ticket-accept').click();
    await eventually(() => chatStatus(page)).toBe('open');
    await page.getByTestId('ticket-view').getByTestId('ticket-resolve').click();
    await eventually(() => chatStatus(page)).toBe('closed');
    await eventually(() => page.getByTestId('message-input').getAttribute('placeholder')).toContain('Ticket resolvido');
    await page.getByTestId('ticket-view').getByTestId('ticket-reopen').waitFor();
    await screenshot(page, 'first-day-inbox-phone-resolved-at-once');
    expect(live.state.held.length).toBeGreaterThan(1);
    replayLate(live);
    await writeIn(plain, '5511988880004', 'Fábio Depois', 'Olá');
    await page.getByTestId('ticket-back').click();
    await page.getByTestId('tab-pending').click();
    await page.getByTestId('ticket-row').filter({ hasText: 'Fábio Depois' }).waitFor();
    await page.getByTestId('tab-resolved').click();
    await page.getByTestId('ticket-row').filter({ hasText: 'Elisa Celular' }).waitFor();
    expect(await page.getByTestId('ticket-row').filter({ hasText: 'Elisa Celular' }).getAttribute('data-status')).toBe('closed');
    await screenshot(page, 'first-day-inbox-phone-resolved-list');
    expect(pageErrors).toEqual([]);
  });
});

describe('the list line shows the customer', () => {
  it("shows the customer's words with WhatsApp formatting, not the menu; a search shows the matched words in context", async () => {
    const from = '5511988880005';
    await writeIn(withMenu, from, 'Gabi Formatada', 'Quero *2* pizzas _grandes_ e ~uma~ coca');
    // The connection answers with its menu; the line stays the customer's.
    await eventually(() => ticketIdOf(from)).toBeGreaterThan(0);
    const longFrom = '5511988880006';
    const long = `Bom dia! ${'Estou aguardando faz tempo. '.repeat(4)}Preciso da segunda via do boleto de outubro, ${'por favor me ajudem. '.repeat(4)}`;
    await writeIn(withMenu, longFrom, 'Hugo Boleto', long);
    await eventually(() => ticketIdOf(longFrom)).toBeGreaterThan(0);

    for (const [name, page] of [
      ['desktop', await desktopPage()],
      ['phone', await phonePage()],
    ] as const) {
      await openSignedIn(page, '/tickets');
      await page.getByTestId('tab-pending').click();
      const line = page.getByTestId('ticket-row').filter({ hasText: 'Gabi Formatada' }).getByTestId('ticket-last-message');
      await line.waitFor();
      expect(await line.textContent()).toBe('Quero 2 pizzas grandes e uma coca');
      expect(await line.locator('span', { hasText: /^2$/ }).evaluate((el) => getComputedStyle(el).fontWeight)).toBe('700');
      expect(await line.locator('span', { hasText: /^grandes$/ }).evaluate((el) => getComputedStyle(el).fontStyle)).toBe('italic');
      await screenshot(page, `first-day-inbox-${name}-customer-line`);

      await page.getByTestId('tab-search').click();
      await page.getByTestId('tickets-search-input').fill('segunda via');
      const match = page.getByTestId('ticket-row').filter({ hasText: 'Hugo Boleto' }).getByTestId('ticket-last-message');
      await match.waitFor();
      await eventually(() => match.textContent()).toContain('segunda via do boleto');
      expect(await match.textContent()).toMatch(/^…/);
      expect(await match.getByTestId('ticket-match-mark').allTextContents()).toEqual(['segunda', 'via']);
      await screenshot(page, `first-day-inbox-${name}-search-context`);
    }
    expect(pageErrors).toEqual([]);
  });
});
