/**
 * The inbox's details, tried as an agent would all day: quick answers from the keyboard, signing
 * in without stray errors, the bell without a badge at zero, dates in the interface's language,
 * and the chime that waits for the first click instead of warning.
 */
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZTicketListSchema } from '@zapdesk/shared/messaging';
import { ZSimulatorOutboxItemSchema } from '@zapdesk/shared/simulator';
import { launchBrowser, newContext, pageErrors, screenshot, openSignedIn } from './browser';
import { ADMIN, startServer, type RunningServer } from './server';
import { apiAs, idOf, scanWhenReady, signIn } from './simulator';

let server: RunningServer;
let browser: Browser;
let adminToken = '';
let connectionId = 0;

const api = (route: string, options: { method?: string; body?: unknown } = {}) => apiAs(server.baseUrl, () => adminToken)(route, options);

async function writeIn(from: string, name: string, body: string): Promise<void> {
  const response = await api(`/simulator/${connectionId}/inbound`, { method: 'POST', body: { from, name, body } });
  expect(response.status).toBe(200);
}

/** The page's joins (socket.io frames '42<ack>["join…') wait in the socket until `release()`. */
async function holdJoins(page: Page): Promise<{ held: string[]; release: () => void }> {
  const held: string[] = [];
  const live = { holding: true, toServer: (_frame: string) => {} };
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    const upstream = ws.connectToServer();
    live.toServer = (frame) => upstream.send(frame);
    ws.onMessage((message) => {
      if (live.holding && typeof message === 'string' && /^42\d*\["join/.test(message)) held.push(message);
      else upstream.send(message);
    });
    upstream.onMessage((message) => ws.send(message));
  });
  return {
    held,
    release: () => {
      live.holding = false;
      for (const frame of held) live.toServer(frame);
    },
  };
}

/** The bell's badge: MUI keeps the element and hides it with a class. */
function bellBadge(page: Page) {
  return page.getByTestId('notifications-count').locator('.MuiBadge-badge');
}

