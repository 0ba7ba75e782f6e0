/**
 * The chat side of the Tickets screen against a server with the simulated phone channel: the
 * agent accepts a ticket and answers with text and an emoji from the picker, an image and a
 * recorded voice note (Chromium's fake microphone), a too-short recording is discarded, Sign
 * prefixes the agent's name, '/' offers quick answers, the contact drawer shows the number, the
 * CSV export downloads zdg.csv, the audio speed is remembered, a transfer to a queue sends the
 * ticket back to the queue, and 'Protocolo' sends a protocol number and closes the ticket.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZTicketListSchema, ZTicketSchema } from '@zapdesk/shared/messaging';
import { ZSimulatorOutboxItemSchema } from '@zapdesk/shared/simulator';
import { z } from 'zod';
import { launchBrowser, newContext, pageErrors, screenshot, openSignedIn } from './browser';
import { startServer, type RunningServer } from './server';
import { apiAs, idOf, scanWhenReady, signIn } from './simulator';

let server: RunningServer;
let browser: Browser;
let adminToken = '';
let adminName = '';
let adminId = 0;
let connectionId = 0;
let queueId = 0;

const CONTACT = { from: '5511977776666', name: 'Carla Conversa' };
const PROTOCOL_CONTACT = { from: '5511966665555', name: 'Paulo Protocolo' };
// A 1x1 PNG, for the image the agent sends.
const PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

const api = (route: string, options: { method?: string; body?: unknown } = {}) => apiAs(server.baseUrl, () => adminToken)(route, options);

async function outbox() {
  return z.array(ZSimulatorOutboxItemSchema).parse(await (await api(`/simulator/${connectionId}/outbox`)).json());
}

async function ticketOf(from: string, status: 'pending' | 'open' | 'closed'): Promise<number> {
  const { tickets } = ZTicketListSchema.parse(await (await api(`/tickets?status=${status}&showAll=true`)).json());
  return tickets.find((ticket) => ticket.contact.number === from)?.id ?? 0;
}

async function ticket(id: number) {
  return ZTicketSchema.parse(await (await api(`/tickets/${id}`)).json());
}

/** An open ticket of the admin's with a new contact, its chat opened in a fresh browser context. */
async function openChatWith(contact: { name: string; number: string }) {
  const created = z.object({ id: z.number() }).parse(await (await api('/contacts', { method: 'POST', body: { ...contact, email: '' } })).json());
  const ticket = await api('/tickets', { method: 'POST', body: { contactId: created.id, status: 'open', userId: adminId } });
  expect(ticket.status).toBe(201);
  const ticketId = await idOf(ticket);
  const context = await newContext(browser, server.baseUrl);
  const page = await context.newPage();
  await openSignedIn(page, `/tickets/${ticketId}`);
  return { context, page, ticketId, contactId: created.id };
}

function messages(page: Page) {
  return page.getByTestId('messages-list').getByTestId('message');
}

