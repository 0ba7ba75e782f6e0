/**
 * The first day of a Brazilian team, numbers and new conversations, in Portuguese at 1440×900
 * and 390×844: numbers typed without 55 in a bulk list and a new contact (what the ninth digit
 * changed and what will not be sent, said on the screen), and an agent opening a ticket for a
 * customer of another queue, found by her exact number.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, pageErrors, screenshot, openSignedIn } from './browser';
import { startServer, type RunningServer } from './server';
import { apiAs, idOf, scanWhenReady, signIn, type Api } from './simulator';

let server: RunningServer;
let browser: Browser;
let token = '';
let api: Api;
let phone = 0;
const queues = { sales: 0, support: 0 };
const seller = { id: 0, email: 'vendedora@e2e.test', password: 'vendedora-secret-1' };
const agent = { id: 0, email: 'atendente@e2e.test', password: 'atendente-secret-1' };
const POLL = { timeout: 15_000 };

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 }, area: '11', prefix: '1' },
  { name: 'phone', viewport: { width: 390, height: 844 }, area: '21', prefix: '2' },
] as const;

async function open(viewport: { width: number; height: number }, credentials?: { email: string; password: string }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: server.baseUrl, locale: 'pt-BR', viewport, deviceScaleFactor: 1 });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  await openSignedIn(page, '/', credentials);
  return { context, page };
}

async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** A customer writes in; her conversation goes to Sales and the seller, then is resolved. */
async function salesCustomer(from: string, name: string, body: string): Promise<number> {
  expect((await api(`/simulator/${phone}/inbound`, { method: 'POST', body: { from, name, body } })).status).toBe(200);
  let id = 0;
  await expect
    .poll(async () => {
      const list = await json<{ tickets: { id: number }[] }>(await api(`/tickets?showAll=true&searchParam=${from}`));
      id = list.tickets[0]?.id ?? 0;
      return id;
    }, POLL)
    .toBeGreaterThan(0);
  expect((await api(`/tickets/${id}`, { method: 'PUT', body: { status: 'open', userId: seller.id, queueId: queues.sales } })).status).toBe(200);
  expect((await api(`/tickets/${id}`, { method: 'PUT', body: { status: 'closed' } })).status).toBe(200);
  return id;
}

