/**
 * A Brazilian team's first day, in its language: ticket list lines for audio, location, photo and
 * contact cards in Portuguese (and Spanish); counts through plural forms ('0 números', '1 número');
 * exports whose column titles, dates (in the browser's time zone) and statuses are in Portuguese;
 * a toast after a transfer and after a save. At 1440×900 and 390×844.
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZAuditListSchema } from '@zapdesk/shared/audit';
import { ZTicketListSchema } from '@zapdesk/shared/messaging';
import { launchBrowser, pageErrors, screenshot, openSignedIn } from './browser';
import { startServer, type RunningServer } from './server';
import { apiAs, idOf, scanWhenReady, signIn, type Api } from './simulator';

let server: RunningServer;
let browser: Browser;
let api: Api;
let token = '';
let phone = 0;
let salesId = 0;

const TIME_ZONE = 'America/Sao_Paulo';
/** Conditions are waited for, never timed: a busy machine gets 15 s. */
const POLL = { timeout: 15_000 };
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const CUSTOMERS = {
  audio: { from: '5511911110001', name: 'Ana Ribeiro' },
  location: { from: '5511911110002', name: 'Lucas Almeida' },
  photo: { from: '5511911110003', name: 'Fernanda Costa' },
  card: { from: '5511911110004', name: 'Carlos Pereira' },
};
type Kind = keyof typeof CUSTOMERS;
const LINES = {
  pt: { audio: '🎤 Áudio', location: '📍 Localização', photo: '📷 Foto', card: '👤 Cartão de contato' },
  es: { audio: '🎤 Audio', location: '📍 Ubicación', photo: '📷 Foto', card: '👤 Tarjeta de contacto' },
};