beforeAll(async () => {
  server = await startServer({ simulator: true });
  browser = await launchBrowser();
  adminToken = (await signIn(server.baseUrl)).token;
  connectionId = await idOf(await api('/whatsapp', { method: 'POST', body: { name: 'Loja', channel: 'simulator' } }));
  expect(connectionId).toBeGreaterThan(0);
  await scanWhenReady(api, connectionId);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function outbox() {
  return z.array(ZSimulatorOutboxItemSchema).parse(await (await api(`/simulator/${connectionId}/outbox`)).json());
}

async function ticketOf(from: string, status: 'pending' | 'open'): Promise<number> {
  const { tickets } = ZTicketListSchema.parse(await (await api(`/tickets?status=${status}&showAll=true`)).json());
  return tickets.find((ticket) => ticket.contact.number === from)?.id ?? 0;
}

/** A contact writes in, and the admin's browser opens and accepts the ticket. */
async function openAcceptedChat(page: Page, from: string, name: string): Promise<void> {
  await writeIn(from, name, 'Bom dia!');
  await expect.poll(() => ticketOf(from, 'pending')).toBeGreaterThan(0);
  await page.goto(`/tickets/${await ticketOf(from, 'pending')}`);
  await page.getByTestId('ticket-view').getByTestId('ticket-accept').click();
  await expect.poll(() => page.getByTestId('ticket-view').getAttribute('data-status')).toBe('open');
}

describe('own tickets', () => {
  it("keeps a ticket assigned to a user in their Working on and their bell, whatever their queues, 'All' and the queue filter say", async () => {
    const sales = await idOf(await api('/queue', { method: 'POST', body: { name: 'Vendas', color: '#1273DE', greetingMessage: '' } }));
    const support = await idOf(await api('/queue', { method: 'POST', body: { name: 'Suporte', color: '#0B7A3E', greetingMessage: '' } }));
    const owner = { name: 'Olga Dona', email: 'olga@e2e.test', password: 'olga-secret-1' };
    const ownerId = await idOf(await api('/users', { method: 'POST', body: { ...owner, profile: 'admin', queueIds: [sales] } }));
    expect(ownerId).toBeGreaterThan(0);
    const from = '5511977770004';
    await writeIn(from, 'Paula Outra Fila', 'Preciso de ajuda');
    await expect.poll(() => ticketOf(from, 'pending')).toBeGreaterThan(0);
    const ticketId = await ticketOf(from, 'pending');
    // Accepted for Olga in Suporte, a queue she is not in; the contact writes on.
    expect((await api(`/tickets/${ticketId}`, { method: 'PUT', body: { status: 'open', userId: ownerId, queueId: support } })).status).toBe(200);
    await writeIn(from, 'Paula Outra Fila', 'Alguém aí?');
    await writeIn(from, 'Paula Outra Fila', 'Oi?');

    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page, '/tickets', owner);
    await page.getByTestId('tickets-manager').waitFor();
    await page.getByTestId('tickets-show-all').locator('input').uncheck();
    await page.getByTestId('tab-open').click();
    const row = page.getByTestId('tickets-list-open').getByTestId('ticket-row').filter({ hasText: 'Paula Outra Fila' });
    await row.waitFor();
    await expect.poll(() => row.getByTestId('ticket-unread').textContent()).toBe('3');
    await expect.poll(() => page.getByTestId('notifications-button').getAttribute('data-count')).toBe('1');
    await screenshot(page, 'details-05-own-ticket-other-queue');
    // A new message keeps it there, live, and the bell counts it.
    await writeIn(from, 'Paula Outra Fila', 'Ainda espero');
    await expect.poll(() => row.getByTestId('ticket-last-message').textContent()).toBe('Ainda espero');
    await expect(page.getByTestId('notifications-button').getAttribute('data-count')).resolves.toBe('1');
    await context.close();
  });
});

describe('quick answers from the keyboard', () => {
  it('moves with the arrows, inserts with Enter or Tab (variables filled), closes with Escape, and never sends a bare /shortcut', async () => {
    for (const [shortcut, message] of [
      ['pragmatico', 'Olá {{name}}, resposta rápida!'],
      ['prazo', 'O prazo é de 3 dias úteis, {{name}}.'],
    ]) {
      expect((await api('/quickAnswers', { method: 'POST', body: { shortcut, message } })).status).toBe(201);
    }
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page);
    await openAcceptedChat(page, '5511977770003', 'Dora Teclado');
    const sentBefore = (await outbox()).length;
    const input = page.getByTestId('message-input');
    const options = page.getByTestId('quick-answers').getByTestId('quick-answer-option');

    await input.fill('/pra');
    await expect.poll(() => options.count()).toBe(2);
    // The first is highlighted; ArrowDown moves to the second, ArrowDown again wraps to the first.
    await expect(options.nth(0).getAttribute('aria-selected')).resolves.toBe('true');
    await input.press('ArrowDown');
    await expect(options.nth(1).getAttribute('aria-selected')).resolves.toBe('true');
    const second = (await options.nth(1).textContent()) ?? '';
    await expect(input.getAttribute('aria-activedescendant')).resolves.toBe(await options.nth(1).getAttribute('id'));
    await screenshot(page, 'details-10-quick-answers-keyboard');
    await input.press('Enter');
    const expected = second.includes('/prazo') ? 'O prazo é de 3 dias úteis, Dora Teclado.' : 'Olá Dora Teclado, resposta rápida!';
    await expect.poll(() => input.inputValue()).toBe(expected);
    await expect(page.getByTestId('quick-answers').count()).resolves.toBe(0);

    // Tab inserts the highlighted answer too.
    await input.fill('/prag');
    await expect.poll(() => options.count()).toBe(1);
    await input.press('Tab');
    await expect.poll(() => input.inputValue()).toBe('Olá Dora Teclado, resposta rápida!');

    // Enter with no answer to pick sends nothing; Escape closes the list and keeps the text.
    await input.fill('/zzz');
    await page.getByTestId('quick-answers').getByText('No quick answer found').waitFor();
    await input.press('Enter');
    await expect(input.inputValue()).resolves.toBe('/zzz');
    await input.fill('/pra');
    await expect.poll(() => options.count()).toBe(2);
    await input.press('Escape');
    await expect(page.getByTestId('quick-answers').count()).resolves.toBe(0);
    await expect(input.inputValue()).resolves.toBe('/pra');
    await page.waitForTimeout(500);
    expect((await outbox()).length).toBe(sentBefore);
    await context.close();
  });
});

