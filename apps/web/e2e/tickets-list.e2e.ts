/**
 * The list side of the Tickets screen against a server with the simulated phone channel: the
 * Search and Group tabs, the queue filter, the New-ticket modal, Close all, 'Spy', the bell, and a
 * virtualized list of ten thousand tickets (seeded straight into the server's SQLite file: going
 * through the simulator would take minutes).
 */
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, pageErrors, screenshot, openSignedIn } from './browser';
import { startServer, type RunningServer } from './server';
import { apiAs, idOf, scanWhenReady, signIn } from './simulator';

let server: RunningServer;
let browser: Browser;
let adminToken = '';
let connectionId = 0;
const queues = { sales: 0, support: 0 };
/** Live updates usually land within milliseconds; a busy 2-core machine can take seconds. */
const POLL = { timeout: 10_000 };

const api = (route: string, options: { method?: string; body?: unknown } = {}) => apiAs(server.baseUrl, () => adminToken)(route, options);

/** A contact writes in through the simulated phone; returns the id of its ticket. */
async function writeIn(message: { from: string; name: string; body: string; group?: { id: string; subject: string } }): Promise<number> {
  const response = await api(`/simulator/${connectionId}/inbound`, { method: 'POST', body: message });
  expect(response.status).toBe(200);
  const list = await api(`/tickets?showAll=true&searchParam=${encodeURIComponent(message.group?.subject ?? message.from)}`);
  const body: unknown = await list.json();
  const tickets = typeof body === 'object' && body !== null && 'tickets' in body && Array.isArray(body.tickets) ? body.tickets : [];
  const first: unknown = tickets[0];
  const id = typeof first === 'object' && first !== null && 'id' in first && typeof first.id === 'number' ? first.id : 0;
  expect(id).toBeGreaterThan(0);
  return id;
}

function rowsOf(page: Page, list: string) {
  return page.getByTestId(`tickets-list-${list}`).getByTestId('ticket-row');
}

function countOf(page: Page, badge: string): Promise<string | null> {
  return page.getByTestId(`count-${badge}`).getAttribute('data-count');
}

async function openTickets(options: { locale?: string; mobile?: boolean } = {}) {
  const context = await newContext(browser, server.baseUrl, options);
  const page = await context.newPage();
  await openSignedIn(page, '/tickets');
  await page.getByTestId('tickets-manager').waitFor();
  return { context, page };
}

