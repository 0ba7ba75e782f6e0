/**
 * An agent's day in one pass, as the inbox issue describes it: a simulated contact writes in, the
 * ticket appears live under Queue, the agent accepts it from the list and answers with text and
 * an emoji, an image and a recorded voice note (Chromium's fake microphone), the contact's answer
 * and an edit arrive live, the agent resolves and reopens, transfers the ticket to a queue, and a
 * search finds a word of the conversation. Nothing is reloaded along the way.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZTicketSchema } from '@zapdesk/shared/messaging';
import { ZSimulatorOutboxItemSchema } from '@zapdesk/shared/simulator';
import { z } from 'zod';
import { launchBrowser, newContext, pageErrors, screenshot, openSignedIn } from './browser';
import { startServer, type RunningServer } from './server';
import { apiAs, idOf, scanWhenReady, signIn } from './simulator';

let server: RunningServer;
let browser: Browser;
let adminToken = '';
let connectionId = 0;
let queueId = 0;

const CONTACT = { from: '5511933332222', name: 'Renata Fluxo' };
// A 1x1 PNG, for the image the agent sends.
const PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

const api = (route: string, options: { method?: string; body?: unknown } = {}) => apiAs(server.baseUrl, () => adminToken)(route, options);

async function outbox() {
  return z.array(ZSimulatorOutboxItemSchema).parse(await (await api(`/simulator/${connectionId}/outbox`)).json());
}

async function ticket(id: number) {
  return ZTicketSchema.parse(await (await api(`/tickets/${id}`)).json());
}

async function contactWrites(body: string, id?: string): Promise<void> {
  const response = await api(`/simulator/${connectionId}/inbound`, { method: 'POST', body: { ...CONTACT, body, ...(id ? { id } : {}) } });
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  server = await startServer({ simulator: true });
  browser = await launchBrowser({ fakeMedia: true });
  adminToken = (await signIn(server.baseUrl)).token;
  connectionId = await idOf(await api('/whatsapp', { method: 'POST', body: { name: 'Loja Fluxo', channel: 'simulator' } }));
  expect(connectionId).toBeGreaterThan(0);
  await scanWhenReady(api, connectionId);
  queueId = await idOf(await api('/queue', { method: 'POST', body: { name: 'Financeiro', color: '#AB149E', greetingMessage: '' } }));
  expect(queueId).toBeGreaterThan(0);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('inbox flow', () => {
  it('a contact writes, the agent accepts and answers with text, emoji, image and voice, resolves, reopens, transfers, and finds it by search', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page);
    await page.getByTestId('menu-tickets').click();
    await page.getByTestId('tab-pending').click();
    const queueList = page.getByTestId('tickets-list-pending');

    // 1–2. The contact writes; the ticket appears under Queue without a reload.
    await contactWrites('Olá! Minha fatura veio com um valor estranho', 'FLOW-1');
    const row = queueList.getByTestId('ticket-row').filter({ hasText: CONTACT.name });
    await row.waitFor();
    await expect(row.getByTestId('ticket-last-message').textContent()).resolves.toContain('fatura');
    await screenshot(page, 'flow-50-queue');

    // 3. Accept from the row: the chat opens, the ticket is the agent's and under Working on.
    await row.getByTestId('ticket-accept').click();
    const view = page.getByTestId('ticket-view');
    await expect.poll(() => view.getAttribute('data-status')).toBe('open');
    const ticketId = Number(new URL(page.url()).pathname.split('/').pop());
    expect(ticketId).toBeGreaterThan(0);
    expect(await ticket(ticketId)).toMatchObject({ status: 'open', user: { name: 'Admin' } });
    await page.getByTestId('tickets-list-open').getByTestId('ticket-row').filter({ hasText: CONTACT.name }).waitFor();
    const messages = page.getByTestId('messages-list').getByTestId('message');

    // Text with an emoji from the picker.
    const input = page.getByTestId('message-input');
    await input.fill('Vou verificar agora ');
    await page.getByTestId('message-emoji').click();
    const emojiButton = page.getByTestId('emoji-picker').locator('[data-epr-unified]').first();
    await emojiButton.waitFor();
    const unified = (await emojiButton.getAttribute('data-epr-unified')) ?? '';
    const emoji = String.fromCodePoint(...unified.split('-').map((hex) => parseInt(hex, 16)));
    await emojiButton.click();
    await page.keyboard.press('Escape');
    await input.press('Enter');
    await messages.filter({ hasText: `Vou verificar agora ${emoji}` }).waitFor();

    // An image and a voice note of about two seconds.
    await page.getByTestId('message-file').setInputFiles({ name: 'boleto.png', mimeType: 'image/png', buffer: PIXEL_PNG });
    // Picked files wait in the preview until Send.
    await page.getByTestId('attachments-send').click();
    await messages
      .filter({ has: page.getByTestId('message-image') })
      .first()
      .waitFor();
    await page.getByTestId('audio-record').click();
    await expect.poll(() => page.getByTestId('audio-timer').textContent(), { timeout: 6000 }).toBe('00:02');
    await page.getByTestId('audio-send').click();
    await messages
      .filter({ has: page.getByTestId('message-audio') })
      .first()
      .waitFor();
    await expect
      .poll(async () => {
        const sent = await outbox();
        return [
          sent.some((item) => item.kind === 'text' && item.body === `Vou verificar agora ${emoji}`),
          sent.some((item) => item.kind === 'media' && item.mimetype === 'image/png'),
          sent.some((item) => item.kind === 'voice'),
        ];
      })
      .toEqual([true, true, true]);

    // 4. The contact answers, then corrects the answer: both show live.
    await contactWrites('Obrigada, o valor certo é R$ 120', 'FLOW-2');
    const answer = messages.filter({ hasText: 'Obrigada, o valor certo é R$ 120' });
    await answer.waitFor();
    const edited = await api(`/simulator/${connectionId}/edit`, { method: 'POST', body: { id: 'FLOW-2', body: 'Obrigada, o valor certo é R$ 150' } });
    expect(edited.status).toBe(200);
    const corrected = messages.filter({ hasText: 'Obrigada, o valor certo é R$ 150' });
    await corrected.getByTestId('message-edited').waitFor();
    await screenshot(page, 'flow-51-chat');

    // 5. Resolve, then reopen.
    await page.getByTestId('ticket-resolve').click();
    await expect.poll(() => view.getAttribute('data-status')).toBe('closed');
    await expect(input.isDisabled()).resolves.toBe(true);
    await page.getByTestId('ticket-reopen').click();
    await expect.poll(() => view.getAttribute('data-status')).toBe('open');
    expect((await ticket(ticketId)).status).toBe('open');

    // 6. Transfer to a queue: back to waiting, unassigned, out of the agent's Working on.
    await page.getByTestId('ticket-transfer').click();
    await page.getByTestId('transfer-modal').waitFor();
    await page.getByTestId('transfer-queue').getByRole('combobox').click();
    await page.getByRole('option', { name: 'Financeiro', exact: true }).click();
    await page.getByTestId('transfer-submit').click();
    await expect.poll(async () => ticket(ticketId)).toMatchObject({ status: 'pending', userId: null, queueId });
    await expect.poll(async () => (await outbox()).some((item) => item.kind === 'text' && item.body.includes('Financeiro'))).toBe(true);

    // 7. A word of the conversation finds the ticket in Search.
    await page.getByTestId('tab-search').click();
    await page.getByTestId('tickets-search-input').fill('fatura');
    const found = page.getByTestId('tickets-list-search').getByTestId('ticket-row').filter({ hasText: CONTACT.name });
    await found.waitFor();
    await screenshot(page, 'flow-52-search');

    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("starts a ticket from the contacts page's chat button and opens it", async () => {
    const created = await api('/contacts', { method: 'POST', body: { name: 'Otávio Contato', number: '5511922221111' } });
    expect(created.status).toBe(201);
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page, '/contacts');
    const contactRow = page.getByRole('row').filter({ hasText: 'Otávio Contato' });
    await contactRow.getByTestId('contact-start-ticket').click();
    await page.waitForURL(/\/tickets\/\d+$/);
    const view = page.getByTestId('ticket-view');
    await expect.poll(() => view.getAttribute('data-status')).toBe('open');
    const ticketId = Number(new URL(page.url()).pathname.split('/').pop());
    expect(await ticket(ticketId)).toMatchObject({ status: 'open', contact: { name: 'Otávio Contato' }, user: { name: 'Admin' } });
    // A second start for the same contact is refused with the catalogue's text.
    await page.goto('/contacts');
    await page.getByRole('row').filter({ hasText: 'Otávio Contato' }).getByTestId('contact-start-ticket').click();
    await page.locator('.Toastify__toast', { hasText: "There's already an open ticket for this contact." }).first().waitFor();
    await context.close();
  });
});
