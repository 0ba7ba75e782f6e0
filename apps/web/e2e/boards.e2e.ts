/**
 * The dashboard and the Kanban board against a server with the simulated phone channel: the
 * counters follow contacts writing in without a reload; on the board a new ticket appears live
 * under Queue, real mouse drags accept, resolve, reopen and transfer it, a move the status table
 * does not have is refused on the spot, and a move the server refuses puts the card back.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZTicketSchema, type TTicket } from '@zapdesk/shared/messaging';
import { launchBrowser, newContext, pageErrors, screenshot, openSignedIn } from './browser';
import { ADMIN, startServer, type RunningServer } from './server';
import { scanWhenReady } from './simulator';

let server: RunningServer;
let browser: Browser;
let adminToken = '';
let adminId = 0;
let connectionId = 0;
let salesQueueId = 0;

const AGENT = { name: 'Ana Agente', email: 'ana@e2e.test', password: 'ana-secret-1' };
const ZIdSchema = z.object({ id: z.number() });
const ZDashboardSchema = z.object({ counters: z.object({ open: z.number(), pending: z.number(), closed: z.number() }) });

async function api(path: string, options: { method?: string; body?: unknown; token?: string } = {}): Promise<Response> {
  return fetch(`${server.baseUrl}/api${path}`, {
    method: options.method ?? 'GET',
    headers: { authorization: `Bearer ${options.token ?? adminToken}`, ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

async function loginToken(credentials: { email: string; password: string }): Promise<{ token: string; id: number }> {
  const response = await fetch(`${server.baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) });
  expect(response.status).toBe(200);
  return z
    .object({ token: z.string(), user: ZIdSchema })
    .transform((body) => ({ token: body.token, id: body.user.id }))
    .parse(await response.json());
}

async function writeIn(contact: { from: string; name: string }, body: string): Promise<void> {
  const response = await api(`/simulator/${connectionId}/inbound`, { method: 'POST', body: { ...contact, body } });
  expect(response.status).toBe(200);
}

async function ticketById(id: number): Promise<TTicket> {
  const response = await api(`/tickets/${id}`);
  expect(response.status).toBe(200);
  return ZTicketSchema.parse(await response.json());
}

function column(page: Page, id: string): Locator {
  return page.locator(`[data-testid="kanban-column"][data-column="${id}"]`);
}

function cardIn(page: Page, columnId: string, contactName: string): Locator {
  return column(page, columnId).getByTestId('kanban-card').filter({ hasText: contactName });
}

/**
 * A real mouse drag, in small steps so dnd-kit's sensor picks the card up and tracks it over the
 * column. With `hold` the button stays down (to look at the columns mid-drag); call drop() after.
 */
async function drag(page: Page, card: Locator, target: Locator, options: { hold?: boolean } = {}): Promise<void> {
  const from = await card.boundingBox();
  const to = await target.boundingBox();
  if (!from || !to) throw new Error('the card or the column is not on screen');
  const startX = from.x + from.width / 2;
  const startY = from.y + from.height / 2;
  await page.mouse.move(startX, startY);
  await page.mouse.down();
  await page.mouse.move(startX + 12, startY + 8, { steps: 4 });
  await page.mouse.move(to.x + to.width / 2, to.y + Math.min(160, to.height / 2), { steps: 20 });
  if (!options.hold) await drop(page);
}

/** Releases the card, then lets the drop animation end: dnd-kit ignores a new pick-up until it has. */
async function drop(page: Page): Promise<void> {
  await page.mouse.up();
  await page.waitForTimeout(400);
}

function dashboardValue(page: Page, key: 'open' | 'pending' | 'closed'): Promise<string | null> {
  return page.getByTestId(`dashboard-${key}`).getAttribute('data-count');
}