beforeAll(async () => {
  server = await startServer({ simulator: true });
  browser = await launchBrowser();
  adminToken = (await signIn(server.baseUrl)).token;

  const created = await api('/whatsapp', { method: 'POST', body: { name: 'Loja Norte', channel: 'simulator' } });
  expect(created.status).toBe(201);
  connectionId = await idOf(created);
  await scanWhenReady(api, connectionId);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('tickets list', () => {
  it('searches messages and accent-free names, lower-cased; emptying the search returns to the Inbox', async () => {
    await writeIn({ from: '5511970000001', name: 'João Araújo', body: 'Quero trocar a geladeira azul' });
    await writeIn({ from: '5511970000002', name: 'Bruna Lima', body: 'Qual o prazo de entrega?' });
    const { context, page } = await openTickets();
    await page.getByTestId('tab-search').click();
    await page.getByTestId('tickets-search-hint').waitFor();
    const input = page.getByTestId('tickets-search-input');

    // A word of a message, typed in capitals.
    await input.fill('GELADEIRA');
    const found = rowsOf(page, 'search');
    await expect.poll(() => found.count(), POLL).toBe(1);
    await expect(found.first().getByTestId('ticket-contact').textContent()).resolves.toBe('João Araújo');

    // An accented name typed without accents.
    await input.fill('joao araujo');
    await expect.poll(() => found.first().getByTestId('ticket-contact').textContent(), POLL).toBe('João Araújo');
    await expect(found.count()).resolves.toBe(1);
    await input.fill('nada parecido');
    await page.getByTestId('tickets-list-search').getByTestId('tickets-empty').waitFor();
    await expect(page.getByTestId('tickets-empty').textContent()).resolves.toContain('No tickets found with this status or search term.');
    await screenshot(page, '40-tickets-search');

    await input.fill('');
    await expect.poll(() => page.getByTestId('tab-inbox').getAttribute('aria-selected'), POLL).toBe('true');
    await page.getByTestId('tab-pending').click();
    await expect.poll(() => rowsOf(page, 'pending').count(), POLL).toBe(2);
    await context.close();
  });

  it('shows group tickets under Group (and Resolved > Grupos) and keeps them out of the Inbox', async () => {
    expect((await api('/settings/CheckMsgIsGroup', { method: 'PUT', body: { value: 'disabled' } })).status).toBe(200);
    const groupTicket = await writeIn({ from: '5511970000003', name: 'Pedro Participante', body: 'Bom dia, grupo!', group: { id: 'equipe-vendas', subject: 'Equipe Vendas' } });
    const { context, page } = await openTickets();

    await page.getByTestId('tab-pending').click();
    await expect.poll(() => rowsOf(page, 'pending').count(), POLL).toBe(2);
    await expect(rowsOf(page, 'pending').filter({ hasText: 'Equipe Vendas' }).count()).resolves.toBe(0);
    await expect.poll(() => countOf(page, 'pending'), POLL).toBe('2');

    await page.getByTestId('tab-group').click();
    await page.getByTestId('tab-group-pending').click();
    const groupRow = rowsOf(page, 'group-pending').filter({ hasText: 'Equipe Vendas' });
    await groupRow.waitFor();
    await expect(rowsOf(page, 'group-pending').count()).resolves.toBe(1);
    await expect.poll(() => countOf(page, 'group-pending'), POLL).toBe('1');
    await expect(groupRow.getByTestId('ticket-last-message').textContent()).resolves.toBe('Bom dia, grupo!');
    await screenshot(page, '41-tickets-group');

    // Resolved: the group ticket is listed under 'Grupos', not under 'Privados'.
    expect((await api(`/tickets/${groupTicket}`, { method: 'PUT', body: { status: 'closed' } })).status).toBe(200);
    await expect.poll(() => rowsOf(page, 'group-pending').count(), POLL).toBe(0);
    await page.getByTestId('tab-resolved').click();
    await page.getByTestId('tickets-list-closed').getByTestId('tickets-empty').waitFor();
    await page.getByTestId('tab-closed-group').click();
    await rowsOf(page, 'group-closed').filter({ hasText: 'Equipe Vendas' }).getByTestId('ticket-closed-badge').waitFor();
    await context.close();
  });

  it('hides the tickets of a queue unticked in the queue filter, and remembers the choice', async () => {
    const sales = await idOf(await api('/queue', { method: 'POST', body: { name: 'Vendas', color: '#1273DE', greetingMessage: '' } }));
    const support = await idOf(await api('/queue', { method: 'POST', body: { name: 'Suporte', color: '#B80000', greetingMessage: '' } }));
    Object.assign(queues, { sales, support });
    const salesTicket = await writeIn({ from: '5511970000004', name: 'Cliente Vendas', body: 'Quero comprar' });
    const supportTicket = await writeIn({ from: '5511970000005', name: 'Cliente Suporte', body: 'Está quebrado' });
    expect((await api(`/tickets/${salesTicket}`, { method: 'PUT', body: { queueId: sales } })).status).toBe(200);
    expect((await api(`/tickets/${supportTicket}`, { method: 'PUT', body: { queueId: support } })).status).toBe(200);

    const { context, page } = await openTickets();
    await page.getByTestId('tab-pending').click();
    const pending = rowsOf(page, 'pending');
    await pending.filter({ hasText: 'Cliente Suporte' }).waitFor();
    await pending.filter({ hasText: 'Cliente Vendas' }).waitFor();
    // An admin without queues of their own starts with every queue ticked.
    await expect(page.getByTestId('tickets-queue-filter').getAttribute('data-summary')).resolves.toBe('All queues');
    await expect(page.getByTestId('tickets-queue-filter-count').textContent()).resolves.toBe('2/2');

    await page.getByTestId('tickets-queue-filter').click();
    await page.locator(`[data-testid="tickets-queue-option"][data-id="${support}"]`).click();
    await screenshot(page, '42-tickets-queue-filter');
    await page.keyboard.press('Escape');
    await expect.poll(() => pending.filter({ hasText: 'Cliente Suporte' }).count(), POLL).toBe(0);
    await expect(pending.filter({ hasText: 'Cliente Vendas' }).count()).resolves.toBe(1);
    // Tickets without a queue always show.
    await expect(pending.filter({ hasText: 'Bruna Lima' }).count()).resolves.toBe(1);
    await expect.poll(() => countOf(page, 'pending'), POLL).toBe('3');

    await page.reload();
    await page.getByTestId('tab-pending').click();
    await pending.filter({ hasText: 'Cliente Vendas' }).waitFor();
    await expect(pending.filter({ hasText: 'Cliente Suporte' }).count()).resolves.toBe(0);
    await expect(page.getByTestId('tickets-queue-filter').getAttribute('data-summary')).resolves.toBe('Vendas');
    await expect(page.getByTestId('tickets-queue-filter-count').textContent()).resolves.toBe('1/2');
    await context.close();
  });

  it('starts a ticket for an existing contact and for a new one, and refuses a second open ticket', async () => {
    expect((await api('/contacts', { method: 'POST', body: { name: 'Carla Existente', number: '5511977770001' } })).status).toBe(201);
    const { context, page } = await openTickets();

    await page.getByTestId('tickets-new').click();
    const modal = page.getByTestId('new-ticket-modal');
    await modal.waitFor();
    await page.getByTestId('new-ticket-contact').fill('Ca');
    await page.waitForTimeout(700);
    // Under 3 characters nothing is searched.
    await expect(page.getByTestId('new-ticket-option').count()).resolves.toBe(0);
    await page.getByTestId('new-ticket-contact').fill('carla');
    await page.getByTestId('new-ticket-option').filter({ hasText: 'Carla Existente' }).waitFor();
    await screenshot(page, '43-new-ticket-modal');
    await page.getByTestId('new-ticket-option').filter({ hasText: 'Carla Existente' }).click();
    await page.getByTestId('new-ticket-submit').click();
    await page.waitForURL(/\/tickets\/\d+$/);
    await expect.poll(() => page.getByTestId('ticket-view').getAttribute('data-status'), POLL).toBe('open');
    await expect(page.getByTestId('ticket-title').textContent()).resolves.toContain('Carla Existente');
    await rowsOf(page, 'open').filter({ hasText: 'Carla Existente' }).waitFor();

    // The same contact again: the server's error text.
    await page.getByTestId('tickets-new').click();
    await page.getByTestId('new-ticket-contact').fill('Carla Exis');
    await page.getByTestId('new-ticket-option').filter({ hasText: 'Carla Existente' }).click();
    await page.getByTestId('new-ticket-submit').click();
    await page.getByText("There's already an open ticket for this contact.").waitFor();
    await page.getByTestId('new-ticket-cancel').click();

    // A name nobody has: 'Add contact' opens the contact form with it, and saving starts the ticket.
    await page.getByTestId('tickets-new').click();
    await page.getByTestId('new-ticket-contact').fill('Rafael Novo');
    await page.getByTestId('new-ticket-add-option').waitFor();
    await screenshot(page, '43-new-ticket-add-contact');
    await page.getByTestId('new-ticket-add-option').click();
    await page.getByTestId('contact-modal').waitFor();
    await expect(page.getByTestId('contact-name').inputValue()).resolves.toBe('Rafael Novo');
    await screenshot(page, '43-new-ticket-contact-modal');
    await page.getByTestId('contact-number').fill('5511977770002');
    const carlaPath = new URL(page.url()).pathname;
    await page.getByTestId('contact-submit').click();
    // The form waits 400ms before saving, then the contact and the ticket are created in turn.
    await page.waitForURL((url) => /^\/tickets\/\d+$/.test(url.pathname) && url.pathname !== carlaPath);
    await expect.poll(() => page.getByTestId('ticket-title').textContent(), { timeout: 10_000 }).toContain('Rafael Novo');
    await expect.poll(() => page.getByTestId('ticket-view').getAttribute('data-status'), POLL).toBe('open');
    await rowsOf(page, 'open').filter({ hasText: 'Rafael Novo' }).waitFor();
    await context.close();
  });

  it("'Spy' opens a pending ticket without taking it", async () => {
    const ticketId = await writeIn({ from: '5511970000006', name: 'Sofia Espiada', body: 'Alguém aí?' });
    const { context, page } = await openTickets();
    await page.getByTestId('tab-pending').click();
    const row = rowsOf(page, 'pending').filter({ hasText: 'Sofia Espiada' });
    await row.getByTestId('ticket-spy').click();
    await page.waitForURL(`**/tickets/${ticketId}`);
    await expect.poll(() => page.getByTestId('ticket-view').getAttribute('data-status'), POLL).toBe('pending');
    // Still waiting in the queue, for anyone to accept.
    await expect(row.count()).resolves.toBe(1);
    await expect(row.getByTestId('ticket-user-tag').count()).resolves.toBe(0);
    await context.close();
  });

  it('counts unread tickets on the bell, alerts on a new message and opens the ticket from the list', async () => {
    const context = await newContext(browser, server.baseUrl);
    await context.grantPermissions(['notifications']);
    // Record the desktop notifications the page shows (headless Chromium displays none).
    await context.addInitScript(() => {
      const Original = window.Notification;
      const shown: string[] = [];
      Object.assign(window, { shownNotifications: shown });
      class Recording extends Original {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options);
          shown.push(`${title}|${options?.body ?? ''}`);
        }
      }
      Object.defineProperty(window, 'Notification', { value: Recording, configurable: true, writable: true });
    });
    const shown = () => page.evaluate(() => ('shownNotifications' in window && Array.isArray(window.shownNotifications) ? window.shownNotifications.map(String) : []));
    const page = await context.newPage();
    await openSignedIn(page, '/tickets');
    await page.getByTestId('tickets-manager').waitFor();
    const bell = page.getByTestId('notifications-button');
    await expect.poll(async () => Number(await bell.getAttribute('data-count')), POLL).toBeGreaterThan(0);
    const before = Number(await bell.getAttribute('data-count'));
    const alertsBefore = Number(await bell.getAttribute('data-alerts'));

    const ticketId = await writeIn({ from: '5511970000007', name: 'Tiago Novo', body: 'Preciso de um orçamento' });
    await expect.poll(async () => Number(await bell.getAttribute('data-count')), POLL).toBe(before + 1);
    await expect.poll(async () => Number(await bell.getAttribute('data-alerts')), POLL).toBe(alertsBefore + 1);
    await expect.poll(shown, POLL).toEqual(['New message from Tiago Novo|Preciso de um orçamento']);

    await bell.click();
    const item = page.getByTestId('notification-item').filter({ hasText: 'Tiago Novo' });
    await item.waitFor();
    await expect(item.textContent()).resolves.toContain('Preciso de um orçamento');
    await screenshot(page, '44-notifications');
    await item.click();
    await page.waitForURL(`**/tickets/${ticketId}`);
    await expect.poll(() => page.getByTestId('ticket-view').getAttribute('data-status'), POLL).toBe('pending');

    // A message on the ticket open in this focused window makes no alert...
    await page.bringToFront();
    await writeIn({ from: '5511970000007', name: 'Tiago Novo', body: 'Estou aguardando' });
    await page.getByTestId('messages-list').getByText('Estou aguardando').waitFor();
    // ...a message from a contact whose ticket is not open does.
    await writeIn({ from: '5511970000001', name: 'João Araújo', body: 'Alguma novidade?' });
    await expect.poll(shown, POLL).toContain('New message from João Araújo|Alguma novidade?');
    await expect(shown()).resolves.toHaveLength(2);
    await expect(bell.getAttribute('data-alerts')).resolves.toBe(String(alertsBefore + 2));
    await context.close();
  });

  it('closes every ticket after a confirmation, with the toast, in Portuguese', async () => {
    const { context, page } = await openTickets({ locale: 'pt-BR' });
    await page.getByTestId('tab-pending').click();
    await expect.poll(async () => Number(await countOf(page, 'pending')), POLL).toBeGreaterThan(0);
    await page.getByTestId('tickets-close-all').click();
    const dialog = page.getByTestId('close-all-dialog');
    await dialog.waitFor();
    // The dialog names what it closes.
    await expect(dialog.getByTestId('close-all-summary').textContent()).resolves.toMatch(
      /^Fecha todos os [1-9]\d* tickets em atendimento e aguardando: os seus \(\d+\), os aguardando \([1-9]\d*\) e os que outros atendentes estão atendendo \(\d+\)\.$/,
    );
    await expect(dialog.getByTestId('close-all-confirm').textContent()).resolves.toMatch(/^Fechar [1-9]\d*$/);
    await dialog.getByTestId('close-all-confirm').click();
    await page.getByText('Todos os tickets foram fechados').waitFor();
    await screenshot(page, '45-tickets-closed-all');
    await expect.poll(() => countOf(page, 'pending'), POLL).toBe('0');
    await expect.poll(() => countOf(page, 'open'), POLL).toBe('0');
    // Closed tickets leave the bell, read or not.
    await expect.poll(() => page.getByTestId('notifications-button').getAttribute('data-count'), POLL).toBe('0');
    await page.getByTestId('tickets-list-pending').getByTestId('tickets-empty').waitFor();
    await page.getByTestId('tab-open').click();
    await page.getByTestId('tickets-list-open').getByTestId('tickets-empty').waitFor();
    await expect(page.getByTestId('tickets-empty').textContent()).resolves.toContain('Nada aqui!');
    await context.close();
  });

  it('looks right on a phone', async () => {
    await writeIn({ from: '5511970000008', name: 'Helena Celular', body: 'Oi! Vocês abrem amanhã?' });
    const { context, page } = await openTickets({ mobile: true });
    await page.getByTestId('tab-pending').click();
    await rowsOf(page, 'pending').filter({ hasText: 'Helena Celular' }).waitFor();
    await screenshot(page, '46-tickets-phone');
    await page.getByTestId('tickets-new').click();
    await page.getByTestId('new-ticket-modal').waitFor();
    await screenshot(page, '47-new-ticket-phone');
    await context.close();
  });

  it("shows an agent only their queues' tickets, in the filter, the lists and the bell", async () => {
    const agent = { name: 'Vera Vendas', email: 'vera@e2e.test', password: 'vera-secret-1' };
    expect((await api('/users', { method: 'POST', body: { ...agent, profile: 'user', queueIds: [queues.sales] } })).status).toBe(201);
    const inSales = await writeIn({ from: '5511970000009', name: 'Marcos Vendas', body: 'Tem desconto?' });
    const inSupport = await writeIn({ from: '5511970000010', name: 'Lia Suporte', body: 'Não liga mais' });
    expect((await api(`/tickets/${inSales}`, { method: 'PUT', body: { queueId: queues.sales } })).status).toBe(200);
    expect((await api(`/tickets/${inSupport}`, { method: 'PUT', body: { queueId: queues.support } })).status).toBe(200);

    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page, '/tickets', agent);
    await page.getByTestId('tickets-manager').waitFor();
    await expect(page.getByTestId('tickets-show-all').count()).resolves.toBe(0);
    await expect(page.getByTestId('tickets-queue-filter-count').textContent()).resolves.toBe('1/1');
    await page.getByTestId('tab-pending').click();
    const pending = rowsOf(page, 'pending');
    await pending.filter({ hasText: 'Marcos Vendas' }).waitFor();
    await pending.filter({ hasText: 'Helena Celular' }).waitFor();
    await expect(pending.filter({ hasText: 'Lia Suporte' }).count()).resolves.toBe(0);
    await expect.poll(() => countOf(page, 'pending'), POLL).toBe('2');
    // The bell: unread tickets of her queue and without a queue, not Suporte's.
    const bell = page.getByTestId('notifications-button');
    await expect.poll(() => bell.getAttribute('data-count'), POLL).toBe('2');
    await writeIn({ from: '5511970000010', name: 'Lia Suporte', body: 'Alô?' });
    await writeIn({ from: '5511970000009', name: 'Marcos Vendas', body: 'Alô?' });
    // Once Marcos' message shows, Lia's (sent first) has been handled too: one alert, for Marcos.
    await expect.poll(() => pending.filter({ hasText: 'Marcos Vendas' }).getByTestId('ticket-last-message').textContent(), POLL).toBe('Alô?');
    await expect(bell.getAttribute('data-alerts')).resolves.toBe('1');
    await expect(bell.getAttribute('data-count')).resolves.toBe('2');
    await context.close();
  });

  it('scrolls ten thousand loaded tickets with a virtual list, loading pages near the bottom', { timeout: 240_000 }, async () => {
    const total = 10_000;
    seedClosedTickets(total);
    const { context, page } = await openTickets();
    await page.getByTestId('tab-resolved').click();
    const list = page.getByTestId('tickets-list-closed');
    // A tab's count is exact up to 1,000 and says '1,000 or more' past that (the badge shows 999+):
    // the list loads pages until the server says none follows, every closed ticket in the end.
    await expect.poll(async () => Number(await list.getAttribute('data-count')), POLL).toBe(1000);
    const count = closedTicketsInDatabase();
    expect(count).toBeGreaterThanOrEqual(total);

    // Scroll to the bottom frame after frame, as a user flinging the list would, until all is loaded.
    const result = await list.getByTestId('tickets-scroller').evaluate(
      (scroller, expected) =>
        new Promise<{ loaded: number; maxRows: number; frames: number[]; ms: number }>((resolve) => {
          const host = scroller.closest('[data-testid="tickets-list-closed"]');
          const started = performance.now();
          const frames: number[] = [];
          let maxRows = 0;
          let last = started;
          const step = (now: number) => {
            frames.push(now - last);
            last = now;
            scroller.scrollTop += 1500;
            maxRows = Math.max(maxRows, scroller.querySelectorAll('[data-testid="ticket-row"]').length);
            const loaded = Number(host?.getAttribute('data-loaded') ?? 0);
            if ((loaded >= expected && scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2) || now - started > 200_000) {
              resolve({ loaded, maxRows, frames, ms: now - started });
              return;
            }
            requestAnimationFrame(step);
          };
          requestAnimationFrame(step);
        }),
      count,
    );
    const sorted = [...result.frames].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    console.log(
      `virtual list: ${result.loaded} tickets in ${Math.round(result.ms)} ms, ${result.frames.length} frames, median frame ${median.toFixed(1)} ms, at most ${result.maxRows} rows in the page`,
    );
    expect(result.loaded).toBe(count);
    // Never more than a screenful and its margins in the page, however many are loaded.
    expect(result.maxRows).toBeLessThan(40);
    expect(median).toBeLessThan(50);
    // The oldest ticket ends the list (rows measured after the last frame may have grown it: at its bottom again).
    await expect
      .poll(async () => {
        await list.getByTestId('tickets-scroller').evaluate((scroller) => scroller.scrollTo(0, scroller.scrollHeight));
        return list.getByTestId('ticket-row').last().getByTestId('ticket-contact').textContent();
      }, POLL)
      .toBe('Carga 00001');
    await screenshot(page, '48-tickets-10000');
    await context.close();
  });

  it("counts a search found in thousands of tickets as '1.000+' in Portuguese, and exactly under that", async () => {
    // The ten thousand 'Carga' tickets of the test above: the count stops at 1,000 and says so.
    const { context, page } = await openTickets({ locale: 'pt-BR' });
    await page.getByTestId('tab-search').click();
    const input = page.getByTestId('tickets-search-input');
    await input.fill('carga');
    const count = page.getByTestId('tickets-search-count');
    await expect.poll(() => count.textContent(), POLL).toBe('1.000+ tickets encontrados');
    await expect(count.getAttribute('data-at-least')).resolves.toBe('true');
    await expect.poll(() => rowsOf(page, 'search').count(), POLL).toBeGreaterThan(0);
    await screenshot(page, '49-tickets-search-count');
    await input.fill('geladeira');
    await expect.poll(() => count.textContent(), POLL).toBe('1 ticket encontrado');
    await expect(count.getAttribute('data-at-least')).resolves.toBe('false');
    await context.close();
  });

  it('raised no uncaught error in any page', () => {
    expect(pageErrors).toEqual([]);
  });
});