describe('the menu and the keyboard', () => {
  it('folds its sections so Administration stays in reach at 1440×900, skips to the content, and shows where the focus is', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await openSignedIn(page);
    // The side menu is lists of links.
    await expect(page.getByTestId('side-menu').locator('ul > :not(li)').count()).resolves.toBe(0);
    const bulk = page.getByTestId('menu-section-bulk');
    await expect(bulk.getAttribute('aria-expanded')).resolves.toBe('true');
    await bulk.click();
    await expect.poll(() => bulk.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => page.getByTestId('menu-bulkText').count()).toBe(0);
    const settings = page.getByTestId('menu-settings');
    const box = await settings.boundingBox();
    expect(box && box.y + box.height).toBeLessThanOrEqual(900);
    await screenshot(page, 'details-20-menu-folded-1440');
    // Remembered after a reload.
    await page.reload();
    await page.getByTestId('app-bar').waitFor();
    await expect(page.getByTestId('menu-section-bulk').getAttribute('aria-expanded')).resolves.toBe('false');

    // The first Tab reaches 'Skip to content', shown while focused; Enter moves past the menu.
    await page.goto('/tickets');
    await page.getByTestId('tickets-manager').waitFor();
    await page.keyboard.press('Tab');
    const skip = page.getByTestId('skip-to-content');
    await expect(skip.evaluate((element) => element === document.activeElement)).resolves.toBe(true);
    const skipBox = await skip.boundingBox();
    expect(skipBox && skipBox.y).toBeGreaterThanOrEqual(0);
    await screenshot(page, 'details-21-skip-link');
    await page.keyboard.press('Enter');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('main-content');
    // Every control the keyboard reaches shows a focus ring: the next Tab stops are in the page.
    for (let i = 0; i < 4; i += 1) {
      await page.keyboard.press('Tab');
      const shown = await page.evaluate(() => {
        const active = document.activeElement;
        if (!active) return 'nothing focused';
        // A text field shows its focus with its own border (MUI marks it Mui-focused).
        if (active.closest('.MuiInputBase-root.Mui-focused')) return 'field border';
        return getComputedStyle(active).outlineStyle === 'none' ? `no ring on ${active.outerHTML.slice(0, 80)}` : 'ring';
      });
      expect(['ring', 'field border']).toContain(shown);
    }
    await context.close();
  });
});

describe('close all', () => {
  it("names what it closes, other agents' tickets included, before an admin closes them", async () => {
    const agent = { name: 'Nina Agente', email: 'nina@e2e.test', password: 'nina-secret-1' };
    const desk = await idOf(await api('/queue', { method: 'POST', body: { name: 'Balcão', color: '#6D4C41', greetingMessage: '' } }));
    expect((await api('/users', { method: 'POST', body: { ...agent, profile: 'user', queueIds: [desk] } })).status).toBe(201);
    const ninaToken = (await signIn(server.baseUrl, agent)).token;
    const from = '5511977770007';
    await writeIn(from, 'Otávio Da Nina', 'Oi Nina');
    await expect.poll(() => ticketOf(from, 'pending')).toBeGreaterThan(0);
    const ninas = await ticketOf(from, 'pending');
    const accepted = await apiAs(server.baseUrl, () => ninaToken)(`/tickets/${ninas}`, { method: 'PUT', body: { status: 'open' } });
    expect(accepted.status).toBe(200);
    const summary = (await (await api('/ticketsClosed/summary')).json()) as { own: number; waiting: number; others: number };
    expect(summary.others).toBeGreaterThanOrEqual(1);
    const total = summary.own + summary.waiting + summary.others;

    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page, '/tickets');
    await page.getByTestId('tickets-close-all').click();
    const dialog = page.getByTestId('close-all-dialog');
    await dialog.waitFor();
    await expect(dialog.getByTestId('close-all-summary').textContent()).resolves.toBe(
      `Closes all ${total} open and waiting tickets: yours (${summary.own}), the waiting ones (${summary.waiting}) and those other agents are working on (${summary.others}).`,
    );
    await expect(dialog.getByTestId('close-all-confirm').textContent()).resolves.toBe(`Close ${total}`);
    await screenshot(page, 'details-40-close-all');
    await dialog.getByTestId('close-all-confirm').click();
    await page.getByText('All tickets were closed').waitFor();
    await expect.poll(async () => ((await (await api(`/tickets/${ninas}`)).json()) as { status: string }).status).toBe('closed');
    await context.close();
  });
});