beforeAll(async () => {
  server = await startServer({ simulator: true });
  browser = await launchBrowser({ fakeMedia: true });
  const login = await signIn(server.baseUrl);
  adminToken = login.token;
  adminName = login.user.name;
  adminId = login.user.id;

  connectionId = await idOf(await api('/whatsapp', { method: 'POST', body: { name: 'Loja Chat', channel: 'simulator' } }));
  expect(connectionId).toBeGreaterThan(0);
  await scanWhenReady(api, connectionId);
  queueId = await idOf(await api('/queue', { method: 'POST', body: { name: 'Suporte', color: '#1273DE', greetingMessage: '' } }));
  expect(queueId).toBeGreaterThan(0);
  const quick = await api('/quickAnswers', { method: 'POST', body: { shortcut: 'saudacao', message: 'Olá {{name}}, aqui é {{user}}!' } });
  expect(quick.status).toBe(201);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('chat', () => {
  it('answers with text, emoji, image, voice note, Sign and a quick answer; drawer, CSV, audio speed, transfer', async () => {
    const inbound = await api(`/simulator/${connectionId}/inbound`, { method: 'POST', body: { ...CONTACT, body: 'Bom dia, quero falar com alguém' } });
    expect(inbound.status).toBe(200);
    await expect.poll(() => ticketOf(CONTACT.from, 'pending')).toBeGreaterThan(0);
    const ticketId = await ticketOf(CONTACT.from, 'pending');

    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page, `/tickets/${ticketId}`);
    // Pending: read-only with Accept.
    await page.getByTestId('ticket-view').getByTestId('ticket-accept').waitFor();
    await expect(page.getByTestId('message-input').isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('audio-record').isDisabled()).resolves.toBe(true);
    await page.getByTestId('ticket-view').getByTestId('ticket-accept').click();
    const view = page.getByTestId('ticket-view');
    await expect.poll(() => view.getAttribute('data-status')).toBe('open');
    await messages(page).filter({ hasText: 'Bom dia, quero falar com alguém' }).waitFor();

    // Text plus an emoji from the picker, inserted where the cursor is.
    const input = page.getByTestId('message-input');
    await input.fill('Claro, posso ajudar ');
    await page.getByTestId('message-emoji').click();
    const emojiButton = page.getByTestId('emoji-picker').locator('[data-epr-unified]').first();
    await emojiButton.waitFor();
    await screenshot(page, 'chat-38-emoji-picker');
    const unified = (await emojiButton.getAttribute('data-epr-unified')) ?? '';
    const emoji = String.fromCodePoint(...unified.split('-').map((hex) => parseInt(hex, 16)));
    await emojiButton.click();
    await page.keyboard.press('Escape');
    await expect.poll(() => input.inputValue()).toBe(`Claro, posso ajudar ${emoji}`);
    await input.press('Enter');
    await messages(page)
      .filter({ hasText: `Claro, posso ajudar ${emoji}` })
      .waitFor();
    await expect.poll(async () => (await outbox()).some((item) => item.kind === 'text' && item.body === `Claro, posso ajudar ${emoji}`)).toBe(true);

    // An image.
    await page.getByTestId('message-file').setInputFiles({ name: 'foto.png', mimeType: 'image/png', buffer: PIXEL_PNG });
    // Picked files wait in the preview until Send.
    await page.getByTestId('attachments-send').click();
    const sentImage = messages(page)
      .filter({ has: page.getByTestId('message-image') })
      .last();
    await sentImage.waitFor();
    await expect.poll(async () => (await outbox()).some((item) => item.kind === 'media' && item.mimetype === 'image/png')).toBe(true);

    // A voice note of about 2 seconds: the timer runs, the audio is sent and plays in the chat.
    await page.getByTestId('audio-record').click();
    await page.getByTestId('audio-recorder').waitFor();
    await expect.poll(() => page.getByTestId('audio-timer').textContent(), { timeout: 6000 }).toBe('00:02');
    await screenshot(page, 'chat-39-recording');
    await page.getByTestId('audio-send').click();
    const audioMessage = messages(page).filter({ has: page.getByTestId('message-audio') });
    await audioMessage.first().waitFor();
    await expect.poll(async () => (await outbox()).filter((item) => item.kind === 'voice').length).toBe(1);
    await page.getByTestId('audio-record').waitFor();
    // The browser can read what it gets back: the stored voice note is a playable file.
    await expect
      .poll(
        () =>
          audioMessage
            .first()
            .getByTestId('message-audio')
            .evaluate((element) => (element instanceof HTMLAudioElement ? element.readyState : 0)),
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);

    // A recording stopped at once is under 10000 bytes: discarded with a message.
    await page.getByTestId('audio-record').click();
    await page.getByTestId('audio-send').click();
    await page.locator('.Toastify__toast', { hasText: 'The recording is too short and was discarded.' }).first().waitFor();
    await page.getByTestId('audio-record').waitFor();
    await expect(audioMessage.count()).resolves.toBe(1);
    expect((await outbox()).filter((item) => item.kind === 'voice').length).toBe(1);

    // Sign: the agent's name in bold before the text; the choice is remembered.
    await page.getByTestId('message-sign').check();
    await input.fill('Mensagem assinada');
    await input.press('Enter');
    await expect.poll(async () => (await outbox()).some((item) => item.kind === 'text' && item.body === `*${adminName}:*\nMensagem assinada`)).toBe(true);
    await expect(page.evaluate(() => localStorage.getItem('zapdesk.signMessage'))).resolves.toBe('true');
    await page.getByTestId('message-sign').uncheck();

    // '/' offers the quick answers; picking one fills its variables in.
    await input.fill('/sauda');
    const option = page.getByTestId('quick-answers').getByTestId('quick-answer-option').filter({ hasText: '/saudacao' });
    await option.waitFor();
    await option.click();
    await expect.poll(() => input.inputValue()).toBe(`Olá ${CONTACT.name}, aqui é ${adminName}!`);
    await expect(page.getByTestId('quick-answers').count()).resolves.toBe(0);
    await input.press('Enter');
    await messages(page)
      .filter({ hasText: `Olá ${CONTACT.name}, aqui é ${adminName}!` })
      .waitFor();

    // The contact drawer: the number as a tel: link.
    await page.getByTestId('ticket-contact-button').click();
    const drawer = page.getByTestId('contact-drawer');
    await drawer.waitFor();
    await expect(drawer.getByTestId('contact-drawer-number').textContent()).resolves.toBe(CONTACT.from);
    await expect(drawer.getByTestId('contact-drawer-number').getAttribute('href')).resolves.toBe(`tel:+${CONTACT.from}`);
    await expect(drawer.evaluate((element) => element.getBoundingClientRect().width)).resolves.toBe(320);
    await screenshot(page, 'chat-40-desktop-drawer');
    await page.getByTestId('contact-drawer-close').click();

    // The import/export panel: the connection id, and the loaded messages as zdg.csv with ';'.
    await page.getByTestId('ticket-panel-toggle').click();
    await expect.poll(() => page.getByTestId('panel-connection-id').textContent()).toContain(String(connectionId));
    await expect(page.getByTestId('panel-import-connection').inputValue()).resolves.toBe(String(connectionId));
    // The import form asks the phone's history for this contact; what is already here is not doubled.
    await page.getByTestId('panel-import-limit').fill('50');
    await page.getByTestId('panel-import-submit').click();
    await page
      .locator('.Toastify__toast', { hasText: /^\d+ messages imported\.$/ })
      .first()
      .waitFor();
    await expect(messages(page).filter({ hasText: 'Bom dia, quero falar com alguém' }).count()).resolves.toBe(1);
    const downloading = page.waitForEvent('download');
    await page.getByTestId('panel-export-csv').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('zdg.csv');
    const csvPath = await download.path();
    const csv = (await readFile(csvPath, 'utf8')).replace(/^\uFEFF/, '');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('"Date";"Time";"From";"Message"');
    expect(lines.some((line) => /^"\d{2}\/\d{2}\/\d{4}";"\d{2}:\d{2}";"Carla Conversa";"Bom dia, quero falar com alguém"$/.test(line))).toBe(true);
    expect(lines.some((line) => line.endsWith(`;"${adminName}";"Mensagem assinada"`) || line.includes('Mensagem assinada'))).toBe(true);
    await screenshot(page, 'chat-41-desktop-panel');
    await page.getByTestId('ticket-panel-toggle').click();

    // The audio speed cycles 1 → 1.5 and is remembered after a reload.
    const speed = audioMessage.first().getByTestId('audio-speed');
    await expect(speed.getAttribute('data-speed')).resolves.toBe('1');
    await speed.click();
    await expect(speed.getAttribute('data-speed')).resolves.toBe('1.5');
    await expect(
      audioMessage
        .first()
        .getByTestId('message-audio')
        .evaluate((element) => (element instanceof HTMLAudioElement ? element.playbackRate : 0)),
    ).resolves.toBe(1.5);
    await page.reload();
    await audioMessage.first().waitFor();
    await expect(audioMessage.first().getByTestId('audio-speed').getAttribute('data-speed')).resolves.toBe('1.5');
    await audioMessage.first().getByTestId('audio-speed').click();
    await audioMessage.first().getByTestId('audio-speed').click();
    await expect(audioMessage.first().getByTestId('audio-speed').getAttribute('data-speed')).resolves.toBe('0.5');
    await screenshot(page, 'chat-42-desktop');

    // Transfer to a queue without a user: back to pending, unassigned, out of Working on.
    await page.getByTestId('ticket-transfer').click();
    await page.getByTestId('transfer-modal').waitFor();
    await page.getByTestId('transfer-submit').click();
    await expect(page.getByTestId('transfer-error').textContent()).resolves.toBe('Choose a user or a queue.');
    // Without a queue chosen, the user search starts at 3 characters.
    await page.getByTestId('transfer-user').fill('ad');
    await page.getByText("The queue's agents, or type 3 letters to search everyone").first().waitFor();
    await page.getByTestId('transfer-user').fill('');
    await page.getByTestId('transfer-queue').getByRole('combobox').click();
    await page.getByRole('option', { name: 'Suporte', exact: true }).click();
    await screenshot(page, 'chat-43-transfer');
    await page.getByTestId('transfer-submit').click();
    await page.waitForURL('**/tickets');
    const moved = await ticket(ticketId);
    expect(moved).toMatchObject({ status: 'pending', userId: null, queueId });
    await expect.poll(() => page.getByTestId('tickets-list-open').getByTestId('ticket-row').filter({ hasText: CONTACT.name }).count()).toBe(0);

    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('loads older messages only when scrolled to the top, keeps the place, and follows new ones to the bottom', async () => {
    const longChat = { from: '5511955550000', name: 'Lia Longa' };
    for (let index = 1; index <= 45; index += 1) {
      const sent = await api(`/simulator/${connectionId}/inbound`, { method: 'POST', body: { ...longChat, body: `Linha ${index}` } });
      expect(sent.status).toBe(200);
    }
    await expect.poll(() => ticketOf(longChat.from, 'pending')).toBeGreaterThan(0);
    const ticketId = await ticketOf(longChat.from, 'pending');
    expect((await api(`/tickets/${ticketId}`, { method: 'PUT', body: { status: 'open' } })).status).toBe(200);

    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    const pagesAsked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === `/api/messages/${ticketId}`) pagesAsked.push(url.searchParams.get('pageNumber') ?? '');
    });
    await openSignedIn(page, `/tickets/${ticketId}`);
    await messages(page).filter({ hasText: 'Linha 45' }).waitFor();
    const list = page.getByTestId('messages-list');
    await expect.poll(() => list.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight)).toBeLessThan(5);
    // Opening at the bottom does not fetch the older pages.
    await page.waitForTimeout(2000);
    expect(pagesAsked).toEqual(['1']);

    // Within 50px of the top (the reader's wheel): page 2 comes, and the reader stays where they were.
    await list.hover();
    await page.mouse.wheel(0, -100_000);
    await expect.poll(() => pagesAsked.includes('2')).toBe(true);
    await list
      .getByTestId('message-body')
      .filter({ hasText: /^Linha 25$/ })
      .waitFor();
    await screenshot(page, 'chat-47-older-loaded');
    await expect.poll(() => list.evaluate((element) => element.scrollTop)).toBeGreaterThan(200);
    // Not thrown to the end either: the rows the reader saw are still in view.
    await expect(list.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight)).resolves.toBeGreaterThan(500);
    expect(pagesAsked.includes('3')).toBe(false);
    await page.mouse.wheel(0, -100_000);
    await expect.poll(() => pagesAsked.includes('3')).toBe(true);
    await list
      .getByTestId('message-body')
      .filter({ hasText: /^Linha 1$/ })
      .waitFor();

    // A new message brings the list back to the bottom.
    expect((await api(`/simulator/${connectionId}/inbound`, { method: 'POST', body: { ...longChat, body: 'Chegou agora' } })).status).toBe(200);
    await messages(page).filter({ hasText: 'Chegou agora' }).waitFor();
    await expect.poll(() => list.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight)).toBeLessThan(5);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("'Protocolo' sends a protocol number, shows it and closes the ticket; the chat on a phone", async () => {
    const inbound = await api(`/simulator/${connectionId}/inbound`, { method: 'POST', body: { ...PROTOCOL_CONTACT, body: 'Preciso de um protocolo' } });
    expect(inbound.status).toBe(200);
    await expect.poll(() => ticketOf(PROTOCOL_CONTACT.from, 'pending')).toBeGreaterThan(0);
    const ticketId = await ticketOf(PROTOCOL_CONTACT.from, 'pending');
    expect((await api(`/tickets/${ticketId}`, { method: 'PUT', body: { status: 'open' } })).status).toBe(200);

    const context = await newContext(browser, server.baseUrl, { mobile: true });
    const page = await context.newPage();
    await openSignedIn(page, `/tickets/${ticketId}`);
    await messages(page).filter({ hasText: 'Preciso de um protocolo' }).waitFor();
    await page.getByTestId('message-input').fill('Segue um link: https://exemplo.com.br/pedido?id=7');
    await page.getByTestId('message-input').press('Enter');
    await messages(page)
      .filter({ has: page.getByTestId('message-link') })
      .waitFor();
    await screenshot(page, 'chat-44-phone');
    await page.getByTestId('ticket-contact-button').click();
    await page.getByTestId('contact-drawer').waitFor();
    await screenshot(page, 'chat-45-phone-drawer');
    await page.getByTestId('contact-drawer-close').click();

    await page.getByTestId('ticket-protocol').click();
    const number = page.getByTestId('protocol-number');
    await number.waitFor();
    const protocol = (await number.textContent()) ?? '';
    expect(protocol).toMatch(/^\d{6,}$/);
    await screenshot(page, 'chat-46-phone-protocol');
    await expect.poll(async () => (await ticket(ticketId)).status).toBe('closed');
    await expect.poll(async () => (await outbox()).some((item) => item.kind === 'text' && item.body.includes(protocol))).toBe(true);
    await page.getByTestId('protocol-ok').click();
    // Closed: the input is off until the ticket is reopened.
    await expect.poll(() => page.getByTestId('ticket-view').getAttribute('data-status')).toBe('closed');
    await expect(page.getByTestId('message-input').isDisabled()).resolves.toBe(true);
    await page.getByTestId('ticket-reopen').waitFor();

    // A shared contact card: 'Conversar' creates that contact and opens a chat with it.
    const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:Nina Nova\nTEL;type=CELL;waid=5511933332222:+55 11 93333-2222\nEND:VCARD';
    expect((await api(`/simulator/${connectionId}/inbound`, { method: 'POST', body: { ...PROTOCOL_CONTACT, vcard } })).status).toBe(200);
    await expect.poll(() => ticketOf(PROTOCOL_CONTACT.from, 'pending')).toBeGreaterThan(0);
    const cardTicket = await ticketOf(PROTOCOL_CONTACT.from, 'pending');
    expect((await api(`/tickets/${cardTicket}`, { method: 'PUT', body: { status: 'open' } })).status).toBe(200);
    await page.goto(`/tickets/${cardTicket}`);
    const card = page.getByTestId('message-vcard').filter({ hasText: 'Nina Nova' });
    await card.waitFor();
    await card.getByTestId('message-vcard-talk').click();
    await expect.poll(() => page.getByTestId('ticket-title').textContent()).toContain('Nina Nova');
    await expect.poll(() => ticketOf('5511933332222', 'open')).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe(`/tickets/${await ticketOf('5511933332222', 'open')}`);

    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("shows a reply the phone network refuses as 'Not sent' with Retry, which sends it once the number is right", async () => {
    // Numbers of the country code 999 have no account on the simulated network.
    const { context, page, contactId } = await openChatWith({ name: 'Número Errado', number: '+9991199887766' });
    const input = page.getByTestId('message-input');
    await input.fill('Seu pedido saiu para entrega');
    await input.press('Enter');
    const bubble = messages(page).filter({ hasText: 'Seu pedido saiu para entrega' });
    await bubble.getByTestId('message-send-failed').waitFor();
    await expect(bubble.getByTestId('message-send-failed').textContent()).resolves.toContain('Not sent');
    // The reply is in the chat (with Retry), so the input is free for the next one.
    await expect.poll(() => input.inputValue()).toBe('');
    await screenshot(page, 'chat-47-reply-not-sent');
    expect((await outbox()).some((item) => item.body === 'Seu pedido saiu para entrega')).toBe(false);

    // The number is corrected; Retry sends the same message, once.
    expect((await api(`/contacts/${contactId}`, { method: 'PUT', body: { name: 'Número Certo', number: '5511998877665', email: '' } })).status).toBe(200);
    await bubble.getByTestId('message-retry').click();
    await expect.poll(() => bubble.getByTestId('message-send-failed').count()).toBe(0);
    await bubble.getByTestId('message-ack').waitFor();
    await expect.poll(async () => (await outbox()).filter((item) => item.body === 'Seu pedido saiu para entrega').length).toBe(1);
    await expect(messages(page).filter({ hasText: 'Seu pedido saiu para entrega' }).count()).resolves.toBe(1);
    await screenshot(page, 'chat-48-reply-retried');

    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('keeps a picture picked while the last message is still being sent, without that text as its caption, and sends it after', async () => {
    const { context, page, ticketId } = await openChatWith({ name: 'Rita Rápida', number: '5511955554444' });
    // The server stores and sends the text at once; its answer to the browser is held, as on a
    // slow network, so the live event shows the message while the input is still sending it.
    let release = () => {};
    const answerHeld = new Promise<void>((resolve) => (release = resolve));
    let textSends = 0;
    await page.route(`**/api/messages/${ticketId}`, async (route) => {
      if (route.request().method() !== 'POST' || !(route.request().headers()['content-type'] ?? '').includes('json')) return route.fallback();
      textSends += 1;
      const response = await route.fetch();
      await answerHeld;
      await route.fulfill({ response });
    });

    const input = page.getByTestId('message-input');
    await input.fill('Já te mando a foto');
    await input.press('Enter');
    await messages(page).filter({ hasText: 'Já te mando a foto' }).waitFor();
    expect(textSends).toBe(1);
    await expect(page.getByTestId('message-attach').isDisabled()).resolves.toBe(true);

    // A quick user picks the picture now (or pastes or drops it): it waits in the preview.
    await page.getByTestId('message-file').setInputFiles({ name: 'comprovante.png', mimeType: 'image/png', buffer: PIXEL_PNG });
    const preview = page.getByTestId('attachments-preview');
    await preview.waitFor();
    await expect(preview.textContent()).resolves.toContain('comprovante.png');
    // The text in the input is the message on its way, not this picture's caption.
    await expect(page.getByTestId('attachment-caption').inputValue()).resolves.toBe('');
    await expect(page.getByTestId('attachments-send').isDisabled()).resolves.toBe(true);

    // The text's answer comes; the preview's Send is free and sends the picture alone.
    release();
    await expect.poll(() => page.getByTestId('attachments-send').isEnabled()).toBe(true);
    await page.getByTestId('attachments-send').click();
    await messages(page)
      .filter({ has: page.getByTestId('message-image') })
      .waitFor();
    const media = () => outbox().then((items) => items.filter((item) => item.kind === 'media' && item.to.startsWith('5511955554444')));
    await expect.poll(async () => (await media()).length).toBe(1);
    expect((await media())[0]?.body).toBe('');
    await expect(messages(page).filter({ hasText: 'Já te mando a foto' }).count()).resolves.toBe(1);

    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
