/**
 * Customer satisfaction in Portuguese: an admin turns on 'Pesquisa de satisfação' in the
 * connection's dialog; an agent resolves a ticket, the question reaches the simulated phone, the
 * customer answers '5 ótimo atendimento', and the stars and the comment show on the ticket live,
 * and again when it is opened from 'Resolvidos', on a desktop (1440×900) and a phone (390×844).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSAT_DEFAULT_QUESTIONS } from '@zapdesk/shared/csat';
import { ZTicketListSchema } from '@zapdesk/shared/messaging';
import { ZSimulatorOutboxItemSchema } from '@zapdesk/shared/simulator';
import { seriousViolations } from './axe';
import { launchBrowser, newContext, pageErrors, screenshot, openSignedIn } from './browser';
import { startServer, type RunningServer } from './server';
import { apiAs, idOf, scanWhenReady, signIn } from './simulator';

let server: RunningServer;
let browser: Browser;
let adminToken = '';
let connection = 0;
const CUSTOMER = { from: '5511987650001', name: 'Rita Ribeiro' };

const api = (route: string, options: { method?: string; body?: unknown } = {}) => apiAs(server.baseUrl, () => adminToken)(route, options);
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });

async function phoneInbox(): Promise<string[]> {
  const items = ZSimulatorOutboxItemSchema.array().parse(await (await api(`/simulator/${connection}/outbox`)).json());
  return items.filter((item) => item.to === CUSTOMER.from).map((item) => item.body);
}

async function ticketId(): Promise<number> {
  const { tickets } = ZTicketListSchema.parse(await (await api(`/tickets?showAll=true&searchParam=${CUSTOMER.from}`)).json());
  return tickets.find((ticket) => ticket.contact.number === CUSTOMER.from)?.id ?? 0;
}

async function desktopPage(): Promise<Page> {
  const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR' });
  const page = await context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  return page;
}

beforeAll(async () => {
  server = await startServer({ simulator: true });
  browser = await launchBrowser();
  adminToken = (await signIn(server.baseUrl)).token;
  connection = await idOf(await api('/whatsapp', { method: 'POST', body: { name: 'Loja Centro', channel: 'simulator', farewellMessage: 'Obrigado pelo contato, {{name}}!' } }));
  await scanWhenReady(api, connection);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('pesquisa de satisfação', () => {
  it('asks after Resolver and shows the customer’s stars and comment on the ticket', async () => {
    const page = await desktopPage();
    await openSignedIn(page);

    // The admin turns the survey on in the connection's dialog; the default question is in Portuguese.
    await page.goto('/connections');
    await page.getByTestId('connection-row').filter({ hasText: 'Loja Centro' }).getByTestId('connection-edit').click();
    await page.getByTestId('connection-csat-switch').click();
    expect(await page.getByTestId('connection-csat-question').inputValue()).toBe(CSAT_DEFAULT_QUESTIONS.pt);
    await page.getByTestId('connection-csat').scrollIntoViewIfNeeded();
    await screenshot(page, 'csat-01-connection-dialog-1440');
    await page.getByTestId('connection-submit').click();
    await page.locator('.Toastify__toast', { hasText: 'Conexão salva com sucesso.' }).first().waitFor();
    expect(await (await api(`/whatsapp/${connection}/csat`)).json()).toMatchObject({ enabled: true, language: 'pt', question: '' });

    // A customer writes; the agent takes the ticket and resolves it.
    expect((await api(`/simulator/${connection}/inbound`, { method: 'POST', body: { ...CUSTOMER, body: 'Oi, meu pedido chegou com defeito' } })).status).toBe(200);
    await eventually(ticketId).toBeGreaterThan(0);
    const id = await ticketId();
    await page.goto(`/tickets/${id}`);
    await page.getByTestId('ticket-view').getByTestId('ticket-accept').click();
    await eventually(() => page.getByTestId('ticket-view').getAttribute('data-status')).toBe('open');
    await page.getByTestId('ticket-view').getByTestId('ticket-resolve').click();
    await eventually(() => page.getByTestId('ticket-view').getAttribute('data-status')).toBe('closed');

    // The farewell, then the question, reach the customer's phone; the ticket says it is waiting.
    await eventually(phoneInbox).toEqual(['Obrigado pelo contato, Rita Ribeiro!', CSAT_DEFAULT_QUESTIONS.pt]);
    await eventually(() => page.getByTestId('ticket-rating').getAttribute('data-state')).toBe('waiting');
    expect(await page.getByTestId('ticket-rating').innerText()).toContain('aguardando a resposta do cliente');

    // The customer answers: the stars and the comment show live, and the ticket stays resolved.
    expect((await api(`/simulator/${connection}/inbound`, { method: 'POST', body: { ...CUSTOMER, body: '5 ótimo atendimento' } })).status).toBe(200);
    await eventually(() => page.getByTestId('ticket-rating').getAttribute('data-score')).toBe('5');
    expect(await page.getByTestId('ticket-rating-comment').innerText()).toBe('“ótimo atendimento”');
    expect(await page.getByTestId('ticket-rating').innerText()).toContain('Avaliação do cliente');
    expect(await page.getByRole('img', { name: 'Nota 5 de 5' }).count()).toBe(1);
    expect(await page.getByTestId('ticket-view').getAttribute('data-status')).toBe('closed');
    // The answer stays in the closed ticket's history.
    await page.getByText('5 ótimo atendimento').first().waitFor();
    expect(await ticketId()).toBe(id);

    // Found again under 'Resolvidos'.
    await page.goto('/tickets');
    await page.getByTestId('tab-resolved').click();
    await page.getByTestId('ticket-row').filter({ hasText: CUSTOMER.name }).click();
    await eventually(() => page.getByTestId('ticket-rating').getAttribute('data-score')).toBe('5');
    await screenshot(page, 'csat-02-ticket-rated-1440');
    const violations = await seriousViolations(page);
    expect(violations, violations.join('\n')).toEqual([]);
    await page.context().close();
  });

  it('shows the rating on a phone', async () => {
    const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR', mobile: true });
    const page = await context.newPage();
    await openSignedIn(page, '/tickets');
    await page.getByTestId('tab-resolved').click();
    await page.getByTestId('ticket-row').filter({ hasText: CUSTOMER.name }).click();
    await eventually(() => page.getByTestId('ticket-rating').getAttribute('data-score')).toBe('5');
    expect(await page.getByTestId('ticket-rating-comment').isVisible()).toBe(true);
    await screenshot(page, 'csat-03-ticket-rated-390');
    await context.close();
    expect(pageErrors).toEqual([]);
  });
});