/** A context in a language and São Paulo's time zone, its page errors collected like every test's. */
async function contextIn(locale: string, mobile: boolean): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: server.baseUrl,
    locale,
    timezoneId: TIME_ZONE,
    viewport: mobile ? { width: 390, height: 844 } : { width: 1440, height: 900 },
    deviceScaleFactor: 1,
    acceptDownloads: true,
  });
  context.setDefaultTimeout(15_000);
  context.on('page', (page) => page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`)));
  return context;
}

async function ticketOf(from: string, status: 'pending' | 'open' | 'closed'): Promise<number> {
  const { tickets } = ZTicketListSchema.parse(await (await api(`/tickets?status=${status}&showAll=true`)).json());
  return tickets.find((ticket) => ticket.contact.number === from)?.id ?? 0;
}

function toast(page: Page, text: string) {
  return page.locator('.Toastify__toast', { hasText: text }).first();
}

async function download(page: Page, testId: string): Promise<string[][]> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  expect(file.suggestedFilename()).toBe('zdg.csv');
  const text = readFileSync((await file.path()) ?? '', 'utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  return text
    .slice(1)
    .trim()
    .split('\r\n')
    .map((line) => line.slice(1, -1).split('";"'));
}

/** dd/mm/aaaa HH:mm in São Paulo, as a Brazilian reads the moment. */
function inSaoPaulo(iso: string): string {
  const date = new Date(iso);
  const day = new Intl.DateTimeFormat('pt-BR', { timeZone: TIME_ZONE, day: '2-digit', month: '2-digit', year: 'numeric' }).format(date);
  const time = new Intl.DateTimeFormat('pt-BR', { timeZone: TIME_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(date);
  return `${day} ${time}`;
}

/** The pending list lines of the four customers, in the page's language. */
async function expectListLines(page: Page, lines: Record<Kind, string>, kinds: Kind[] = ['audio', 'location', 'photo', 'card']): Promise<void> {
  await page.goto('/tickets');
  await page.getByTestId('tab-pending').click();
  const list = page.getByTestId('tickets-list-pending');
  for (const kind of kinds) {
    const row = list.getByTestId('ticket-row').filter({ hasText: CUSTOMERS[kind].name });
    await expect.poll(() => row.getByTestId('ticket-last-message').textContent(), POLL).toBe(lines[kind]);
  }
}

beforeAll(async () => {
  server = await startServer({ simulator: true, env: { GROUP_PACE_SECONDS: '0-1' } });
  browser = await launchBrowser();
  token = (await signIn(server.baseUrl)).token;
  api = apiAs(server.baseUrl, () => token);
  phone = await idOf(await api('/whatsapp', { method: 'POST', body: { name: 'Loja Centro', channel: 'simulator', isDefault: true } }));
  await scanWhenReady(api, phone);
  salesId = await idOf(await api('/queue', { method: 'POST', body: { name: 'Vendas', color: '#1273DE', greetingMessage: '' } }));
  const inbound = async (body: Record<string, unknown>) => expect((await api(`/simulator/${phone}/inbound`, { method: 'POST', body })).status).toBe(200);
  await inbound({ ...CUSTOMERS.audio, media: { base64: Buffer.from('OggS-voz').toString('base64'), mimetype: 'audio/ogg; codecs=opus', filename: 'voz.ogg' } });
  await inbound({ ...CUSTOMERS.location, location: { latitude: -23.5505, longitude: -46.6333 } });
  await inbound({ ...CUSTOMERS.photo, media: { base64: PIXEL_PNG, mimetype: 'image/png', filename: '3EB0C7A1.png' } });
  await inbound({ ...CUSTOMERS.card, vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Zé da Padaria\nTEL;type=CELL:+5511955554444\nEND:VCARD' });
  // Inbound messages are stored a moment later: wait for the four tickets.
  const deadline = Date.now() + 20_000;
  for (const customer of Object.values(CUSTOMERS)) {
    while ((await ticketOf(customer.from, 'pending')) === 0) {
      if (Date.now() > deadline) throw new Error(`no ticket for ${customer.name}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the first day in Portuguese', () => {
  it('at 1440×900: media list lines, plurals, a toast after a transfer and a save, exports in Portuguese with local dates', async () => {
    const context = await contextIn('pt-BR', false);
    const page = await context.newPage();
    await openSignedIn(page);
    await expectListLines(page, LINES.pt);
    await screenshot(page, 'first-day-language-01-list-1440');

    // A transfer says where the ticket went.
    const ticketId = await ticketOf(CUSTOMERS.audio.from, 'pending');
    expect((await api(`/tickets/${ticketId}`, { method: 'PUT', body: { status: 'open' } })).status).toBe(200);
    await page.goto(`/tickets/${ticketId}`);
    await page.getByTestId('ticket-transfer').click();
    await page.getByTestId('transfer-queue').getByRole('combobox').click();
    await page.getByRole('option', { name: 'Vendas', exact: true }).click();
    await page.getByTestId('transfer-submit').click();
    await toast(page, 'Ticket transferido para a fila Vendas.').waitFor();
    await screenshot(page, 'first-day-language-02-transfer-toast-1440');

    // A save says it was saved.
    await page.goto('/queues');
    await page.getByTestId('queue-row').filter({ hasText: 'Vendas' }).getByTestId('queue-edit').click();
    await page.getByTestId('queue-greeting').fill('Olá! Em que podemos ajudar?');
    await page.getByTestId('queue-submit').click();
    await toast(page, 'Fila salva com sucesso').waitFor();

    // Counts: '0 números' before typing, then '1 número'; the send's toast agrees.
    await page.getByTestId('menu-bulkText').click();
    await expect.poll(() => page.getByTestId('campaign-numbers-count').textContent(), POLL).toMatch(/^0 números · /);
    await page.getByTestId('campaign-numbers').fill('5511933332222');
    await expect.poll(() => page.getByTestId('campaign-numbers-count').textContent(), POLL).toMatch(/^1 número · /);
    await page.getByTestId('campaign-message').fill('Bom dia! Nossa loja abriu.');
    await page.getByTestId('campaign-min').fill('0');
    await page.getByTestId('campaign-max').fill('1');
    await page.getByTestId('campaign-submit').click();
    await toast(page, 'Enviando para 1 número.').waitFor();
    await expect.poll(() => page.getByTestId('campaign-progress').first().getAttribute('data-status'), { timeout: 30_000 }).toBe('completed');
    await screenshot(page, 'first-day-language-03-bulk-plural-1440');

    // The history export: Portuguese titles, statuses in words, dates as dd/mm/aaaa HH:mm.
    await page.getByTestId('menu-history').click();
    await page.getByTestId('history-row').first().waitFor();
    const history = await download(page, 'history-export');
    expect(history[0]).toEqual(['Envio', 'Tipo', 'Conexão', 'Enviado por', 'Criado em', 'Situação do envio', 'Número digitado', 'Número', 'Grupo', 'Situação do destinatário', 'Erro', 'Enviado em']);
    const sent = history.find((row) => row[7] === '5511933332222');
    expect(sent?.slice(1, 3)).toEqual(['Texto', 'Loja Centro']);
    expect([sent?.[5], sent?.[9]]).toEqual(['Concluído', 'Enviado']);
    expect(sent?.[4]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);

    // The audit export: the queue's creation at São Paulo's time, the action in words.
    await page.goto('/audit');
    const audit = await download(page, 'audit-export');
    expect(audit[0]?.slice(0, 6)).toEqual(['Quando', 'Quem (tipo)', 'Número do usuário', 'Quem', 'Token da API', 'Ação']);
    const { events } = ZAuditListSchema.parse(await (await api('/audit?action=queues.create')).json());
    const created = events.find((event) => event.targetName === 'Vendas');
    expect(created).toBeDefined();
    const row = audit.find((cells) => cells[5] === 'Criou uma fila' && cells[8] === 'Vendas');
    expect(row?.[0]).toBe(inSaoPaulo(created?.at ?? ''));
    expect(row?.[1]).toBe('Usuário');

    // The contacts export: titles the contacts import reads back.
    await page.getByTestId('menu-contacts').click();
    const contacts = await download(page, 'export-contacts');
    expect(contacts[0]).toEqual(['nome', 'numero', 'e-mail', 'etiquetas']);
    expect(contacts.some((cells) => cells[0] === CUSTOMERS.photo.name && cells[1] === CUSTOMERS.photo.from)).toBe(true);

    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('at 390×844: the list lines and a save toast on a phone', async () => {
    const context = await contextIn('pt-BR', true);
    const page = await context.newPage();
    await openSignedIn(page);
    // The audio customer's line is now the transfer notice sent to her; the other three are media lines.
    await expectListLines(page, LINES.pt, ['location', 'photo', 'card']);
    await screenshot(page, 'first-day-language-04-list-390');

    await page.goto('/queues');
    await page.getByTestId('queue-row').filter({ hasText: 'Vendas' }).getByTestId('queue-edit').click();
    await page.getByTestId('queue-greeting').fill('Olá! Já vamos te atender.');
    await page.getByTestId('queue-submit').click();
    await toast(page, 'Fila salva com sucesso').waitFor();
    await screenshot(page, 'first-day-language-05-save-toast-390');

    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('at 390×844: a group renamed says so, the list shows the new name, the result keeps the name on one line', async () => {
    const longName = 'Confraternização Anual dos Representantes Comerciais';
    const added = await api(`/simulator/${phone}/groups`, { method: 'POST', body: { subject: longName, participants: [{ number: '5511922221111' }] } });
    expect(added.status).toBe(201);
    const group = (await added.json()) as { id: string };
    const context = await contextIn('pt-BR', true);
    const page = await context.newPage();
    await openSignedIn(page, '/ZDGGroups');
    const row = page.locator(`[data-testid="group-row"][data-group-id="${group.id}"]`);
    await row.click();
    await page.getByTestId('group-subject').fill('Representantes 2027');
    await page.getByTestId('group-submit').click();
    await toast(page, 'Concluído em 1 grupo. A lista foi lida de novo do celular.').waitFor({ timeout: 30_000 });
    // The list was read again: the new name shows without a manual refresh.
    await expect.poll(() => row.textContent(), POLL).toContain('Representantes 2027');
    // The result's name cell (the group as it was named): one line, the whole name on hover.
    const cell = page.getByTestId('campaign-recipient-name').first();
    await expect(cell.getAttribute('title')).resolves.toBe(longName);
    const lineHeight = await cell.evaluate((element) => {
      const style = getComputedStyle(element);
      return { height: element.getBoundingClientRect().height, whiteSpace: style.whiteSpace, overflow: style.textOverflow };
    });
    expect(lineHeight.whiteSpace).toBe('nowrap');
    expect(lineHeight.overflow).toBe('ellipsis');
    expect(lineHeight.height).toBeLessThan(48);
    await screenshot(page, 'first-day-language-07-group-renamed-390');
    // Toasts closed, the result table in view.
    // A toast may close by itself meanwhile: then its button is gone, which is as good.
    for (const close of await page.locator('.Toastify__close-button').all()) await close.click({ timeout: 2_000 }).catch(() => undefined);
    await expect.poll(() => page.locator('.Toastify__toast').count(), POLL).toBe(0);
    await cell.scrollIntoViewIfNeeded();
    await screenshot(page, 'first-day-language-08-group-result-390');
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('in Spanish at 390×844: the list lines and the contacts export', async () => {
    const context = await contextIn('es-ES', true);
    const page = await context.newPage();
    await openSignedIn(page);
    // The audio customer's line is now the transfer notice sent to her; the other three are media lines.
    await expectListLines(page, LINES.es, ['location', 'photo', 'card']);
    await screenshot(page, 'first-day-language-06-list-es-390');
    await page.goto('/contacts');
    const contacts = await download(page, 'export-contacts');
    expect(contacts[0]).toEqual(['nombre', 'numero', 'correo', 'etiquetas']);
    expect(salesId).toBeGreaterThan(0);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
