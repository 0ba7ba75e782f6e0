/**
 * The Reports page in Portuguese against the real server: tickets seeded straight into the
 * server's SQLite file at chosen moments of the past week (São Paulo time) show as the figures
 * worked out by hand, with the per-day chart and the busiest hours; the queue filter narrows them;
 * 'Exportar planilha' downloads zdg.csv in Portuguese, read back here. Pictures at 1440×900 and 390×844.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, pageErrors, pickOption, screenshot, openSignedIn } from './browser';
import { startServer, type RunningServer } from './server';
import { apiAs, idOf, signIn } from './simulator';

let server: RunningServer;
let browser: Browser;
let adminToken = '';
const api = (route: string, options: { method?: string; body?: unknown } = {}) => apiAs(server.baseUrl, () => adminToken)(route, options);

const MIN = 60_000;

/** The calendar day `offset` days from today here (YYYY-MM-DD). */
function day(offset: number): string {
  const now = new Date();
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset, 12);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** hh:mm on a day `offset` days from today, in São Paulo (UTC-3), as an instant. */
function saoPaulo(offset: number, time: string): number {
  return Date.parse(`${day(offset)}T${time}:00-03:00`);
}

type SeedTicket = { created: number; queueId: number; userId: number; firstResponseAfter?: number; closedAfter?: number };

function seedTickets(connectionId: number, tickets: SeedTicket[]): void {
  const db = new SQLite(path.join(server.dataDir, 'zapdesk.sqlite'));
  db.pragma('busy_timeout = 5000');
  const insertContact = db.prepare("INSERT INTO contacts (name, number, email, profilePicUrl, isGroup, searchText, createdAt, updatedAt) VALUES (?, ?, '', '', 0, ?, ?, ?)");
  const insertTicket = db.prepare(
    "INSERT INTO tickets (status, contactId, whatsappId, userId, queueId, lastMessage, unreadMessages, isGroup, createdAt, updatedAt, firstResponseAt, closedAt) VALUES (?, ?, ?, ?, ?, '', 0, 0, ?, ?, ?, ?)",
  );
  const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
  db.transaction(() => {
    tickets.forEach((ticket, i) => {
      const created = iso(ticket.created) ?? '';
      const name = `Cliente Relatório ${i + 1}`;
      const number = `55119660000${String(i + 1).padStart(2, '0')}`;
      const contactId = insertContact.run(name, number, name.toLowerCase(), created, created).lastInsertRowid;
      const closedAt = ticket.closedAfter === undefined ? undefined : ticket.created + ticket.closedAfter;
      const firstResponseAt = ticket.firstResponseAfter === undefined ? undefined : ticket.created + ticket.firstResponseAfter;
      insertTicket.run(closedAt ? 'closed' : 'open', contactId, connectionId, ticket.userId, ticket.queueId, created, iso(closedAt ?? ticket.created), iso(firstResponseAt), iso(closedAt));
    });
  })();
  db.close();
}

async function text(page: Page, testId: string): Promise<string> {
  return (await page.getByTestId(testId).textContent()) ?? '';
}

/** The sign-in toast gone, so the pictures show the page alone. */
async function afterToasts(page: Page): Promise<void> {
  await page.locator('.Toastify__toast').first().waitFor({ state: 'detached', timeout: 10_000 });
}

