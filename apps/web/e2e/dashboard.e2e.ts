/**
 * The dashboard's period: Today keeps the spec's hourly chart; 'Last 7 days' charts one bar a day
 * and fills the per-queue and per-agent tables (resolved, median first response). The tickets and
 * messages are seeded straight into the server's SQLite file at chosen times of the past week:
 * going through the simulated phone would stamp them all with now.
 */
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, pageErrors, screenshot, openSignedIn } from './browser';
import { startServer, type RunningServer } from './server';
import { apiAs, idOf, signIn } from './simulator';

let server: RunningServer;
let browser: Browser;
let adminToken = '';
const api = (route: string, options: { method?: string; body?: unknown } = {}) => apiAs(server.baseUrl, () => adminToken)(route, options);

/** Local time `days` days from today (negative: before), at hh:mm. */
function at(days: number, hour: number, minute = 0): Date {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + days, hour, minute);
}

function localDay(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

type SeedTicket = { createdAt: Date; queueId: number | null; userId: number | null; closedAt?: Date; replyAfterMinutes?: number };

/** Tickets, each with its contact's first message at creation and, when answered, the inbox's reply. */
function seedTickets(connectionId: number, tickets: SeedTicket[]): void {
  const db = new SQLite(path.join(server.dataDir, 'zapdesk.sqlite'));
  db.pragma('busy_timeout = 5000');
  const insertContact = db.prepare("INSERT INTO contacts (name, number, email, profilePicUrl, isGroup, searchText, createdAt, updatedAt) VALUES (?, ?, '', '', 0, ?, ?, ?)");
  const insertTicket = db.prepare(
    // A close is kept as the product keeps it (closedAt, cleared on reopen): the dashboard counts it.
    "INSERT INTO tickets (status, contactId, whatsappId, userId, queueId, lastMessage, unreadMessages, isGroup, createdAt, updatedAt, closedAt) VALUES (?, ?, ?, ?, ?, '', 0, 0, ?, ?, ?)",
  );
  const insertMessage = db.prepare(
    'INSERT INTO messages (ticketId, whatsappId, providerId, contactId, body, fromMe, read, ack, isDeleted, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, 1, 0, 0, ?, ?)',
  );
  db.transaction(() => {
    tickets.forEach((ticket, i) => {
      const created = ticket.createdAt.toISOString();
      const name = `Cliente Painel ${i + 1}`;
      const number = `55119770000${String(i + 1).padStart(2, '0')}`;
      const contactId = insertContact.run(name, number, `${name.toLowerCase()} ${number}`, created, created).lastInsertRowid;
      const status = ticket.closedAt ? 'closed' : ticket.userId ? 'open' : 'pending';
      const ticketId = insertTicket.run(
        status,
        contactId,
        connectionId,
        ticket.userId,
        ticket.queueId,
        created,
        (ticket.closedAt ?? ticket.createdAt).toISOString(),
        ticket.closedAt?.toISOString() ?? null,
      ).lastInsertRowid;
      insertMessage.run(ticketId, connectionId, `painel-in-${i}`, contactId, 'Olá, preciso de ajuda', 0, created, created);
      if (ticket.replyAfterMinutes !== undefined) {
        const replied = new Date(ticket.createdAt.getTime() + ticket.replyAfterMinutes * 60_000).toISOString();
        insertMessage.run(ticketId, connectionId, `painel-out-${i}`, null, 'Claro, vou verificar.', 1, replied, replied);
      }
    });
  })();
  db.close();
}

/** The sign-in toast gone, so the pictures show the dashboard alone. */
async function afterToasts(page: Page): Promise<void> {
  await page.locator('.Toastify__toast').first().waitFor({ state: 'detached', timeout: 10_000 });
}

function rowsOf(page: Page, table: 'queues' | 'agents'): Locator {
  return page.getByTestId(`dashboard-${table}-row`);
}

/** Each row of a figures table as [name, resolved, median first response]. */
async function tableText(page: Page, table: 'queues' | 'agents'): Promise<string[][]> {
  const rows = rowsOf(page, table);
  const out: string[][] = [];
  for (let i = 0; i < (await rows.count()); i += 1) {
    const row = rows.nth(i);
    out.push(await Promise.all(['figure-name', 'figure-resolved', 'figure-first-response'].map(async (id) => (await row.getByTestId(id).textContent()) ?? '')));
  }
  return out;
}

beforeAll(async () => {
  server = await startServer({ simulator: true });
  browser = await launchBrowser();
  adminToken = (await signIn(server.baseUrl)).token;
  const connectionId = await idOf(await api('/whatsapp', { method: 'POST', body: { name: 'Loja Painel', channel: 'simulator' } }));
  const sales = await idOf(await api('/queue', { method: 'POST', body: { name: 'Vendas', color: '#1273DE', greetingMessage: '' } }));
  const support = await idOf(await api('/queue', { method: 'POST', body: { name: 'Suporte', color: '#B80000', greetingMessage: '' } }));
  const ana = await idOf(await api('/users', { method: 'POST', body: { name: 'Ana Souza', email: 'ana@painel.test', password: 'ana-secret-1', profile: 'user', queueIds: [sales] } }));
  const bruno = await idOf(await api('/users', { method: 'POST', body: { name: 'Bruno Lima', email: 'bruno@painel.test', password: 'bruno-secret-1', profile: 'user', queueIds: [sales, support] } }));
  expect([connectionId, sales, support, ana, bruno].every((id) => id > 0)).toBe(true);
  seedTickets(connectionId, [
    // Vendas: answered in 2, 4 and 10 minutes (median 4 min), two resolved.
    { createdAt: at(-6, 10), queueId: sales, userId: ana, closedAt: at(-6, 11), replyAfterMinutes: 2 },
    { createdAt: at(-3, 9), queueId: sales, userId: ana, closedAt: at(-2, 9), replyAfterMinutes: 4 },
    { createdAt: at(-3, 14), queueId: sales, userId: bruno, replyAfterMinutes: 10 },
    // Suporte: answered in 1 h 12 min, resolved.
    { createdAt: at(-1, 16), queueId: support, userId: bruno, closedAt: at(-1, 18), replyAfterMinutes: 72 },
    // Today, no queue, not answered yet.
    { createdAt: at(0, 0, 20), queueId: null, userId: null },
    // Ten days ago: outside the last 7 days.
    { createdAt: at(-10, 10), queueId: sales, userId: ana, closedAt: at(-10, 12), replyAfterMinutes: 1 },
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('dashboard period', () => {
  it("shows today by the hour, then the last 7 days by the day with each queue's and agent's resolved tickets and median first response", async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await openSignedIn(page);
    const chart = page.getByTestId('dashboard-chart');
    await page.getByRole('group', { name: 'Period' }).waitFor();
    await expect(page.getByRole('button', { name: 'Today' }).getAttribute('aria-pressed')).resolves.toBe('true');
    // Today is the spec's view: twelve hourly bars.
    await expect.poll(() => chart.getAttribute('data-hours')).toContain('08:00');
    await expect(chart.getAttribute('data-days')).resolves.toBe('');
    await expect(chart.getByRole('heading').textContent()).resolves.toBe('Tickets today');

    await page.getByRole('button', { name: 'Last 7 days' }).click();
    const week = [-6, -5, -4, -3, -2, -1, 0].map((offset) => localDay(at(offset, 12)));
    await expect.poll(() => chart.getAttribute('data-days')).toBe(week.join(','));
    await expect(page.getByRole('button', { name: 'Last 7 days' }).getAttribute('aria-pressed')).resolves.toBe('true');
    await expect(chart.getByRole('heading').textContent()).resolves.toBe('Tickets in the last 7 days');
    await expect(chart.getAttribute('data-total')).resolves.toBe('5');
    await expect(page.getByTestId('dashboard-today-total').textContent()).resolves.toBe('New in the period: 5');
    // The axis runs by the day (MM/dd in English), from six days ago to today.
    const dayTick = (date: Date) => `${String(date.getMonth() + 1).padStart(2, '0')}/${String(date.getDate()).padStart(2, '0')}`;
    await expect.poll(() => chart.textContent()).toContain(dayTick(at(0, 12)));
    await expect(chart.textContent()).resolves.toContain(dayTick(at(-6, 12)));
    await expect(chart.textContent()).resolves.not.toContain('08:00');

    await expect(tableText(page, 'queues')).resolves.toEqual([
      ['Suporte', '1', '1 h 12 min'],
      ['Vendas', '2', '4 min'],
      ['No queue', '0', '—'],
    ]);
    await expect(tableText(page, 'agents')).resolves.toEqual([
      ['Ana Souza', '2', '3 min'],
      ['Bruno Lima', '1', '41 min'],
    ]);
    await expect(page.getByRole('table', { name: 'By queue' }).isVisible()).resolves.toBe(true);
    await afterToasts(page);
    await screenshot(page, 'dashboard-range-desktop');

    const phone = await newContext(browser, server.baseUrl, { mobile: true });
    const phonePage = await phone.newPage();
    await openSignedIn(phonePage);
    await phonePage.getByRole('button', { name: 'Last 7 days' }).click();
    await expect.poll(() => phonePage.getByTestId('dashboard-chart').getAttribute('data-days')).toBe(week.join(','));
    await expect.poll(() => rowsOf(phonePage, 'agents').count()).toBe(2);
    await afterToasts(phonePage);
    // The top of the page, then its end with both tables (the pointer off the chart, no tooltip).
    await phonePage.mouse.move(5, 300);
    await screenshot(phonePage, 'dashboard-range-phone-top');
    await phonePage.evaluate(() => document.getElementById('main-content')?.scrollBy(0, 2000));
    await screenshot(phonePage, 'dashboard-range-phone');
    // Nothing wider than the screen.
    await expect(phonePage.evaluate(() => document.getElementById('main-content')?.scrollWidth ?? 0)).resolves.toBeLessThanOrEqual(390);
    await phone.close();
    await context.close();
  });

  it('raised no uncaught error in any page', () => {
    expect(pageErrors).toEqual([]);
  });
});
