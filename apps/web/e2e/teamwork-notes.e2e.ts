/**
 * Private notes and mentions, in Portuguese, with two people in two browsers: Ana (queue Vendas)
 * works a ticket and writes a 'Nota interna' mentioning Bruno (queue Suporte only). Bruno sees it
 * live in the bell and in 'Menções', opens the ticket outside his queues and answers with a note.
 * The simulated phone never receives a note.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZSimulatorOutboxItemSchema } from '@zapdesk/shared/simulator';
import { z } from 'zod';
import { launchBrowser, newContext, pageErrors, screenshot, openSignedIn } from './browser';
import { startServer, type RunningServer } from './server';
import { apiAs, idOf, scanWhenReady, signIn } from './simulator';

let server: RunningServer;
let browser: Browser;
let adminToken = '';
let connectionId = 0;
let ticketId = 0;

const ANA = { email: 'ana@e2e.test', password: 'ana-secret-1', name: 'Ana Vendas' };
const BRUNO = { email: 'bruno@e2e.test', password: 'bruno-secret-1', name: 'Bruno Suporte' };
const CONTACT = { from: '5511944445555', name: 'Marcos Cliente' };
const DESKTOP = { width: 1440, height: 900 };

const api = (route: string, options: { method?: string; body?: unknown } = {}) => apiAs(server.baseUrl, () => adminToken)(route, options);

async function outbox() {
  return z.array(ZSimulatorOutboxItemSchema).parse(await (await api(`/simulator/${connectionId}/outbox`)).json());
}

async function personIn(page: Page, who: { email: string; password: string }, size = DESKTOP): Promise<void> {
  await page.setViewportSize(size);
  await openSignedIn(page, '/', who);
}

beforeAll(async () => {
  server = await startServer({ simulator: true });
  browser = await launchBrowser();
  adminToken = (await signIn(server.baseUrl)).token;
  const vendas = await idOf(await api('/queue', { method: 'POST', body: { name: 'Vendas', color: '#1E88E5', greetingMessage: '' } }));
  const suporte = await idOf(await api('/queue', { method: 'POST', body: { name: 'Suporte', color: '#43A047', greetingMessage: '' } }));
  for (const [who, queueId] of [
    [ANA, vendas],
    [BRUNO, suporte],
  ] as const) {
    const res = await api('/users', { method: 'POST', body: { name: who.name, email: who.email, password: who.password, profile: 'user', queueIds: [queueId] } });
    expect(res.status).toBe(201);
  }
  connectionId = await idOf(await api('/whatsapp', { method: 'POST', body: { name: 'Loja Centro', channel: 'simulator', queueIds: [vendas] } }));
  await scanWhenReady(api, connectionId);
  expect((await api(`/simulator/${connectionId}/inbound`, { method: 'POST', body: { ...CONTACT, body: 'Bom dia! O boleto do meu pedido veio com o valor errado.' } })).status).toBe(200);
  // Ana accepts the ticket: it is hers, in Vendas; Bruno (Suporte) cannot see it.
  const anaToken = (await signIn(server.baseUrl, ANA)).token;
  const asAna = apiAs(server.baseUrl, () => anaToken);
  const ZList = z.object({ tickets: z.array(z.object({ id: z.number(), queueId: z.number().nullable(), contact: z.object({ number: z.string() }) })) });
  for (const until = Date.now() + 15_000; ticketId === 0 && Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const { tickets } = ZList.parse(await (await asAna('/tickets?status=pending')).json());
    ticketId = tickets.find((x) => x.contact.number === CONTACT.from && x.queueId === vendas)?.id ?? 0;
  }
  expect(ticketId).toBeGreaterThan(0);
  expect((await asAna(`/tickets/${ticketId}`, { method: 'PUT', body: { status: 'open' } })).status).toBe(200);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('notes and mentions', () => {
  it('Ana writes a note mentioning Bruno; Bruno sees it live in the bell and in Menções, opens the ticket and answers with a note', async () => {
    const anaPage = await (await newContext(browser, server.baseUrl, { locale: 'pt-BR' })).newPage();
    const brunoPage = await (await newContext(browser, server.baseUrl, { locale: 'pt-BR' })).newPage();
    await personIn(anaPage, ANA);
    await personIn(brunoPage, BRUNO);
    // Before the mention Bruno cannot open the ticket: the app says so and goes back to the list.
    await brunoPage.goto(`/tickets/${ticketId}`);
    await brunoPage.waitForURL((url) => url.pathname === '/tickets');
    await expect.poll(() => brunoPage.getByTestId('notifications-button').getAttribute('data-mentions')).toBe('0');

    // Ana: the switch turns the whole input yellow, '@' lists the colleagues.
    await anaPage.goto(`/tickets/${ticketId}`);
    await anaPage.getByTestId('message').filter({ hasText: 'boleto' }).waitFor();
    await anaPage.getByTestId('mode-note').click();
    const noteText = anaPage.getByTestId('note-text');
    await noteText.click();
    await noteText.pressSequentially('@Bru');
    await anaPage.getByTestId('mention-option').filter({ hasText: BRUNO.name }).waitFor();
    await screenshot(anaPage, 'notes-10-mention-list-1440');
    await anaPage.getByTestId('mention-option').filter({ hasText: BRUNO.name }).click();
    await noteText.pressSequentially('pode conferir o valor do boleto? O cliente é antigo.');
    await anaPage.getByTestId('note-save').click();
    await anaPage.getByText('Nota salva: 1 colega foi avisado').waitFor();
    const note = anaPage.getByTestId('note').filter({ hasText: 'pode conferir o valor do boleto' });
    await note.waitFor();
    await expect(note.getByTestId('note-label').textContent()).resolves.toBe(`Nota interna · ${ANA.name}`);
    await screenshot(anaPage, 'notes-20-note-in-chat-1440');

    // Bruno, without reloading: the bell counts the mention and lists it.
    await expect.poll(() => brunoPage.getByTestId('notifications-button').getAttribute('data-mentions')).toBe('1');
    await brunoPage.getByText(`${ANA.name} mencionou você em uma nota`).waitFor();
    await brunoPage.getByTestId('notifications-button').click();
    await brunoPage.getByTestId('bell-mention').filter({ hasText: 'pode conferir o valor do boleto' }).waitFor();
    await screenshot(brunoPage, 'notes-30-bell-1440');
    await brunoPage.getByTestId('bell-mentions-all').click();
    const row = brunoPage.getByTestId('mention-row').filter({ hasText: CONTACT.name });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain(`${ANA.name} mencionou você`);
    await screenshot(brunoPage, 'notes-40-mentions-page-1440');

    // He opens the ticket (outside his queues), reads the chat and answers with a note only.
    await row.getByTestId('mention-open').click();
    await brunoPage.getByTestId('message').filter({ hasText: 'boleto do meu pedido' }).waitFor();
    await brunoPage.getByTestId('note').filter({ hasText: 'pode conferir o valor do boleto' }).waitFor();
    await brunoPage.getByTestId('mention-only').waitFor();
    await expect(brunoPage.getByTestId('mode-reply').isDisabled()).resolves.toBe(true);
    // None of the ticket's actions are his: no Resolver, Retornar, Protocolo or transfer.
    for (const action of ['ticket-resolve', 'ticket-return', 'ticket-protocol', 'ticket-transfer']) expect(await brunoPage.getByTestId(action).count()).toBe(0);
    await brunoPage.getByTestId('note-text').fill('Conferi: o desconto não foi aplicado. Pode reemitir.');
    await brunoPage.getByTestId('note-save').click();
    await brunoPage.getByTestId('note').filter({ hasText: 'Pode reemitir' }).waitFor();
    await screenshot(brunoPage, 'notes-50-ticket-by-mention-1440');
    await expect.poll(() => brunoPage.getByTestId('notifications-button').getAttribute('data-mentions')).toBe('0');

    // Ana's open chat shows Bruno's answer live.
    await anaPage.getByTestId('note').filter({ hasText: 'Pode reemitir' }).waitFor();

    // A reply to the customer reaches the phone; no note ever did.
    await anaPage.getByTestId('mode-reply').click();
    await anaPage.getByTestId('message-input').fill('Marcos, vamos reemitir o boleto com o desconto.');
    await anaPage.getByTestId('message-input').press('Enter');
    await expect.poll(async () => (await outbox()).some((i) => i.body.includes('reemitir o boleto com o desconto'))).toBe(true);
    const phone = (await outbox()).map((i) => i.body).join('\n');
    expect(phone).not.toContain('pode conferir');
    expect(phone).not.toContain('Conferi');

    // Mobile: Bruno's list and the ticket on a phone-sized screen.
    const mobile = await (await newContext(browser, server.baseUrl, { locale: 'pt-BR', mobile: true })).newPage();
    await openSignedIn(mobile, '/mentions', BRUNO);
    await mobile.getByTestId('mention-row').first().waitFor();
    await screenshot(mobile, 'notes-60-mentions-390');
    await mobile.getByTestId('mention-open').first().click();
    await mobile.getByTestId('note').first().waitFor();
    await screenshot(mobile, 'notes-70-ticket-390');

    // Done: the mention ends, and with it Bruno's access to the ticket.
    await brunoPage.goto('/mentions');
    await brunoPage.getByTestId('mention-done').first().click();
    await brunoPage.getByText('Menção concluída').waitFor();
    await brunoPage.getByTestId('mentions-empty').waitFor();
    await brunoPage.goto(`/tickets/${ticketId}`);
    await brunoPage.waitForURL((url) => url.pathname === '/tickets');
    expect(pageErrors).toEqual([]);
  });
});