beforeAll(async () => {
  server = await startServer({ simulator: true });
  browser = await launchBrowser();
  const admin = await loginToken(ADMIN);
  adminToken = admin.token;
  adminId = admin.id;

  const created = await api('/whatsapp', { method: 'POST', body: { name: 'Loja Centro', channel: 'simulator' } });
  expect(created.status).toBe(201);
  connectionId = ZIdSchema.parse(await created.json()).id;
  await scanWhenReady(api, connectionId);

  const queue = await api('/queue', { method: 'POST', body: { name: 'Vendas', color: '#1273DE', greetingMessage: '' } });
  expect(queue.status).toBe(201);
  salesQueueId = ZIdSchema.parse(await queue.json()).id;
  expect((await api('/users', { method: 'POST', body: { ...AGENT, profile: 'user', queueIds: [salesQueueId] } })).status).toBe(201);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('dashboard', () => {
  it("shows the counters of the user's queues and follows new tickets live", async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page);
    await expect(page.getByTestId('page-title').textContent()).resolves.toBe('Dashboard');
    await expect.poll(() => dashboardValue(page, 'pending')).toBe('0');
    await expect(dashboardValue(page, 'open')).resolves.toBe('0');
    await expect(dashboardValue(page, 'closed')).resolves.toBe('0');
    await expect(page.getByTestId('dashboard-open').textContent()).resolves.toContain('In service');
    await expect(page.getByTestId('dashboard-pending').textContent()).resolves.toContain('Waiting');
    await expect(page.getByTestId('dashboard-closed').textContent()).resolves.toContain('Closed');
    await expect(page.getByTestId('dashboard-chart').textContent()).resolves.toContain('Tickets today');
    // Twelve hourly bars, 08:00 to 19:00.
    await page.locator('[data-testid="dashboard-chart"] .recharts-surface').first().waitFor();
    await expect(page.getByTestId('dashboard-chart').getAttribute('data-hours')).resolves.toBe(
      ['08', '09', '10', '11', '12', '13', '14', '15', '16', '17', '18', '19'].map((hour) => `${hour}:00`).join(','),
    );
    await expect(page.getByTestId('dashboard-chart').textContent()).resolves.toContain('08:00');

    // Two contacts write in: the Waiting counter follows without a reload.
    await writeIn({ from: '5511911110001', name: 'Bruno Dashboard' }, 'Bom dia!');
    await writeIn({ from: '5511911110002', name: 'Carla Dashboard' }, 'Olá, tudo bem?');
    await expect.poll(() => dashboardValue(page, 'pending'), { timeout: 10_000 }).toBe('2');
    // 'New today' counts the whole day, whatever the hour.
    await expect.poll(() => page.getByTestId('dashboard-chart').getAttribute('data-total')).toBe('2');
    await expect(page.getByTestId('dashboard-today-total').textContent()).resolves.toBe('New today: 2');

    // One is accepted elsewhere (another tab, another agent): In service and Waiting follow.
    const list = z.object({ tickets: z.array(ZTicketSchema) }).parse(await (await api('/tickets?status=pending&showAll=true')).json());
    const bruno = list.tickets.find((ticket) => ticket.contact.name === 'Bruno Dashboard');
    expect(bruno).toBeDefined();
    expect((await api(`/tickets/${bruno?.id ?? 0}`, { method: 'PUT', body: { status: 'open' } })).status).toBe(200);
    await expect.poll(() => dashboardValue(page, 'open'), { timeout: 10_000 }).toBe('1');
    await expect(dashboardValue(page, 'pending')).resolves.toBe('1');
    const counted = ZDashboardSchema.parse(await (await api('/dashboard')).json());
    expect(counted.counters).toEqual({ open: 1, pending: 1, closed: 0 });
    await screenshot(page, '60-dashboard');

    const phone = await newContext(browser, server.baseUrl, { mobile: true });
    const phonePage = await phone.newPage();
    await openSignedIn(phonePage);
    await expect.poll(() => dashboardValue(phonePage, 'open')).toBe('1');
    await phonePage.locator('[data-testid="dashboard-chart"] .recharts-surface').first().waitFor();
    await screenshot(phonePage, '61-dashboard-phone');
    await phone.close();
    await context.close();
  });
});