describe('attachments', () => {
  it('waits in a preview with a caption and remove buttons, sends nothing on pick, and sends with the caption on the first', async () => {
    const pixel = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    // A contract of 1.2 MB: a PDF with room to spare after its end.
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'), Buffer.alloc(1_250_000, 0x20)]);
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page);
    const from = '5511977770010';
    await openAcceptedChat(page, from, 'Hugo Anexo');
    // The contact sends a document with a long name first: it is cut short, whole on hover.
    const longName = 'Proposta comercial revisada - Hugo Anexo - março de 2025 (versão final assinada).pdf';
    const inbound = await api(`/simulator/${connectionId}/inbound`, {
      method: 'POST',
      body: { from, name: 'Hugo Anexo', media: { base64: pdf.subarray(0, 90).toString('base64'), mimetype: 'application/pdf', filename: longName } },
    });
    expect(inbound.status).toBe(200);
    const theirDocument = page.locator('[data-testid="message"][data-from-me="false"]').getByTestId('message-document-name');
    await theirDocument.waitFor();
    await expect(theirDocument.getAttribute('title')).resolves.toBe(longName);
    await expect(theirDocument.evaluate((element) => element.scrollWidth > element.clientWidth)).resolves.toBe(true);
    const before = (await outbox()).length;
    await page.getByTestId('message-file').setInputFiles([
      { name: 'foto.png', mimeType: 'image/png', buffer: pixel },
      { name: 'contrato.pdf', mimeType: 'application/pdf', buffer: pdf },
      { name: 'errado.pdf', mimeType: 'application/pdf', buffer: pdf },
    ]);
    const preview = page.getByTestId('attachments-preview');
    await preview.waitFor();
    await expect(preview.getByTestId('attachment-item').count()).resolves.toBe(3);
    await expect(preview.getByTestId('attachment-thumbnail').count()).resolves.toBe(1);
    await expect(preview.getByTestId('attachment-name').allTextContents()).resolves.toEqual(['foto.png', 'contrato.pdf', 'errado.pdf']);
    await expect(preview.getByTestId('attachment-size').first().textContent()).resolves.toBe(`${pixel.length} B`);
    await preview.getByTestId('attachment-remove').nth(2).click();
    await expect(preview.getByTestId('attachment-item').count()).resolves.toBe(2);
    await preview.getByTestId('attachment-caption').fill('Segue o contrato');
    await screenshot(page, 'details-45-attachments-preview');
    // Nothing left on pick.
    expect((await outbox()).length).toBe(before);
    await preview.getByTestId('attachments-send').click();
    await expect.poll(async () => (await outbox()).length).toBe(before + 2);
    const sent = (await outbox()).slice(before);
    expect(sent.map((item) => [item.kind, item.filename, item.body])).toEqual([
      ['media', 'foto.png', 'Segue o contrato'],
      ['media', 'contrato.pdf', ''],
    ]);
    await expect.poll(() => preview.count()).toBe(0);

    // Two messages: the picture with the caption, then the contract by name and size, a download.
    const mine = page.locator('[data-testid="message"][data-from-me="true"]');
    const picture = mine.filter({ has: page.getByTestId('message-image') });
    await picture.waitFor();
    await expect(picture.getByTestId('message-body').textContent()).resolves.toBe('Segue o contrato');
    const document = mine.filter({ has: page.getByTestId('message-document') });
    await document.waitFor();
    await expect(document.getByTestId('message-document-name').textContent()).resolves.toBe('contrato.pdf');
    await expect(document.getByTestId('message-document-size').textContent()).resolves.toBe('1.2 MB');
    await expect(document.getByTestId('message-body').count()).resolves.toBe(0);
    const link = document.getByTestId('message-download');
    await expect(link.getAttribute('download')).resolves.toBe('contrato.pdf');
    await expect(link.getAttribute('aria-label')).resolves.toBe('Download contrato.pdf, 1.2 MB');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('contrato.pdf');
    // The ticket's line in the list names the document.
    const ticketId = await ticketOf(from, 'open');
    const line = page.locator(`[data-testid="ticket-row"][data-id="${ticketId}"]`).getByTestId('ticket-last-message');
    await expect.poll(() => line.textContent(), { timeout: 5000 }).toBe('📄 contrato.pdf');
    await page.setViewportSize({ width: 1440, height: 900 });
    await screenshot(page, 'details-46-document-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/tickets/${ticketId}`);
    await document.getByTestId('message-document-name').waitFor();
    await screenshot(page, 'details-47-document-phone');
    await context.close();
  });
});

