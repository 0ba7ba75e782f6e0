/**
 * Labels in Portuguese: an admin creates two labels on the Etiquetas page; an agent puts one on a
 * ticket (the admin's list follows live) and one on the contact, filters the list by the label
 * (the other ticket leaves it), and sees the Kanban by label. Screens at 1440×900 and 390×844.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZTicketSchema, type TTicket } from '@zapdesk/shared/messaging';
import { launchBrowser, newContext, pageErrors, screenshot, openSignedIn } from './browser';
import { startServer, type RunningServer } from './server';
import { apiAs, idOf, scanWhenReady, signIn, type Api } from './simulator';

let server: RunningServer;
let browser: Browser;
let adminToken = '';
let agentToken = '';
let admin: Api;
let agent: Api;
let connectionId = 0;
let ticketA: TTicket;
let ticketB: TTicket;

const AGENT = { name: 'Paula Atendente', email: 'paula@e2e.test', password: 'paula-secret-1' };
const ZLabel = z.object({ id: z.number(), name: z.string() });

async function inbound(from: string, name: string, body: string): Promise<TTicket> {
  expect((await admin(`/simulator/${connectionId}/inbound`, { method: 'POST', body: { from, name, body } })).status).toBe(200);
  for (let tries = 0; tries < 100; tries += 1) {
    const list = z.object({ tickets: z.array(ZTicketSchema) }).parse(await (await admin(`/tickets?showAll=true&searchParam=${from}`)).json());
    const found = list.tickets.find((ticket) => ticket.contact.number === from);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no ticket for ${from}`);
}

async function labelId(name: string): Promise<number> {
  const labels = z.array(ZLabel).parse(await (await admin('/labels')).json());
  return labels.find((label) => label.name === name)?.id ?? 0;
}

function row(page: Page, ticketId: number) {
  return page.locator(`[data-testid="ticket-row"][data-id="${ticketId}"]`);
}

async function wide(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 900 });
}

beforeAll(async () => {
  server = await startServer({ simulator: true });
  browser = await launchBrowser();
  adminToken = (await signIn(server.baseUrl)).token;
  admin = apiAs(server.baseUrl, () => adminToken);
  const connection = await admin('/whatsapp', { method: 'POST', body: { name: 'Loja Centro', channel: 'simulator', isDefault: true } });
  expect(connection.status).toBe(201);
  connectionId = await idOf(connection);
  await scanWhenReady(admin, connectionId);
  const queue = await admin('/queue', { method: 'POST', body: { name: 'Suporte', color: '#1273DE', greetingMessage: '' } });
  const queueId = await idOf(queue);
  expect((await admin('/users', { method: 'POST', body: { ...AGENT, profile: 'user', queueIds: [queueId] } })).status).toBe(201);
  agentToken = (await signIn(server.baseUrl, AGENT)).token;
  agent = apiAs(server.baseUrl, () => agentToken);

  ticketA = await inbound('5511933330001', 'Marina Souza', 'Meu pedido atrasou');
  ticketB = await inbound('5511933330002', 'Rafael Lima', 'Quero trocar um produto');
  for (const ticket of [ticketA, ticketB]) {
    expect((await admin(`/tickets/${ticket.id}`, { method: 'PUT', body: { queueId } })).status).toBe(200);
    expect((await agent(`/tickets/${ticket.id}`, { method: 'PUT', body: { status: 'open' } })).status).toBe(200);
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('labels', () => {
  it('an admin creates two labels; an agent labels a ticket and a contact, filters by the label and sees the Kanban by label', async () => {
    // The admin: the Etiquetas page, in the menu, two labels.
    const adminContext = await newContext(browser, server.baseUrl, { locale: 'pt-BR' });
    const adminPage = await adminContext.newPage();
    await wide(adminPage);
    await openSignedIn(adminPage, '/labels');
    await adminPage.getByTestId('labels-page').waitFor();
    await expect(adminPage.getByTestId('page-title').textContent()).resolves.toBe('Etiquetas');
    await expect(adminPage.getByTestId('menu-labels').textContent()).resolves.toBe('Etiquetas');
    for (const name of ['VIP', 'Reclamação']) {
      await adminPage.getByTestId('add-label').click();
      await adminPage.getByTestId('label-name').fill(name);
      await adminPage.getByTestId('label-submit').click();
      await adminPage.getByText(`Etiqueta "${name}" salva.`).waitFor();
    }
    // The same name in another case is refused, with the reason in Portuguese.
    await adminPage.getByTestId('add-label').click();
    await adminPage.getByTestId('label-name').fill('vip');
    await adminPage.getByTestId('label-submit').click();
    await adminPage.getByText('Já existe uma etiqueta com este nome.').first().waitFor();
    await adminPage.getByTestId('label-cancel').click();
    await expect(adminPage.getByTestId('label-row-chip').allTextContents()).resolves.toEqual(['Reclamação', 'VIP']);
    await screenshot(adminPage, 'labels-01-admin-page-1440');
    const vip = await labelId('VIP');
    const complaint = await labelId('Reclamação');
    expect(vip).toBeGreaterThan(0);

    // An agent may not change them.
    expect((await agent('/labels', { method: 'POST', body: { name: 'Nope', color: '#123456' } })).status).toBe(403);

    // The admin keeps the ticket list open: the chip arrives live.
    await adminPage.goto('/tickets');
    await row(adminPage, ticketA.id).waitFor();

    // The agent puts VIP on Marina's ticket from the chat header.
    const agentContext = await newContext(browser, server.baseUrl, { locale: 'pt-BR' });
    const page = await agentContext.newPage();
    await wide(page);
    await openSignedIn(page, `/tickets/${ticketA.id}`, AGENT);
    await page.getByTestId('ticket-view').waitFor();
    await page.getByTestId('ticket-label-picker').click();
    await page.locator(`[data-testid="label-option"][data-label-id="${vip}"]`).click();
    await page.getByText('Etiqueta "VIP" colocada no ticket.').waitFor();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('ticket-label').allTextContents()).resolves.toEqual(['VIP']);
    await expect.poll(() => row(page, ticketA.id).getByTestId('ticket-row-label').allTextContents()).toEqual(['VIP']);
    await expect.poll(() => row(adminPage, ticketA.id).getByTestId('ticket-row-label').allTextContents(), { timeout: 10_000 }).toEqual(['VIP']);

    // The chat's export carries the ticket's labels in a last column.
    await page.getByTestId('ticket-panel-toggle').click();
    const downloading = page.waitForEvent('download');
    await page.getByTestId('panel-export-csv').click();
    const csv = (await readFile(await (await downloading).path(), 'utf8'))
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(csv[0]).toBe('"Data";"Hora";"De";"Mensagem";"Etiquetas"');
    expect(csv.some((line) => line.includes('"Meu pedido atrasou";"VIP"'))).toBe(true);
    await page.getByTestId('ticket-panel-toggle').click();

    // And Reclamação on the contact, from the contact drawer.
    await page.getByTestId('ticket-contact-button').click();
    await page.getByTestId('contact-labels').waitFor();
    await page.getByTestId('contact-label-picker').click();
    await page.locator(`[data-testid="label-option"][data-label-id="${complaint}"]`).click();
    await page.getByText('Etiqueta "Reclamação" colocada no contato.').waitFor();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('contact-label').allTextContents()).resolves.toEqual(['Reclamação']);
    await screenshot(page, 'labels-02-ticket-and-contact-1440');
    const contact = z.object({ labels: z.array(ZLabel) }).parse(await (await agent(`/contacts/${ticketA.contactId}`)).json());
    expect(contact.labels.map((label) => label.name)).toEqual(['Reclamação']);

    // The list filtered by VIP: Rafael's ticket leaves it.
    await expect(row(page, ticketB.id).count()).resolves.toBe(1);
    await page.getByTestId('tickets-label-filter').getByRole('combobox').click();
    await page.locator(`[data-testid="tickets-label-filter-option"][data-label-id="${vip}"]`).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => row(page, ticketA.id).count()).toBe(1);
    await expect(row(page, ticketB.id).count()).resolves.toBe(0);
    await expect(page.getByTestId('tickets-label-filter-count').textContent()).resolves.toBe('1');
    await screenshot(page, 'labels-03-list-filtered-1440');

    // The Kanban by label: Marina under VIP, Rafael under 'Sem etiqueta'.
    await page.goto('/Kanban');
    await page.getByTestId('kanban-page').waitFor();
    await page.getByTestId('kanban-view-label').click();
    const vipColumn = page.locator(`[data-testid="kanban-column"][data-column="label:${vip}"]`);
    const noneColumn = page.locator('[data-testid="kanban-column"][data-column="label:none"]');
    await vipColumn.getByTestId('kanban-card').filter({ hasText: 'Marina Souza' }).waitFor();
    await noneColumn.getByTestId('kanban-card').filter({ hasText: 'Rafael Lima' }).waitFor();
    // A label without tickets gets its column once the labels' list is read, which may come after the cards.
    await expect.poll(() => page.getByTestId('kanban-column-title').allTextContents()).toEqual(['Sem etiqueta', 'Reclamação', 'VIP']);
    await screenshot(page, 'labels-04-kanban-by-label-1440');

    // The same on a phone.
    const phone = await newContext(browser, server.baseUrl, { locale: 'pt-BR', mobile: true });
    const phonePage = await phone.newPage();
    await openSignedIn(phonePage, `/tickets/${ticketA.id}`, AGENT);
    await phonePage.getByTestId('ticket-view').waitFor();
    await expect(phonePage.getByTestId('ticket-label').allTextContents()).resolves.toEqual(['VIP']);
    await screenshot(phonePage, 'labels-05-chat-phone');
    await phonePage.goto('/Kanban');
    await phonePage.getByTestId('kanban-view-label').click();
    await phonePage.locator(`[data-testid="kanban-column"][data-column="label:none"]`).getByTestId('kanban-card').first().waitFor();
    await screenshot(phonePage, 'labels-06-kanban-phone');
    await phone.close();

    await agentContext.close();
    await adminContext.close();
    expect(pageErrors).toEqual([]);
  });
});