beforeAll(async () => {
  server = await startServer({ simulator: true });
  browser = await launchBrowser();
  token = (await signIn(server.baseUrl)).token;
  api = apiAs(server.baseUrl, () => token);
  const created = await api('/whatsapp', { method: 'POST', body: { name: 'Loja Centro', channel: 'simulator', isDefault: true } });
  expect(created.status).toBe(201);
  phone = await idOf(created);
  await scanWhenReady(api, phone);
  queues.sales = await idOf(await api('/queue', { method: 'POST', body: { name: 'Vendas', color: '#1273DE', greetingMessage: '' } }));
  queues.support = await idOf(await api('/queue', { method: 'POST', body: { name: 'Suporte', color: '#008B02', greetingMessage: '' } }));
  seller.id = await idOf(await api('/users', { method: 'POST', body: { name: 'Vera Vendas', email: seller.email, password: seller.password, profile: 'user', queueIds: [queues.sales] } }));
  agent.id = await idOf(await api('/users', { method: 'POST', body: { name: 'Sara Suporte', email: agent.email, password: agent.password, profile: 'user', queueIds: [queues.support] } }));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe.each(SIZES)('numbers as Brazilians type them ($name)', ({ name, viewport, area, prefix }) => {
  it('a bulk list typed without 55: the page says what the ninth digit changed and what will not be sent, and only numbers go out', async () => {
    const { context, page } = await open(viewport);
    await page.goto('/ZDG');
    await page.getByTestId('bulk-page-text').waitFor();
    const typed = [`${area}977776${prefix}01`, `(${area}) 98765-${prefix}102`, `(${area}) 8765-${prefix}103`, `98765-${prefix}104`, 'Maria'];
    await page.getByTestId('campaign-numbers').fill(typed.join('\n'));
    await page.getByTestId('campaign-message').fill('Promoção de sexta: 20% em tudo');
    await page.getByTestId('campaign-min').fill('0');
    await page.getByTestId('campaign-max').fill('0');
    const changed = page.getByTestId('numbers-changed');
    await expect.poll(() => changed.textContent(), POLL).toContain(`(${area}) 8765-${prefix}103 → 55${area}98765${prefix}103: celular brasileiro ganhou o nono dígito`);
    const ambiguous = page.getByTestId('numbers-ambiguous');
    await expect(ambiguous.textContent()).resolves.toContain('2 linhas não são números e não serão enviadas:');
    await expect(ambiguous.textContent()).resolves.toContain(`98765-${prefix}104: falta o DDD`);
    await expect(ambiguous.textContent()).resolves.toContain('Maria: não é um número');
    await page.getByTestId('numbers-ambiguous').scrollIntoViewIfNeeded();
    await screenshot(page, `first-day-numbers-bulk-${name}`);

    await page.getByTestId('campaign-submit').click();
    const progress = page.getByTestId('campaign-progress').first();
    await expect.poll(() => progress.getAttribute('data-status'), { timeout: 30_000 }).toBe('completed');
    const outbox = await json<{ to: string; body: string }[]>(await api(`/simulator/${phone}/outbox`));
    const sent = outbox.filter((m) => m.body === 'Promoção de sexta: 20% em tudo').map((m) => m.to);
    expect(sent).toEqual(expect.arrayContaining([`55${area}977776${prefix}01`, `55${area}98765${prefix}102`, `55${area}98765${prefix}103`]));
    expect(sent.some((to) => to.endsWith(`8765${prefix}104`))).toBe(false);
    await context.close();
  });

  it('a new contact typed without 55 is saved with it, and the form said so first', async () => {
    const { context, page } = await open(viewport);
    await page.goto('/contacts');
    await page.getByTestId('contacts-page').waitFor();
    await page.getByTestId('add-contact').click();
    await page.getByTestId('contact-name').fill(`Joana ${name === 'phone' ? 'Celular' : 'Mesa'}`);
    await page.getByTestId('contact-number').fill(`(${area}) 8765-${prefix}201`);
    const note = page.getByTestId('contact-number-note');
    await expect.poll(() => note.textContent(), POLL).toBe(`(${area}) 8765-${prefix}201 → 55${area}98765${prefix}201: celular brasileiro ganhou o nono dígito`);
    await screenshot(page, `first-day-numbers-contact-${name}`);
    await page.getByTestId('contact-submit').click();
    await page.getByTestId('contact-modal').waitFor({ state: 'detached' });
    await page
      .getByTestId('contact-row')
      .filter({ hasText: `55${area}98765${prefix}201` })
      .waitFor();

    // A number that stays ambiguous is refused on the field, in Portuguese, and nothing is saved.
    await page.getByTestId('add-contact').click();
    await page.getByTestId('contact-name').fill('Sem DDD');
    await page.getByTestId('contact-number').fill(`98765-${prefix}202`);
    await page.getByTestId('contact-submit').click();
    await page.getByText('Falta o DDD: digite o número com o DDD, ex. (11) 98765-4321').first().waitFor();
    await page.getByTestId('contact-cancel').click();
    await context.close();
  });
});

describe.each(SIZES)("an agent opens a ticket for another queue's customer ($name)", ({ name, viewport, area, prefix }) => {
  it('finds her by the exact number as typed, opens the ticket in her own queue, and sees only the new conversation', async () => {
    const customerNumber = `55${area}98765${prefix}301`;
    await salesCustomer(customerNumber, `Dona Rosa ${prefix}`, 'Meu pedido atrasou, podem ver?');
    // Another customer of Sales, for the 'already saved' path.
    await salesCustomer(`55${area}98765${prefix}302`, `Seu Jorge ${prefix}`, 'Quero trocar o produto');

    const { context, page } = await open(viewport, agent);
    await page.goto('/tickets');
    await page.getByTestId('tickets-manager').waitFor();

    // By the exact number, typed without 55: found, without her name.
    await page.getByTestId('tickets-new').click();
    await page.getByTestId('new-ticket-modal').waitFor();
    await page.getByTestId('new-ticket-contact').fill(`(${area}) 98765-${prefix}301`);
    const option = page.getByTestId('new-ticket-number-option');
    await expect.poll(() => option.textContent(), POLL).toContain(customerNumber);
    await expect(option.textContent()).resolves.toContain('Cliente já cadastrado. Atendido por outra fila. Abra um ticket para conversar.');
    await expect(option.textContent()).resolves.not.toContain('Dona Rosa');
    await expect(page.getByTestId('new-ticket-add-option').count()).resolves.toBe(0);
    await screenshot(page, `first-day-numbers-new-ticket-${name}`);
    await option.click();
    await expect(page.getByTestId('new-ticket-queue').inputValue()).resolves.toBe(String(queues.support));
    await page.getByTestId('new-ticket-submit').click();
    await page.waitForURL(/\/tickets\/\d+$/);
    await expect.poll(() => page.getByTestId('ticket-view').getAttribute('data-status'), POLL).toBe('open');
    await expect.poll(() => page.getByTestId('ticket-title').textContent(), POLL).toContain(`Dona Rosa ${prefix}`);
    // The older conversation (Sales', the seller's) is not shown in the new chat.
    await page.getByTestId('message-input').waitFor();
    await expect(page.getByText('Meu pedido atrasou, podem ver?').count()).resolves.toBe(0);
    await screenshot(page, `first-day-numbers-ticket-${name}`);
    const opened = await json<{ queueId: number; userId: number }>(await api(`/tickets/${new URL(page.url()).pathname.split('/').pop() ?? ''}`));
    expect(opened).toMatchObject({ queueId: queues.support, userId: agent.id });

    // Adding the other customer as a new contact: the number is saved already, so her ticket is offered.
    await page.goto('/tickets');
    await page.getByTestId('tickets-manager').waitFor();
    await page.getByTestId('tickets-new').click();
    await page.getByTestId('new-ticket-contact').fill('Jorge da Silva');
    await page.getByTestId('new-ticket-add-option').click();
    await page.getByTestId('contact-modal').waitFor();
    await page.getByTestId('contact-number').fill(`${area} 98765-${prefix}302`);
    await page.getByTestId('contact-submit').click();
    await page.getByTestId('new-ticket-existing').waitFor();
    await expect(page.getByTestId('new-ticket-existing').textContent()).resolves.toBe('Este número já está cadastrado. Você pode abrir um ticket para este cliente.');
    await expect(page.getByTestId('new-ticket-contact').inputValue()).resolves.toBe(`55${area}98765${prefix}302`);
    await screenshot(page, `first-day-numbers-already-saved-${name}`);
    await page.getByTestId('new-ticket-submit').click();
    await expect.poll(() => page.getByTestId('ticket-title').textContent(), POLL).toContain(`Seu Jorge ${prefix}`);
    await context.close();
  });
});

describe('the default country code on the Settings page', () => {
  it('reads 55 on a Portuguese install, in plain words', async () => {
    const { context, page } = await open({ width: 1440, height: 900 });
    await page.goto('/settings');
    const row = page.getByTestId('setting-row-defaultCountryCode');
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('Código do país padrão');
    await expect(page.getByTestId('setting-defaultCountryCode').inputValue()).resolves.toBe('55');
    await row.scrollIntoViewIfNeeded();
    await screenshot(page, 'first-day-numbers-settings-desktop');
    await context.close();
    expect(pageErrors).toEqual([]);
  });
});