describe('transfer', () => {
  it("starts on the ticket's queue, lists its agents at once, and says where the ticket goes", async () => {
    const finance = await idOf(await api('/queue', { method: 'POST', body: { name: 'Financeiro', color: '#8E24AA', greetingMessage: '' } }));
    const rui = { name: 'Rui Financeiro', email: 'rui@e2e.test', password: 'rui-secret-1' };
    const ruiId = await idOf(await api('/users', { method: 'POST', body: { ...rui, profile: 'user', queueIds: [finance] } }));
    // Lia has the app open in her own browser; Rui is not signed in.
    const lia = { name: 'Lia Financeiro', email: 'lia@e2e.test', password: 'lia-secret-1' };
    const liaId = await idOf(await api('/users', { method: 'POST', body: { ...lia, profile: 'user', queueIds: [finance] } }));
    const liaContext = await newContext(browser, server.baseUrl);
    await openSignedIn(await liaContext.newPage(), '/', lia);
    await expect.poll(async () => ((await (await api('/users/online')).json()) as { userIds: number[] }).userIds).toContain(liaId);
    const from = '5511977770009';
    await writeIn(from, 'Beto Boleto', 'Segunda via, por favor');
    await expect.poll(() => ticketOf(from, 'pending')).toBeGreaterThan(0);
    const ticketId = await ticketOf(from, 'pending');
    expect((await api(`/tickets/${ticketId}`, { method: 'PUT', body: { queueId: finance } })).status).toBe(200);

    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page, `/tickets/${ticketId}`);
    await page.getByTestId('ticket-view').getByTestId('ticket-accept').click();
    await expect.poll(() => page.getByTestId('ticket-view').getAttribute('data-status')).toBe('open');
    await page.getByTestId('ticket-transfer').click();
    const modal = page.getByTestId('transfer-modal');
    await modal.waitFor();
    await expect(modal.getByTestId('transfer-queue').getByRole('combobox').textContent()).resolves.toBe('Financeiro');
    await expect(modal.getByTestId('transfer-outcome').textContent()).resolves.toBe('The ticket goes to the waiting list of Financeiro, for its agents to take.');
    // The queue's agents, before typing anything: who is online first, marked in words.
    await modal.getByTestId('transfer-user').click();
    const option = page.getByRole('option', { name: 'Rui Financeiro', exact: true });
    await option.waitFor();
    const options = page.getByTestId('transfer-user-option');
    await expect(options.evaluateAll((items) => items.map((item) => [item.textContent, item.getAttribute('data-online')]))).resolves.toEqual([
      ['Lia Financeiroonline', 'true'],
      ['Rui Financeiro', 'false'],
    ]);
    await expect(page.getByRole('option', { name: 'Lia Financeiro online', exact: true }).getByTestId('transfer-user-online').isVisible()).resolves.toBe(true);
    await screenshot(page, 'details-51-transfer-online');
    await option.click();
    await expect(modal.getByTestId('transfer-outcome').textContent()).resolves.toBe('The ticket goes to Rui Financeiro, in Financeiro.');
    await screenshot(page, 'details-50-transfer');
    await modal.getByTestId('transfer-submit').click();
    await expect.poll(async () => ((await (await api(`/tickets/${ticketId}`)).json()) as { userId: number | null }).userId).toBe(ruiId);
    await context.close();
    await liaContext.close();
  });
});

describe('spam', () => {
  it('resolves a waiting ticket without accepting it first', async () => {
    const from = '5511977770008';
    await writeIn(from, 'Spam Promo', 'GANHE DINHEIRO FÁCIL');
    await expect.poll(() => ticketOf(from, 'pending')).toBeGreaterThan(0);
    const ticketId = await ticketOf(from, 'pending');
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page, `/tickets/${ticketId}`);
    await page.getByTestId('ticket-view').getByTestId('ticket-accept').waitFor();
    await page.getByTestId('ticket-resolve').click();
    await expect.poll(() => page.getByTestId('ticket-view').getAttribute('data-status')).toBe('closed');
    const ticket = (await (await api(`/tickets/${ticketId}`)).json()) as { status: string };
    expect(ticket.status).toBe('closed');
    await context.close();
  });
});