/** Ten thousand closed tickets, oldest 'Carga 00001', each with its own contact, written in one transaction. */
/** How many resolved tickets the server's database holds (read straight from the file). */
function closedTicketsInDatabase(): number {
  const db = new SQLite(path.join(server.dataDir, 'zapdesk.sqlite'), { readonly: true });
  try {
    // The Resolved tab's 'Privados' list: group tickets are listed under 'Grupos' (the test above closes one).
    return (db.prepare("SELECT count(*) AS n FROM tickets WHERE status = 'closed' AND isGroup = 0").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

function seedClosedTickets(total: number): void {
  const db = new SQLite(path.join(server.dataDir, 'zapdesk.sqlite'));
  db.pragma('busy_timeout = 5000');
  const base = Date.parse('2025-01-01T08:00:00Z');
  const insertContact = db.prepare("INSERT INTO contacts (name, number, email, profilePicUrl, isGroup, searchText, createdAt, updatedAt) VALUES (?, ?, '', '', 0, ?, ?, ?)");
  const insertTicket = db.prepare(
    "INSERT INTO tickets (status, contactId, whatsappId, userId, queueId, lastMessage, unreadMessages, isGroup, createdAt, updatedAt) VALUES ('closed', ?, ?, NULL, NULL, ?, 0, 0, ?, ?)",
  );
  db.transaction(() => {
    for (let i = 1; i <= total; i += 1) {
      const name = `Carga ${String(i).padStart(5, '0')}`;
      const number = `55119${String(i).padStart(8, '0')}`;
      const at = new Date(base + i * 60_000).toISOString();
      const contact = insertContact.run(name, number, `${name.toLowerCase()} ${number}`, at, at);
      insertTicket.run(contact.lastInsertRowid, connectionId, `Mensagem de carga ${i}`, at, at);
    }
  })();
  db.close();
}
