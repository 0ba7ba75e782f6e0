/**
 * The Tickets screen against a server with the simulated phone channel: a contact writes in
 * through the simulator API, the ticket shows up live under Queue, the admin accepts it, answers
 * (the delivery icon turns read), gets the contact's next messages live in the open chat, deletes
 * an own message and resolves the ticket, which moves to Resolved.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZTicketListSchema } from '@zapdesk/shared/messaging';
import { launchBrowser, newContext, pageErrors, recordTrail, screenshot, openSignedIn } from './browser';
import { startServer, type RunningServer } from './server';
import { apiAs, scanWhenReady, signIn } from './simulator';

let server: RunningServer;
let browser: Browser;
let adminToken = '';
let connectionId = 0;

const CONTACT = { from: '5511988887777', name: 'Maria Cliente' };
// A 1x1 PNG, for an inbound image.
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const api = (route: string, options: { method?: string; body?: unknown } = {}) => apiAs(server.baseUrl, () => adminToken)(route, options);

async function writeIn(body: Record<string, unknown>): Promise<void> {
  const response = await api(`/simulator/${connectionId}/inbound`, { method: 'POST', body: { ...CONTACT, ...body } });
  expect(response.status).toBe(200);
}

function messages(page: Page) {
  return page.getByTestId('messages-list').getByTestId('message');
}

function countOf(page: Page, status: 'open' | 'pending'): Promise<string | null> {
  return page.getByTestId(`count-${status}`).getAttribute('data-count');
}

beforeAll(async () => {
  server = await startServer({ simulator: true });
  browser = await launchBrowser();
  adminToken = (await signIn(server.baseUrl)).token;

  const created = await api('/whatsapp', { method: 'POST', body: { name: 'Loja Centro', channel: 'simulator' } });
  expect(created.status).toBe(201);
  const connection: unknown = await created.json();
  connectionId = typeof connection === 'object' && connection !== null && 'id' in connection && typeof connection.id === 'number' ? connection.id : 0;
  expect(connectionId).toBeGreaterThan(0);
  await scanWhenReady(api, connectionId);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('tickets', () => {
  it('follows a conversation live from the queue to resolved', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page);
    await page.getByTestId('menu-tickets').click();
    await page.getByTestId('tickets-page').waitFor();
    await page.getByTestId('ticket-placeholder').waitFor();
    await expect(page.getByTestId('tickets-show-all').locator('input').isChecked()).resolves.toBe(true);
    await page.getByTestId('tickets-list-open').getByTestId('tickets-empty').waitFor();
    await expect(page.getByTestId('tickets-empty').textContent()).resolves.toContain('Nothing here!');
    await page.getByTestId('tab-pending').click();
    await page.getByTestId('tickets-list-pending').getByTestId('tickets-empty').waitFor();

    // The contact writes in: the ticket appears under Queue without a reload.
    await writeIn({ body: 'Oi, preciso de ajuda com meu pedido' });
    const row = page.getByTestId('tickets-list-pending').getByTestId('ticket-row').filter({ hasText: CONTACT.name });
    await row.waitFor();
    await expect.poll(() => countOf(page, 'pending')).toBe('1');
    await expect(row.getByTestId('ticket-last-message').textContent()).resolves.toBe('Oi, preciso de ajuda com meu pedido');
    await expect(row.getByTestId('ticket-time').textContent()).resolves.toMatch(/^\d{2}:\d{2}$/);
    await expect(row.getByTestId('ticket-unread').textContent()).resolves.toBe('1');
    await expect(row.getByTestId('ticket-connection-tag').textContent()).resolves.toBe('Loja Centro');
    await expect(row.getByTestId('ticket-queue-bar').getAttribute('aria-label')).resolves.toBe('No queue');
    await screenshot(page, '30-tickets-queue');

    // A click on a pending row opens it read-only, with Aceitar in the header; Accept takes it.
    const ticketId = Number(await row.getAttribute('data-id'));
    await row.click();
    await page.waitForURL(`**/tickets/${ticketId}`);
    await expect.poll(() => page.getByTestId('ticket-view').getAttribute('data-status')).toBe('pending');
    await page.getByTestId('ticket-view').getByTestId('ticket-accept').waitFor();
    await row.getByTestId('ticket-accept').click();
    await page.waitForURL(`**/tickets/${ticketId}`);
    const view = page.getByTestId('ticket-view');
    await expect.poll(() => view.getAttribute('data-status')).toBe('open');
    await expect(page.getByTestId('ticket-title').textContent()).resolves.toBe(`${CONTACT.name} #${ticketId}`);
    await expect(page.getByTestId('ticket-assignee').textContent()).resolves.toMatch(/^Assigned to: /);
    await messages(page).filter({ hasText: 'Oi, preciso de ajuda com meu pedido' }).waitFor();
    await expect(page.getByTestId('day-separator').first().textContent()).resolves.toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    await expect.poll(() => countOf(page, 'pending')).toBe('0');
    await expect.poll(() => countOf(page, 'open')).toBe('1');
    const openRow = page.getByTestId('tickets-list-open').getByTestId('ticket-row').filter({ hasText: CONTACT.name });
    await openRow.waitFor();

    // A whitespace-only message is not sent; a real one shows with its delivery icon, which turns read.
    const input = page.getByTestId('message-input');
    await input.fill('   ');
    await input.press('Enter');
    await expect(page.getByTestId('message-send').isDisabled()).resolves.toBe(true);
    await input.fill('Olá, tudo bem?');
    await input.press('Enter');
    const reply = messages(page).filter({ hasText: 'Olá, tudo bem?' });
    await reply.waitFor();
    await expect(reply.getAttribute('data-from-me')).resolves.toBe('true');
    // The reply shows through the socket as soon as it is stored; the input clears when the send's answer comes.
    await expect.poll(() => input.inputValue()).toBe('');
    await expect(reply.getByTestId('message-ack').count()).resolves.toBe(1);
    await expect.poll(async () => Number(await reply.getByTestId('message-ack').getAttribute('data-ack')), { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    await expect(reply.getByTestId('message-time').textContent()).resolves.toMatch(/^\d{2}:\d{2}$/);
    await expect(messages(page).filter({ hasText: /^\s*$/ }).count()).resolves.toBe(0);
    await expect.poll(() => openRow.getByTestId('ticket-last-message').textContent()).toBe('Olá, tudo bem?');

    // Shift+Enter breaks the line instead of sending.
    await input.fill('Linha um');
    await input.press('Shift+Enter');
    await input.type('Linha dois');
    await expect(input.inputValue()).resolves.toBe('Linha um\nLinha dois');
    await input.press('Enter');
    await messages(page).filter({ hasText: 'Linha dois' }).waitFor();

    // The contact writes again, sends a location, a contact card and a picture: all show live.
    await writeIn({ body: 'Tudo ótimo! Segue minha localização.' });
    await messages(page).filter({ hasText: 'Tudo ótimo! Segue minha localização.' }).waitFor();
    await writeIn({ location: { latitude: -23.5505, longitude: -46.6333, description: 'Praça da Sé, São Paulo' } });
    const location = page.getByTestId('message-location').last();
    await location.waitFor();
    await expect(location.textContent()).resolves.toContain('Praça da Sé, São Paulo');
    await expect(location.getByTestId('message-location-link').getAttribute('href')).resolves.toMatch(/^https?:\/\//);
    await writeIn({ vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:João Entregador\nTEL;type=CELL;waid=5511977776666:+55 11 97777-6666\nEND:VCARD' });
    const card = page.getByTestId('message-vcard').last();
    await card.waitFor();
    await expect(card.textContent()).resolves.toContain('João Entregador');
    await expect(card.textContent()).resolves.toContain('5511977776666');
    await writeIn({ body: 'foto do pedido', media: { base64: PIXEL_PNG, mimetype: 'image/png', filename: 'pedido.png' } });
    const image = page.getByTestId('message-image').last();
    await image.waitFor();
    await expect.poll(() => image.evaluate((element) => (element instanceof HTMLImageElement ? element.naturalWidth : 0))).toBeGreaterThan(0);
    await writeIn({ body: '', media: { base64: Buffer.from('OggS fake voice note').toString('base64'), mimetype: 'audio/ogg', filename: 'audio.ogg' } });
    const audio = page.getByTestId('message-audio').last();
    // These bytes are no voice note Chromium can decode: once it says so, the player hides itself
    // and offers the file instead (on a busy machine that comes before a check for a visible
    // player would). The message itself is there, with the media's signed address.
    await audio.waitFor({ state: 'attached' });
    await expect(audio.getAttribute('src')).resolves.toMatch(/^\/api\/media\/\d+\?/);
    await page.getByTestId('message-audio-unsupported').last().getByRole('link').waitFor();
    // The open chat has read them: no unread badge on its row.
    await expect(openRow.getByTestId('ticket-unread').count()).resolves.toBe(0);
    await screenshot(page, '31-ticket-chat');

    // Attachments go as multipart: a picture shows inline, another file gets a Download button.
    const fromMeImages = page.locator('[data-testid="message"][data-from-me="true"]').getByTestId('message-image');
    await page.getByTestId('message-file').setInputFiles({ name: 'catalogo.png', mimeType: 'image/png', buffer: Buffer.from(PIXEL_PNG, 'base64') });
    // Picked files wait in the preview until Send.
    await page.getByTestId('attachments-send').click();
    await fromMeImages.first().waitFor();
    await expect.poll(() => fromMeImages.first().evaluate((element) => (element instanceof HTMLImageElement ? element.naturalWidth : 0))).toBeGreaterThan(0);
    await page.getByTestId('message-file').setInputFiles({ name: 'tabela.txt', mimeType: 'text/plain', buffer: Buffer.from('preço;10') });
    // Picked files wait in the preview until Send.
    await page.getByTestId('attachments-send').click();
    const download = page.locator('[data-testid="message"][data-from-me="true"]').getByTestId('message-download');
    await download.first().waitFor();
    await expect(download.first().getAttribute('href')).resolves.toMatch(/^\/api\/media\/\d+\?/);

    // Reply to the contact's message: the answer carries the quote.
    await messages(page).filter({ hasText: 'Tudo ótimo! Segue minha localização.' }).hover();
    await messages(page).filter({ hasText: 'Tudo ótimo! Segue minha localização.' }).getByTestId('message-menu').click();
    await page.getByTestId('message-reply').click();
    await page.getByTestId('reply-preview').waitFor();
    await input.fill('Recebido, obrigado!');
    await input.press('Enter');
    const quoted = messages(page).filter({ hasText: 'Recebido, obrigado!' });
    await quoted.getByTestId('message-quoted').waitFor();
    await expect(quoted.getByTestId('message-quoted').textContent()).resolves.toContain('Tudo ótimo! Segue minha localização.');
    // The preview closes once the send is answered; the live event may show the reply before.
    await expect.poll(() => page.getByTestId('reply-preview').count()).toBe(0);

    // Delete an own message, confirmed: the deleted marker replaces it.
    const doomed = messages(page).filter({ hasText: 'Linha dois' });
    const deletedId = await doomed.getAttribute('data-id');
    await doomed.hover();
    await doomed.getByTestId('message-menu').click();
    await page.getByTestId('message-delete').click();
    await page.getByTestId('confirmation-dialog').getByText('This action cannot be reverted.').waitFor();
    await page.getByTestId('confirmation-confirm').click();
    await page.locator(`[data-testid="message"][data-id="${deletedId}"]`).getByTestId('message-deleted').waitFor();
    await expect(page.locator(`[data-testid="message"][data-id="${deletedId}"]`).textContent()).resolves.toContain('This message was deleted');

    // Resolve: the input closes, the ticket moves to Resolved with its 'closed' badge.
    await page.getByTestId('ticket-resolve').click();
    await expect.poll(() => view.getAttribute('data-status')).toBe('closed');
    await expect(input.isDisabled()).resolves.toBe(true);
    await expect(input.getAttribute('placeholder')).resolves.toBe('Ticket resolved. Click Reopen to send a message.');
    await page.getByTestId('ticket-reopen').waitFor();
    await expect.poll(() => countOf(page, 'open')).toBe('0');
    await page.getByTestId('tab-resolved').click();
    const closedRow = page.getByTestId('tickets-list-closed').getByTestId('ticket-row').filter({ hasText: CONTACT.name });
    await closedRow.waitFor();
    await closedRow.getByTestId('ticket-closed-badge').waitFor();
    await screenshot(page, '32-tickets-resolved');

    // Reopen from the chat: back under Working on.
    await page.getByTestId('ticket-reopen').click();
    await expect.poll(() => view.getAttribute('data-status')).toBe('open');
    await closedRow.waitFor({ state: 'detached' });
    await page.getByTestId('tab-inbox').click();
    await page.getByTestId('tab-open').click();
    await page.getByTestId('tickets-list-open').getByTestId('ticket-row').filter({ hasText: CONTACT.name }).waitFor();
    await context.close();
  });

  it('shows one column at a time on a phone', async () => {
    const context = await newContext(browser, server.baseUrl, { mobile: true });
    const page = await context.newPage();
    await openSignedIn(page, '/tickets');
    const row = page.getByTestId('tickets-list-open').getByTestId('ticket-row').filter({ hasText: CONTACT.name });
    await row.waitFor();
    await expect(page.getByTestId('ticket-placeholder').isVisible()).resolves.toBe(false);
    // What came in while the chat was open on the desktop was read there.
    await expect(row.getByTestId('ticket-unread').count()).resolves.toBe(0);
    await screenshot(page, '33-tickets-phone-list');
    await row.click();
    await page.getByTestId('ticket-view').waitFor();
    await expect(row.isVisible()).resolves.toBe(false);
    await messages(page).filter({ hasText: 'Recebido, obrigado!' }).waitFor();
    await screenshot(page, '34-ticket-phone-chat');
    await page.getByTestId('ticket-back').click();
    await page.waitForURL('**/tickets');
    await row.waitFor();
    await context.close();
  });

  it('loads older messages at the top and leaves a chat whose ticket was deleted', async () => {
    const other = { from: '5511955554444', name: 'Bruno Histórico' };
    for (let index = 1; index <= 25; index += 1) {
      const sent = await api(`/simulator/${connectionId}/inbound`, { method: 'POST', body: { ...other, body: `Mensagem ${index}` } });
      expect(sent.status).toBe(200);
    }
    const findTicket = async (): Promise<number> => {
      const { tickets } = ZTicketListSchema.parse(await (await api('/tickets?status=pending&showAll=true')).json());
      return tickets.find((ticket) => ticket.contact.number === other.from && ticket.lastMessage === 'Mensagem 25')?.id ?? 0;
    };
    await expect.poll(findTicket).toBeGreaterThan(0);
    const ticketId = await findTicket();
    expect((await api(`/tickets/${ticketId}`, { method: 'PUT', body: { status: 'open' } })).status).toBe(200);

    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page, `/tickets/${ticketId}`);
    await messages(page).filter({ hasText: 'Mensagem 25' }).waitFor();
    // The newest page (20) shows, scrolled to the bottom; scrolling to the top brings the rest.
    await expect(messages(page).count()).resolves.toBe(20);
    await expect(messages(page).first().textContent()).resolves.toContain('Mensagem 6');
    const list = page.getByTestId('messages-list');
    await expect.poll(() => list.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight)).toBeLessThan(5);
    await list.hover();
    await page.mouse.wheel(0, -100_000);
    await expect.poll(() => messages(page).count()).toBe(25);
    await expect(messages(page).first().textContent()).resolves.toContain('Mensagem 1');
    // The view stays where the reader was instead of jumping to the oldest message.
    await expect.poll(() => list.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);

    // Return to the queue: the chat closes and the ticket waits under Queue again, unassigned.
    await page.getByTestId('ticket-return').click();
    await page.waitForURL('**/tickets');
    await page.getByTestId('tab-pending').click();
    const queued = page.getByTestId('tickets-list-pending').getByTestId('ticket-row').filter({ hasText: other.name });
    await queued.waitFor();
    await expect(queued.getByTestId('ticket-user-tag').count()).resolves.toBe(0);

    // A pending ticket opened by its address offers Accept, and its input stays closed.
    await page.goto(`/tickets/${ticketId}`);
    await page.getByTestId('ticket-view').getByTestId('ticket-accept').waitFor();
    await expect(page.getByTestId('message-input').isDisabled()).resolves.toBe(true);

    // Deleted elsewhere: a toast that says so, back to /tickets, and the row goes.
    expect((await api(`/tickets/${ticketId}`, { method: 'DELETE' })).status).toBe(204);
    await page.locator('.Toastify__toast', { hasText: 'The ticket you were on has been deleted.' }).first().waitFor();
    await page.waitForURL('**/tickets');
    await page.getByTestId('ticket-placeholder').waitFor();
    await expect(page.getByTestId('ticket-row').filter({ hasText: other.name }).count()).resolves.toBe(0);
    // Only the one toast: the gone ticket is not read again.
    await page.waitForTimeout(500);
    await expect(page.locator('.Toastify__toast--error').count()).resolves.toBe(0);
    await context.close();
  });

  it('loads the next page of tickets when the list nears its bottom', async () => {
    for (let index = 1; index <= 21; index += 1) {
      const sent = await api(`/simulator/${connectionId}/inbound`, {
        method: 'POST',
        body: { from: `55119300000${String(index).padStart(2, '0')}`, name: `Cliente ${index}`, body: `Olá ${index}` },
      });
      expect(sent.status).toBe(200);
    }
    // The test owns the waiting list: exactly its 21 tickets, all stored, before the page opens
    // (a ticket arriving after the first page would be merged in live and change the count).
    const pendingNow = async () => ((await (await api('/tickets?status=pending&showAll=true&pageNumber=1')).json()) as { count: number }).count;
    await expect.poll(pendingNow).toBe(21);
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    const trail = recordTrail(page);
    await openSignedIn(page, '/tickets');
    await page.getByTestId('tab-pending').click();
    await expect.poll(() => countOf(page, 'pending')).toBe('21');
    // The list is virtualized: it loaded 20 tickets but holds only the rows in view.
    const list = page.getByTestId('tickets-list-pending');
    const rows = list.getByTestId('ticket-row');
    await expect.poll(() => list.getAttribute('data-loaded')).toBe('20');
    // Newest activity first.
    await expect(rows.first().getByTestId('ticket-contact').textContent()).resolves.toBe('Cliente 21');
    const toBottom = () =>
      list.getByTestId('tickets-scroller').evaluate((element) => {
        element.scrollTop = element.scrollHeight;
      });
    // Scrolled to the bottom until the next page is there: rows measured after the first jump can
    // make the list taller than the jump saw, as a reader scrolling on would find.
    try {
      await expect
        .poll(async () => {
          await toBottom();
          return list.getAttribute('data-loaded');
        })
        .toBe('21');
    } catch (error) {
      const state = await list
        .getByTestId('tickets-scroller')
        .evaluate(
          (e) =>
            `scrollTop ${e.scrollTop} scrollHeight ${e.scrollHeight} clientHeight ${e.clientHeight} rows ${e.querySelectorAll('[data-testid="ticket-row"]').length} visible ${e.checkVisibility()} footer ${e.textContent?.slice(-80)}`,
        );
      throw trail.explain(new Error(`${String(error)}\n${state}`));
    }
    await expect
      .poll(async () => {
        await toBottom();
        return rows.last().getByTestId('ticket-contact').textContent();
      })
      .toBe('Cliente 1');
    await context.close();
  });

  it('shows a plain user the tickets it may take, without the All switch, in Portuguese too', async () => {
    const agent = { name: 'Ana Agente', email: 'ana@e2e.test', password: 'ana-secret-1' };
    // An agent of a queue: she sees the waiting tickets without a queue too.
    const queue = await api('/queue', { method: 'POST', body: { name: 'Geral', color: '#5300EB', greetingMessage: '' } });
    expect(queue.status).toBe(201);
    const queueId = ((await queue.json()) as { id: number }).id;
    expect((await api('/users', { method: 'POST', body: { ...agent, profile: 'user', queueIds: [queueId] } })).status).toBe(201);
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page, '/tickets', agent);
    await page.getByTestId('tickets-manager').waitFor();
    await expect(page.getByTestId('tickets-show-all').count()).resolves.toBe(0);
    // The admin's own conversation is not hers; the unassigned queue is: with nothing of hers
    // being served, the Inbox opens on 'Aguardando'.
    await expect.poll(() => page.getByTestId('tab-pending').getAttribute('aria-selected'), { timeout: 15_000 }).toBe('true');
    await page.getByTestId('tab-open').click();
    await page.getByTestId('tickets-list-open').getByTestId('tickets-empty').waitFor();
    await page.getByTestId('tab-pending').click();
    await expect.poll(() => countOf(page, 'pending')).toBe('21');

    await page.getByTestId('language-button').click();
    await page.getByTestId('language-option-pt').click();
    await expect.poll(() => page.getByTestId('tab-open').textContent()).toContain('Atendendo');
    const row = page.getByTestId('tickets-list-pending').getByTestId('ticket-row').first();
    await expect(row.getByTestId('ticket-accept').textContent()).resolves.toBe('Aceitar');
    await expect(row.getByTestId('ticket-queue-bar').getAttribute('aria-label')).resolves.toBe('Sem fila');
    await screenshot(page, '35-tickets-agent-pt');
    await context.close();
  });

  it('raised no uncaught error in any page', () => {
    expect(pageErrors).toEqual([]);
  });
});