describe('a deleted ticket', () => {
  it('tells the one who deleted it that it is deleted, and others on it that the ticket they were on is gone', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await openSignedIn(page);
    await openAcceptedChat(page, '5511977770005', 'Ema Apagada');
    // On a wide screen a long message stays within the 600px message column.
    await writeIn('5511977770005', 'Ema Apagada', 'Uma mensagem bem comprida, '.repeat(20));
    const long = page.getByTestId('message').filter({ hasText: 'Uma mensagem bem comprida' }).locator('> div').first();
    await long.waitFor();
    const width = (await long.boundingBox())?.width ?? 0;
    expect(width).toBeGreaterThan(400);
    expect(width).toBeLessThanOrEqual(600);
    await page.getByTestId('ticket-delete').click();
    await page.getByTestId('confirmation-confirm').click();
    await page.locator('.Toastify__toast', { hasText: 'Ticket deleted sucessfully.' }).first().waitFor();
    await page.waitForURL('**/tickets');
    await page.waitForTimeout(500);
    await expect(page.locator('.Toastify__toast', { hasText: 'The ticket you were on has been deleted.' }).count()).resolves.toBe(0);
    await context.close();
  });
});

describe('translations', () => {
  it('speaks Portuguese in the emoji picker, the Kanban’s screen-reader texts and MUI’s own texts', async () => {
    const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR' });
    const page = await context.newPage();
    await openSignedIn(page);
    await openAcceptedChat(page, '5511977770006', 'Gabi Idioma');
    // The emoji picker: its search and categories, and a search by a Portuguese word.
    await page.getByTestId('message-emoji').click();
    const picker = page.getByTestId('emoji-picker');
    const search = picker.locator('input');
    await search.waitFor();
    await expect(search.getAttribute('placeholder')).resolves.toBe('Pesquisar');
    await picker.getByText('animais e natureza', { exact: false }).first().waitFor();
    await search.fill('sorriso');
    await expect.poll(() => picker.locator('[data-epr-unified]').count()).toBeGreaterThan(0);
    await screenshot(page, 'details-30-emoji-pt');
    await page.keyboard.press('Escape');

    // MUI's own texts: the contact search's open button.
    await page.goto('/tickets');
    await page.getByTestId('tickets-new').click();
    await page.getByTestId('new-ticket-modal').waitFor();
    await expect(page.getByTestId('new-ticket-modal').locator('.MuiAutocomplete-popupIndicator').getAttribute('aria-label')).resolves.toBe('Abrir');
    await page.getByTestId('new-ticket-cancel').click();

    // The Kanban: what a screen reader is told, and hears while a card moves from the keyboard.
    await page.goto('/Kanban');
    const card = page.getByTestId('kanban-card').filter({ hasText: 'Gabi Idioma' });
    await card.waitFor();
    await expect(page.locator('[id^="DndDescribedBy"]').first().textContent()).resolves.toContain('Para pegar um cartão, pressione Espaço ou Enter');
    await card.focus();
    await page.keyboard.press('Space');
    const live = page.locator('[id^="DndLiveRegion"]').first();
    // Picked up, then over its own column. Escape is pressed once the second is said: the keyboard
    // sensor starts listening for it a moment after the pick-up's announcement.
    await expect.poll(() => live.textContent()).toMatch(/O cartão de Gabi Idioma está sobre a coluna \S/);
    await page.keyboard.press('Escape');
    await expect.poll(() => live.textContent()).toContain('A movimentação do cartão de Gabi Idioma foi cancelada.');
    await context.close();
  });
});

describe('on a phone', () => {
  /** Nothing may stick out of the 390×844 screen: the page itself would scroll and slide the header away (lists scroll inside). */
  async function fitsScreen(page: Page): Promise<void> {
    await expect(page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight])).resolves.toEqual([390, 844]);
  }

  it('fits the changed screens at 390×844: the list with Close all, quick answers, the attachments preview, transfer, the menu and the call settings', async () => {
    expect((await api('/quickAnswers', { method: 'POST', body: { shortcut: 'celular', message: 'Pode me chamar no celular, {{name}}.' } })).status).toBe(201);
    const context = await newContext(browser, server.baseUrl, { mobile: true });
    const page = await context.newPage();
    await openSignedIn(page);
    await openAcceptedChat(page, '5511977770011', 'Fábio Celular');
    await page.goto('/tickets');
    await page.getByTestId('ticket-row').first().waitFor();
    await fitsScreen(page);
    await screenshot(page, 'details-60-phone-list');
    await page.getByTestId('tickets-close-all').click();
    await page.getByTestId('close-all-summary').waitFor();
    await fitsScreen(page);
    await screenshot(page, 'details-61-phone-close-all');
    await page.keyboard.press('Escape');

    await page.getByTestId('ticket-row').filter({ hasText: 'Fábio Celular' }).click();
    const input = page.getByTestId('message-input');
    await input.fill('/cel');
    await page.getByTestId('quick-answers').getByTestId('quick-answer-option').first().waitFor();
    await fitsScreen(page);
    await screenshot(page, 'details-62-phone-quick-answers');
    await input.press('Escape');
    await input.fill('');

    const pixel = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    await page.getByTestId('message-file').setInputFiles([
      { name: 'foto-do-produto-com-um-nome-comprido.png', mimeType: 'image/png', buffer: pixel },
      { name: 'orcamento.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') },
    ]);
    await page.getByTestId('attachments-preview').waitFor();
    await fitsScreen(page);
    await screenshot(page, 'details-63-phone-attachments');
    await page.getByTestId('attachments-cancel').click();
    await expect.poll(() => page.getByTestId('attachments-preview').count()).toBe(0);

    await page.getByTestId('ticket-transfer').click();
    await page.getByTestId('transfer-modal').waitFor();
    // The ticket has no queue: typing three letters searches every agent.
    await page.getByTestId('transfer-user').fill('Adm');
    await page.getByTestId('transfer-user-option').first().waitFor();
    await fitsScreen(page);
    await screenshot(page, 'details-64-phone-transfer');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');

    await page.goto('/settings');
    await page.getByTestId('setting-row-callMessage').scrollIntoViewIfNeeded();
    await fitsScreen(page);
    await screenshot(page, 'details-65-phone-call-settings');
    await page.getByTestId('drawer-toggle').click();
    await page.getByTestId('menu-section-admin').waitFor();
    await screenshot(page, 'details-66-phone-menu');
    await context.close();
  });
});

