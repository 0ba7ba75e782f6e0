/**
 * Small things of the spec that a user meets every day and no other test showed: WhatsApp's
 * *bold* _italic_ ~strike~ in a bubble, the link card's 'Visualizar', the /Queues address, and
 * the toasts after deleting a user, a contact and a quick answer, in Portuguese.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZTicketListSchema } from '@zapdesk/shared/messaging';
import { launchBrowser, newContext, pageErrors, screenshot, openSignedIn } from './browser';
import { startServer, type RunningServer } from './server';
import { apiAs, idOf, scanWhenReady, signIn } from './simulator';

let server: RunningServer;
let browser: Browser;
let adminToken = '';
let connectionId = 0;

const api = (route: string, options: { method?: string; body?: unknown } = {}) => apiAs(server.baseUrl, () => adminToken)(route, options);

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

async function ptPage(): Promise<Page> {
  const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR' });
  const page = await context.newPage();
  await openSignedIn(page);
  return page;
}

async function expectToast(page: Page, text: string): Promise<void> {
  await page.locator('.Toastify__toast', { hasText: text }).first().waitFor();
}

describe('a bubble as the contact wrote it', () => {
  it("shows *bold*, _italic_ and ~strike~ as WhatsApp does, and the link card's 'Visualizar' opens the address in a new tab", async () => {
    const from = '5511966660001';
    const body = 'Pedido *confirmado* para _amanhã_, ~hoje~ não. Veja https://loja.example/pedido/42';
    expect((await api(`/simulator/${connectionId}/inbound`, { method: 'POST', body: { from, name: 'Rita Formatos', body } })).status).toBe(200);
    let ticketId = 0;
    await expect
      .poll(async () => {
        const { tickets } = ZTicketListSchema.parse(await (await api('/tickets?status=pending&showAll=true')).json());
        ticketId = tickets.find((ticket) => ticket.contact.number === from)?.id ?? 0;
        return ticketId;
      })
      .toBeGreaterThan(0);

    const page = await ptPage();
    await page.goto(`/tickets/${ticketId}`);
    const bubble = page.getByTestId('message').filter({ hasText: 'Pedido' }).first();
    await bubble.waitFor();
    const styleOf = (text: string) =>
      bubble.getByText(text, { exact: true }).evaluate((el) => ({ weight: getComputedStyle(el).fontWeight, style: getComputedStyle(el).fontStyle, line: getComputedStyle(el).textDecorationLine }));
    await expect(styleOf('confirmado')).resolves.toMatchObject({ weight: '700' });
    await expect(styleOf('amanhã')).resolves.toMatchObject({ style: 'italic' });
    await expect(styleOf('hoje')).resolves.toMatchObject({ line: 'line-through' });
    // The marks themselves are not shown.
    await expect(bubble.textContent()).resolves.not.toContain('*confirmado*');

    const card = bubble.getByTestId('message-link');
    await expect(card.textContent()).resolves.toContain('loja.example');
    const open = card.getByTestId('message-link-open');
    await expect(open.textContent()).resolves.toContain('Visualizar');
    // The machine has no outside network: the new tab's address is what counts, not its content.
    await page.context().route('https://loja.example/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Pedido 42</title>' }));
    const [popup] = await Promise.all([page.waitForEvent('popup'), open.click()]);
    expect(popup.url()).toBe('https://loja.example/pedido/42');
    await screenshot(page, 'spec-proofs-01-formatted-bubble');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
});

describe('addresses and toasts of the admin pages', () => {
  it('opens the queues page at /Queues, as whaticket wrote it', async () => {
    const page = await ptPage();
    await page.goto('/Queues');
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Filas');
    await page.context().close();
  });

  it('says in Portuguese that a user, a contact and a quick answer were deleted', async () => {
    expect((await api('/users', { method: 'POST', body: { name: 'Tiago Temporário', email: 'tiago@e2e.test', password: 'tiago-secret-1', profile: 'user' } })).status).toBe(201);
    expect((await api('/contacts', { method: 'POST', body: { name: 'Carla Apagável', number: '5511966660002' } })).status).toBe(201);
    expect((await api('/quickAnswers', { method: 'POST', body: { shortcut: 'apagavel', message: 'Resposta que vai embora' } })).status).toBe(201);
    const page = await ptPage();

    await page.goto('/users');
    await page.getByTestId('user-row').filter({ hasText: 'tiago@e2e.test' }).getByTestId('user-delete').click();
    await page.getByTestId('confirmation-confirm').click();
    await expectToast(page, 'Usuário excluído com sucesso!');
    await expect.poll(() => page.getByTestId('user-row').filter({ hasText: 'tiago@e2e.test' }).count()).toBe(0);

    await page.goto('/contacts');
    await page.getByTestId('contact-row').filter({ hasText: 'Carla Apagável' }).getByTestId('contact-delete').click();
    await page.getByTestId('confirmation-confirm').click();
    await expectToast(page, 'Contato excluído com sucesso!');
    await expect.poll(() => page.getByTestId('contact-row').filter({ hasText: 'Carla Apagável' }).count()).toBe(0);

    await page.goto('/quickAnswers');
    await page.getByTestId('quick-answer-row').filter({ hasText: 'apagavel' }).getByTestId('quick-answer-delete').click();
    await page.getByTestId('confirmation-confirm').click();
    await expectToast(page, 'Resposta rápida excluída com sucesso!');
    await expect.poll(() => page.getByTestId('quick-answer-row').filter({ hasText: 'apagavel' }).count()).toBe(0);
    await screenshot(page, 'spec-proofs-02-quick-answer-deleted');
    await page.context().close();
  });
});