describe('kanban', () => {
  it('shows a new ticket live under Queue; drags accept, resolve, reopen and transfer it; a move outside the status table is refused', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page);
    await page.getByTestId('menu-kanban').click();
    await page.getByTestId('kanban-page').waitFor();
    await expect(page.getByTestId('kanban-column-title').allTextContents()).resolves.toEqual(['Queue', 'In service', 'Resolved']);
    await expect(page.getByTestId('kanban-show-all').locator('input').isChecked()).resolves.toBe(true);
    await expect.poll(() => column(page, 'status:open').getByTestId('kanban-column-count').getAttribute('data-count')).toBe('1');

    // A contact writes in: the card appears under Queue without a reload.
    const contact = { from: '5511922220001', name: 'Diego Kanban' };
    await writeIn(contact, 'Quero saber do meu pedido');
    const pendingCard = cardIn(page, 'status:pending', contact.name);
    await pendingCard.waitFor();
    await expect(pendingCard.getByTestId('kanban-card-last-message').textContent()).resolves.toBe('Quero saber do meu pedido');
    await expect(pendingCard.getByTestId('kanban-card-unread').textContent()).resolves.toBe('1');
    await expect(pendingCard.getByTestId('kanban-card-time').textContent()).resolves.toMatch(/^\d{2}:\d{2}$/);
    await expect(pendingCard.getByTestId('kanban-card-queue').getAttribute('aria-label')).resolves.toBe('No queue');
    const ticketId = Number(await pendingCard.getAttribute('data-id'));

    // A pending card does not open by a click (like the ticket rows).
    await pendingCard.click();
    expect(new URL(page.url()).pathname).toBe('/Kanban');

    // Waiting -> Resolved is not in the status table: the column says so while the card is over it, and the card stays.
    await drag(page, pendingCard, column(page, 'status:closed'), { hold: true });
    await expect.poll(() => column(page, 'status:closed').getAttribute('data-drop-state')).toBe('forbidden');
    await expect(column(page, 'status:closed').getAttribute('data-over')).resolves.toBe('true');
    await expect(column(page, 'status:closed').getByTestId('kanban-not-allowed').textContent()).resolves.toBe('Not allowed');
    await expect(column(page, 'status:open').getAttribute('data-drop-state')).resolves.toBe('allowed');
    await screenshot(page, '62-kanban-drag-refused');
    await drop(page);
    await expect.poll(() => column(page, 'status:closed').getAttribute('data-drop-state')).toBe('idle');
    await cardIn(page, 'status:pending', contact.name).waitFor();
    expect((await ticketById(ticketId)).status).toBe('pending');

    // Waiting -> In service accepts it for the admin.
    await drag(page, cardIn(page, 'status:pending', contact.name), column(page, 'status:open'));
    const openCard = cardIn(page, 'status:open', contact.name);
    await openCard.waitFor();
    await expect.poll(async () => (await ticketById(ticketId)).status).toBe('open');
    expect((await ticketById(ticketId)).userId).toBe(adminId);
    await expect.poll(() => openCard.getByTestId('kanban-card-owner').textContent()).toBeTruthy();
    await expect(cardIn(page, 'status:pending', contact.name).count()).resolves.toBe(0);
    await screenshot(page, '63-kanban-accepted');

    // In service -> Queue returns a ticket: unassigned again.
    const brunoCard = cardIn(page, 'status:open', 'Bruno Dashboard');
    const brunoId = Number(await brunoCard.getAttribute('data-id'));
    await drag(page, brunoCard, column(page, 'status:pending'));
    await cardIn(page, 'status:pending', 'Bruno Dashboard').waitFor();
    await expect.poll(async () => (await ticketById(brunoId)).status).toBe('pending');
    expect((await ticketById(brunoId)).userId).toBeNull();
    await expect(cardIn(page, 'status:pending', 'Bruno Dashboard').getByTestId('kanban-card-owner').count()).resolves.toBe(0);

    // In service -> Resolved resolves it.
    await drag(page, openCard, column(page, 'status:closed'));
    await cardIn(page, 'status:closed', contact.name).waitFor();
    await expect.poll(async () => (await ticketById(ticketId)).status).toBe('closed');

    // Resolved -> In service reopens it; an open card opens its chat on a click.
    await drag(page, cardIn(page, 'status:closed', contact.name), column(page, 'status:open'));
    await expect.poll(async () => (await ticketById(ticketId)).status).toBe('open');
    await cardIn(page, 'status:open', contact.name).click();
    await page.waitForURL(`**/tickets/${ticketId}`);
    await page.goBack();
    await page.getByTestId('kanban-page').waitFor();

    // By queue: one column per queue plus 'No queue'; a drop on Vendas transfers the ticket there, back to waiting.
    await page.getByTestId('kanban-view-queue').click();
    await expect.poll(() => page.getByTestId('kanban-column-title').allTextContents()).toEqual(['No queue', 'Vendas']);
    const noQueueCard = cardIn(page, 'queue:none', contact.name);
    await noQueueCard.waitFor();
    await expect(noQueueCard.getByTestId('kanban-card-status').textContent()).resolves.toBe('In service');
    await drag(page, noQueueCard, column(page, `queue:${salesQueueId}`));
    const salesCard = cardIn(page, `queue:${salesQueueId}`, contact.name);
    await salesCard.waitFor();
    await expect.poll(async () => (await ticketById(ticketId)).queueId).toBe(salesQueueId);
    const transferred = await ticketById(ticketId);
    expect(transferred).toMatchObject({ status: 'pending', userId: null });
    await expect.poll(() => salesCard.getByTestId('kanban-card-status').textContent()).toBe('Waiting');
    await expect(salesCard.getByTestId('kanban-card-queue').getAttribute('aria-label')).resolves.toBe('Vendas');
    await screenshot(page, '64-kanban-by-queue');

    // On a phone, in Portuguese: the columns scroll sideways, one at a time.
    const phone = await newContext(browser, server.baseUrl, { mobile: true, locale: 'pt-BR' });
    const phonePage = await phone.newPage();
    await openSignedIn(phonePage, '/Kanban');
    await column(phonePage, 'status:pending').getByTestId('kanban-card').first().waitFor();
    await expect(phonePage.getByTestId('kanban-column-title').allTextContents()).resolves.toEqual(['Aguardando', 'Em atendimento', 'Resolvidos']);
    const firstColumn = await column(phonePage, 'status:pending').boundingBox();
    expect(firstColumn && firstColumn.x + firstColumn.width).toBeLessThanOrEqual(390);
    await screenshot(phonePage, '65-kanban-phone');
    await phone.close();
    await context.close();
  });

  it("puts a card back when the server refuses a plain user's move", async () => {
    const agent = await loginToken(AGENT);
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page, '/Kanban', AGENT);
    await page.getByTestId('kanban-page').waitFor();
    // Not an admin: no 'All' switch.
    await expect(page.getByTestId('kanban-show-all').count()).resolves.toBe(0);

    const contact = { from: '5511933330001', name: 'Elisa Kanban' };
    await writeIn(contact, 'Preciso de uma segunda via');
    const pendingCard = cardIn(page, 'status:pending', contact.name);
    await pendingCard.waitFor();
    const ticketId = Number(await pendingCard.getAttribute('data-id'));

    // Accept, then resolve, as the agent.
    await drag(page, pendingCard, column(page, 'status:open'));
    await cardIn(page, 'status:open', contact.name).waitFor();
    await expect.poll(async () => (await ticketById(ticketId)).userId).toBe(agent.id);
    await screenshot(page, '67-kanban-agent-accepted');
    await drag(page, cardIn(page, 'status:open', contact.name), column(page, 'status:closed'));
    await screenshot(page, '68-kanban-agent-resolved');
    const closedCard = cardIn(page, 'status:closed', contact.name);
    await closedCard.waitFor();
    await expect.poll(async () => (await ticketById(ticketId)).status).toBe('closed');

    // Meanwhile the admin opens a new ticket for the same contact, which the agent cannot see:
    // reopening the old one would give the contact two open tickets, and the server refuses.
    const reopened = await api('/tickets', { method: 'POST', body: { contactId: (await ticketById(ticketId)).contactId, status: 'open' } });
    expect(reopened.status).toBe(201);
    await drag(page, closedCard, column(page, 'status:open'));
    await page.locator('.Toastify__toast--error').first().waitFor();
    await cardIn(page, 'status:closed', contact.name).waitFor();
    await expect(cardIn(page, 'status:open', contact.name).count()).resolves.toBe(0);
    expect((await ticketById(ticketId)).status).toBe('closed');
    await screenshot(page, '66-kanban-refused-by-server');
    await context.close();
  });

  it('shows the latest resolved tickets and loads more on demand', async () => {
    // 22 more conversations, all closed at once: with the earlier ones, more than a page of 20.
    for (let n = 0; n < 22; n += 1) await writeIn({ from: `55119444400${String(n).padStart(2, '0')}`, name: `Fechado ${n}` }, 'Obrigado!');
    expect((await api('/ticketsClosed', { method: 'POST' })).status).toBe(200);
    const total = z.object({ count: z.number() }).parse(await (await api('/tickets?status=closed&showAll=true')).json()).count;
    expect(total).toBeGreaterThan(20);

    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page, '/Kanban');
    const closed = column(page, 'status:closed');
    await expect.poll(() => closed.getByTestId('kanban-column-count').getAttribute('data-count')).toBe(String(total));
    await expect.poll(() => closed.getByTestId('kanban-card').count()).toBe(20);
    await closed.getByTestId('kanban-load-more').click();
    await expect.poll(() => closed.getByTestId('kanban-card').count()).toBe(Math.min(total, 40));
    await expect(closed.getByTestId('kanban-load-more').count()).resolves.toBe(total > 40 ? 1 : 0);
    await context.close();
    expect(pageErrors).toEqual([]);
  });
});