beforeAll(async () => {
  server = await startServer({ simulator: true, env: { REPORTS_TIME_ZONE: 'America/Sao_Paulo' } });
  browser = await launchBrowser();
  adminToken = (await signIn(server.baseUrl)).token;
  const connectionId = await idOf(await api('/whatsapp', { method: 'POST', body: { name: 'Loja Centro', channel: 'simulator' } }));
  const sales = await idOf(await api('/queue', { method: 'POST', body: { name: 'Vendas', color: '#1273DE', greetingMessage: '' } }));
  const support = await idOf(await api('/queue', { method: 'POST', body: { name: 'Suporte', color: '#B80000', greetingMessage: '' } }));
  const ana = await idOf(await api('/users', { method: 'POST', body: { name: 'Ana Souza', email: 'ana@relatorio.test', password: 'ana-secret-1', profile: 'user', queueIds: [sales] } }));
  const bruno = await idOf(await api('/users', { method: 'POST', body: { name: 'Bruno Lima', email: 'bruno@relatorio.test', password: 'bruno-secret-1', profile: 'user', queueIds: [support] } }));
  seedTickets(connectionId, [
    // First responses 1, 2, 4 and 10 min (n=4: median the 2nd, 2 min; 90% the 4th, 10 min).
    // Resolutions 30 min, 1 h, 2 h (n=3: median the 2nd, 1 h; 90% the 3rd, 2 h).
    { created: saoPaulo(-5, '10:00'), queueId: sales, userId: ana, firstResponseAfter: 2 * MIN, closedAfter: 60 * MIN },
    { created: saoPaulo(-5, '10:20'), queueId: sales, userId: ana, firstResponseAfter: 4 * MIN, closedAfter: 30 * MIN },
    { created: saoPaulo(-3, '14:00'), queueId: support, userId: bruno, firstResponseAfter: 10 * MIN, closedAfter: 120 * MIN },
    { created: saoPaulo(-2, '10:40'), queueId: sales, userId: bruno, firstResponseAfter: 1 * MIN },
    { created: saoPaulo(-1, '16:00'), queueId: support, userId: ana },
    // Twenty days ago: outside the last 7 days.
    { created: saoPaulo(-20, '10:00'), queueId: sales, userId: ana, firstResponseAfter: 90 * MIN, closedAfter: 300 * MIN },
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('reports page', () => {
  it('shows the last 7 days: figures worked out by hand, the chart per day, the busiest hours; filters by queue; exports the CSV in Portuguese', async () => {
    const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR' });
    const page = await context.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await openSignedIn(page);
    await page.getByRole('link', { name: 'Relatórios' }).click();
    await page.getByTestId('reports-page').waitFor();
    await expect(text(page, 'page-title')).resolves.toBe('Relatórios');
    await expect(page.getByTestId('report-from').inputValue()).resolves.toBe(day(-6));
    await expect(page.getByTestId('report-to').inputValue()).resolves.toBe(day(0));

    await expect.poll(() => text(page, 'report-opened-value')).toBe('5');
    await expect(text(page, 'report-resolved-value')).resolves.toBe('3');
    await expect(text(page, 'report-first-response-value')).resolves.toBe('2 min');
    await expect(text(page, 'report-first-response')).resolves.toContain('4 conversas');
    await expect(text(page, 'report-first-response-p90')).resolves.toBe('90% em até 10 min');
    await expect(text(page, 'report-resolution-value')).resolves.toBe('1 h');
    await expect(text(page, 'report-resolution-p90')).resolves.toBe('90% em até 2 h');
    await expect(text(page, 'report-csat')).resolves.toContain('Nenhuma resposta no período');
    await expect(page.getByTestId('report-notes').getAttribute('data-zone')).resolves.toBe('America/Sao_Paulo');
    // The chart: one group of bars a day, seven days; the per-hour chart beside it.
    const chart = page.getByTestId('report-chart-days');
    await expect(chart.getAttribute('data-total')).resolves.toBe('5');
    await expect(chart.locator('.recharts-bar-rectangle').count()).resolves.toBeGreaterThan(0);
    await expect(chart.textContent()).resolves.toContain('Abertas e resolvidas por dia');
    // The busiest cell: two conversations at 10h on the weekday five days ago.
    const weekday = new Date(`${day(-5)}T12:00:00Z`).getUTCDay();
    await expect(text(page, `busiest-${weekday}-10`)).resolves.toBe('2');
    await afterToasts(page);
    await screenshot(page, 'teamwork-reports-01-desktop');

    // Only Suporte: two opened, one resolved in 2 h, answered in 10 min.
    await pickOption(page, 'report-filter-queueId', 'Suporte');
    await expect.poll(() => text(page, 'report-opened-value')).toBe('2');
    await expect(text(page, 'report-resolved-value')).resolves.toBe('1');
    await expect(text(page, 'report-first-response-value')).resolves.toBe('10 min');
    await expect(text(page, 'report-resolution-value')).resolves.toBe('2 h');

    // The spreadsheet of what is shown, in Portuguese.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export').click()]);
    expect(download.suggestedFilename()).toBe('zdg.csv');
    const csv = readFileSync((await download.path()) ?? '', 'utf8');
    expect(csv.startsWith('\uFEFF"Indicador";"Dia";"Dia da semana";"Hora";"Valor"\r\n')).toBe(true);
    expect(csv).toContain('"Conversas abertas";"";"";"";"2"\r\n');
    expect(csv).toContain('"Conversas resolvidas";"";"";"";"1"\r\n');
    expect(csv).toContain('"Primeira resposta, mediana (segundos)";"";"";"";"600"\r\n');
    expect(csv).toContain('"Resolução, 90% em até (segundos)";"";"";"";"7200"\r\n');
    expect(csv).toContain('"Fuso horário";"";"";"";"America/Sao_Paulo"\r\n');
    const [y, m, d] = day(-3).split('-');
    expect(csv).toContain(`"Abertas no dia";"${d}/${m}/${y}";"";"";"1"\r\n`);
    const weekdayNames = ['Domingo', 'Segunda-feira', 'Terça-feira', 'Quarta-feira', 'Quinta-feira', 'Sexta-feira', 'Sábado'];
    const supportWeekday = new Date(`${day(-3)}T12:00:00Z`).getUTCDay();
    expect(csv).toContain(`"Abertas no horário";"";"${weekdayNames[supportWeekday]}";"14:00";"1"\r\n`);
    await page.getByText('Planilha do relatório baixada.').waitFor();

    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('fits a phone: the figures two by two, the charts one under the other', async () => {
    const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR', mobile: true });
    const page = await context.newPage();
    await openSignedIn(page, '/reports');
    await expect.poll(() => text(page, 'report-opened-value')).toBe('5');
    await afterToasts(page);
    await screenshot(page, 'teamwork-reports-02-phone');
    // Nothing wider than the screen but the busiest-hours table, which scrolls inside its card.
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await page.getByTestId('report-chart-days').scrollIntoViewIfNeeded();
    await screenshot(page, 'teamwork-reports-03-phone-charts');
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