describe('small things that looked broken', () => {
  it('opens the login page without a console error, and a failed attempt’s error leaves once signed in', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
    });
    const refreshes: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/auth/refresh_token')) refreshes.push(response.status());
    });
    await page.goto('/login');
    await page.getByTestId('login-page').waitFor();
    // Nobody signed in on this browser: the app does not ask for a refresh (which would be a 401), nothing in the console.
    await page.waitForTimeout(300);
    expect(refreshes).toEqual([]);
    expect(errors).toEqual([]);

    await page.getByTestId('login-email').fill(ADMIN.email);
    await page.getByTestId('login-password').fill('not-the-password');
    await page.getByTestId('login-submit').click();
    const failed = page.locator('.Toastify__toast--error');
    await failed.waitFor();
    await screenshot(page, 'details-01-login-failed');
    await page.getByTestId('login-password').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('app-bar').waitFor();
    await expect.poll(() => failed.count()).toBe(0);
    await context.close();
  });

  it('hides the bell’s badge at zero and shows it when a message is waiting', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    // Nothing waiting: earlier tests' tickets are closed first.
    expect((await api('/ticketsClosed', { method: 'POST', body: {} })).status).toBe(200);
    await openSignedIn(page);
    await expect.poll(() => page.getByTestId('notifications-button').getAttribute('data-count')).toBe('0');
    await expect(bellBadge(page).getAttribute('class')).resolves.toContain('MuiBadge-invisible');
    await writeIn('5511977770001', 'Bruna Sino', 'Olá, tem alguém aí?');
    await expect.poll(() => page.getByTestId('notifications-button').getAttribute('data-count')).toBe('1');
    await expect(bellBadge(page).getAttribute('class')).resolves.not.toContain('MuiBadge-invisible');
    await expect(bellBadge(page).textContent()).resolves.toBe('1');
    await context.close();
  });

  it('counts a message that came while the page was still joining its live rooms', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    expect((await api('/ticketsClosed', { method: 'POST', body: {} })).status).toBe(200);
    // The page's joins (socket.io frames '42<ack>["join…') wait in the socket until the customer has written.
    const { held, release } = await holdJoins(page);
    await openSignedIn(page);
    await expect.poll(() => held.length).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('notifications-button').getAttribute('data-count')).toBe('0');
    await writeIn('5511977770012', 'Íris Cedo', 'Cheguei antes de a página entrar nas salas');
    release();
    await expect.poll(() => page.getByTestId('notifications-button').getAttribute('data-count')).toBe('1');
    await context.close();
  });

  it('leaves, saying so, a ticket deleted while the page was still joining its live rooms', async () => {
    await writeIn('5511977770013', 'Teo Apagado', 'Vou ser apagado já já');
    const findTicket = async () => {
      const { tickets } = ZTicketListSchema.parse(await (await api('/tickets?status=pending&showAll=true')).json());
      return tickets.find((ticket) => ticket.contact.number === '5511977770013')?.id ?? 0;
    };
    await expect.poll(findTicket).toBeGreaterThan(0);
    const ticketId = await findTicket();
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    // The page's joins wait in the socket: the deletion's live event reaches nobody on this page.
    const { held, release } = await holdJoins(page);
    await openSignedIn(page, `/tickets/${ticketId}`);
    await page.getByTestId('ticket-view').getByText('Vou ser apagado já já').waitFor();
    await expect.poll(() => held.length).toBeGreaterThan(0);
    expect((await api(`/tickets/${ticketId}`, { method: 'DELETE' })).status).toBe(204);
    release();
    // Joined: the ticket read again is gone, and the page says it as the live event would have.
    await page.locator('.Toastify__toast', { hasText: 'The ticket you were on has been deleted.' }).first().waitFor();
    await page.waitForURL('**/tickets');
    await page.waitForTimeout(300);
    await expect(page.locator('.Toastify__toast--error').count()).resolves.toBe(0);
    await context.close();
  });

  it('writes dates in the interface’s language', async () => {
    const pad = (n: number) => String(n).padStart(2, '0');
    for (const [locale, expected] of [
      ['en-US', (d: Date) => `${pad(d.getMonth() + 1)}/${pad(d.getDate())}/${pad(d.getFullYear() % 100)}`],
      ['pt-BR', (d: Date) => `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${pad(d.getFullYear() % 100)}`],
    ] as const) {
      const context = await newContext(browser, server.baseUrl, { locale });
      const page = await context.newPage();
      await openSignedIn(page, '/connections');
      const updated = page.getByTestId('connection-updated').first();
      await updated.waitFor();
      // The connection was updated today: its 'last update' is today's date in the language's order.
      await expect(updated.textContent()).resolves.toMatch(new RegExp(`^${expected(new Date()).replace(/\//g, '\\/')} \\d{2}:\\d{2}$`));
      await context.close();
    }
  });

  it('keeps the chime silent until the first click instead of warning, then chimes', async () => {
    const context = await newContext(browser, server.baseUrl);
    // Counts the chime's notes: the test cannot hear them. And reports the page's user activation
    // as a browser does (none until a click or key press): the automated Chromium reports every
    // page as already activated.
    await context.addInitScript(() => {
      let activated = false;
      for (const type of ['pointerdown', 'keydown']) window.addEventListener(type, () => (activated = true), true);
      Object.defineProperty(Navigator.prototype, 'userActivation', { configurable: true, get: () => ({ hasBeenActive: activated, isActive: activated }) });
      const counter = window as unknown as { chimeNotes: number };
      counter.chimeNotes = 0;
      // eslint-disable-next-line @typescript-eslint/unbound-method -- called below on the context it belongs to
      const original = AudioContext.prototype.createOscillator;
      AudioContext.prototype.createOscillator = function (this: AudioContext) {
        counter.chimeNotes += 1;
        return original.call(this);
      };
    });
    const signInPage = await context.newPage();
    await openSignedIn(signInPage);
    await signInPage.close();
    // A page that has had no click or key press yet, signed in by the refresh cookie.
    const page = await context.newPage();
    const warnings: string[] = [];
    page.on('console', (message: ConsoleMessage) => {
      if (/AudioContext/i.test(message.text())) warnings.push(message.text());
    });
    await page.goto('/tickets');
    await page.getByTestId('tickets-page').waitFor();
    const alerts = async () => Number((await page.getByTestId('notifications-button').getAttribute('data-alerts')) ?? 0);
    const notes = () => page.evaluate(() => (window as unknown as { chimeNotes: number }).chimeNotes);
    // Alerts come from live events, which reach the page once its socket has joined its rooms (a
    // moment after the page shows, longer on a busy machine): a customer writes until one arrives.
    await expect.poll(async () => (await writeIn('5511977770001', 'Ana Som', 'Alguém aí?'), alerts()), { interval: 1000 }).toBeGreaterThan(0);
    const before = await alerts();
    await writeIn('5511977770002', 'Caio Som', 'Primeira mensagem');
    await expect.poll(alerts).toBe(before + 1);
    expect(await notes()).toBe(0);
    expect(warnings).toEqual([]);

    await page.getByTestId('tickets-page').click({ position: { x: 5, y: 5 } });
    await writeIn('5511977770002', 'Caio Som', 'Segunda mensagem');
    await expect.poll(alerts).toBe(before + 2);
    await expect.poll(notes).toBeGreaterThan(0);
    expect(warnings).toEqual([]);
    await context.close();
  });

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
