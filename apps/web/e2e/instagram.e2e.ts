/**
 * Instagram in the browser against the real server and a fake Graph API on 127.0.0.1: an admin
 * adds the connection (token checked, webhook verified live), a person writes through a signed
 * webhook and the ticket shows in the inbox, the agent answers, the 24-hour window is explained,
 * and /InstaDirect sends by username.
 */
import { createHmac } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGraph } from '../../server/src/test/fake-graph';
import { launchBrowser, newContext, pageErrors, pickOption, screenshot, openSignedIn } from './browser';
import { startServer, type RunningServer } from './server';

const ACCOUNT = { id: '17841400000000009', username: 'lojadamaria', token: 'IGAAT-e2e-token-0123456789' };
const APP_SECRET = 'e2e-app-secret-0123';
const VERIFY_TOKEN = 'e2e-verify-token';
const ANA = { id: '6789000000000011', username: 'ana.cliente', name: 'Ana Cliente' };
const BRUNO = { id: '6789000000000012', username: 'bruno_b', name: 'Bruno B' };

let server: RunningServer;
let browser: Browser;
let graph: FakeGraph;
let mid = 0;

const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000 });

function messages(page: Page) {
  return page.getByTestId('messages-list').getByTestId('message');
}

/** A webhook delivery signed as Meta signs it. */
async function writes(person: { id: string }, text: string): Promise<void> {
  mid += 1;
  const body = JSON.stringify({
    object: 'instagram',
    entry: [{ id: ACCOUNT.id, time: Date.now(), messaging: [{ sender: { id: person.id }, recipient: { id: ACCOUNT.id }, timestamp: Date.now(), message: { mid: `m_e2e_${mid}`, text } }] }],
  });
  const signature = `sha256=${createHmac('sha256', APP_SECRET).update(body).digest('hex')}`;
  const res = await fetch(`${server.baseUrl}/api/webhooks/instagram`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, body });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  graph = await new FakeGraph(ACCOUNT).start();
  graph.people.push(ANA, BRUNO);
  server = await startServer({ env: { INSTAGRAM_GRAPH_URL: graph.url, INSTAGRAM_PACE_SECONDS: '1-1' } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await graph?.stop();
});

describe('Instagram', () => {
  it('adds the connection, receives a direct message into the inbox, answers it, and explains the 24-hour window', async () => {
    const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR' });
    const page = await context.newPage();
    await openSignedIn(page, '/connections');
    await page.getByTestId('add-connection').click();
    await page.getByTestId('connection-name').fill('Instagram da loja');
    await pickOption(page, 'connection-channel', 'Instagram');
    await page.getByTestId('connection-instagram').waitFor();
    // Nothing is saved without the secrets.
    await page.getByTestId('connection-ig-account').fill(ACCOUNT.id);
    await page.getByTestId('connection-submit').click();
    await page.getByText('Obrigatório').first().waitFor();
    await page.getByTestId('connection-ig-token').fill(ACCOUNT.token);
    await page.getByTestId('connection-ig-app-secret').fill(APP_SECRET);
    await page.getByTestId('connection-ig-verify-token').fill(VERIFY_TOKEN);
    await screenshot(page, 'instagram-01-connection-form-pt');
    await page.getByTestId('connection-submit').click();
    const row = page.getByTestId('connection-row').filter({ hasText: 'Instagram da loja' });
    const state = row.getByTestId('connection-instagram-state');
    await eventually(() => state.textContent()).toMatch(/^Token válido · @lojadamaria · Webhook ainda não verificado: http/);
    // Meta checks the subscription: the page says so without a reload.
    const check = await fetch(`${server.baseUrl}/api/webhooks/instagram?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=42`);
    expect(await check.text()).toBe('42');
    await eventually(() => state.textContent()).toMatch(/Webhook verificado/);
    await expect(row.getByTestId('connection-channel-chip').textContent()).resolves.toBe('Instagram');
    await screenshot(page, 'instagram-02-connections-pt');

    // Ana writes: her ticket waits in the inbox, named from her Instagram profile.
    await page.goto('/tickets');
    await page.getByTestId('tab-pending').click();
    await writes(ANA, 'Oi! Vocês entregam em Campinas?');
    const ticketRow = page.getByTestId('tickets-list-pending').getByTestId('ticket-row').filter({ hasText: ANA.name });
    await ticketRow.waitFor();
    await expect(ticketRow.getByTestId('ticket-connection-tag').textContent()).resolves.toBe('Instagram da loja');
    await ticketRow.getByTestId('ticket-accept').click();
    await messages(page).filter({ hasText: 'Vocês entregam em Campinas?' }).waitFor();
    const input = page.getByTestId('message-input');
    await input.fill('Entregamos sim!');
    await input.press('Enter');
    await messages(page).filter({ hasText: 'Entregamos sim!' }).waitFor();
    await eventually(() => graph.sends().some((s) => s.recipient?.id === ANA.id && (s.message?.text ?? '').includes('Entregamos sim!'))).toBe(true);
    await page.getByTestId('ticket-contact-button').click();
    await expect(page.getByTestId('contact-drawer-number').textContent()).resolves.toBe(`Instagram · ${ANA.id}`);
    await screenshot(page, 'instagram-03-chat-pt');

    // Bruno wrote long ago: Instagram refuses the answer, and the agent is told why.
    graph.windowClosed.add(BRUNO.id);
    await writes(BRUNO, 'Ainda tem o modelo azul?');
    await page.goto('/tickets');
    await page.getByTestId('tab-pending').click();
    const brunoRow = page.getByTestId('tickets-list-pending').getByTestId('ticket-row').filter({ hasText: BRUNO.name });
    await brunoRow.getByTestId('ticket-accept').click();
    await messages(page).filter({ hasText: 'Ainda tem o modelo azul?' }).waitFor();
    await input.fill('Temos sim');
    await input.press('Enter');
    await page.locator('.Toastify__toast', { hasText: 'O Instagram só permite responder até 24 horas' }).first().waitFor();
    await messages(page).filter({ hasText: 'Temos sim' }).getByTestId('message-retry').waitFor();
    await screenshot(page, 'instagram-04-window-closed-pt');
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('sends direct messages by username from /InstaDirect, and fits a phone', async () => {
    const context = await newContext(browser, server.baseUrl, { locale: 'en-US' });
    const page = await context.newPage();
    await openSignedIn(page, '/InstaDirect');
    await page.getByTestId('insta-direct-page').waitFor();
    await expect(page.getByTestId('insta-direct-rule').textContent()).resolves.toContain('only people who wrote to it first');
    await page.getByTestId('insta-direct-users').fill('@ana.cliente\nnever.wrote\n@ana.cliente');
    await expect(page.getByTestId('insta-direct-count').textContent()).resolves.toContain('2');
    await page.getByTestId('insta-direct-message').fill('New arrivals this week, {{name}}!');
    await page.getByTestId('insta-direct-submit').click();
    const progress = page.getByTestId('campaign-progress');
    await eventually(() => progress.getAttribute('data-status')).toBe('completed');
    await expect(progress.getByTestId('campaign-count-sent').textContent()).resolves.toBe('Sent: 1');
    await progress.getByText('This user has never written to the account').waitFor();
    await progress.getByTestId('campaign-recipient').filter({ hasText: '@ana.cliente' }).waitFor();
    await expect(progress.getByTestId('campaign-count-invalid').textContent()).resolves.toBe('Not reachable: 1');
    expect(graph.sends().some((s) => s.recipient?.id === ANA.id && s.message?.text === `New arrivals this week, ${ANA.name}!`)).toBe(true);
    await screenshot(page, 'instagram-05-direct-en');

    const mobile = await newContext(browser, server.baseUrl, { locale: 'es-ES', mobile: true });
    const phone = await mobile.newPage();
    await openSignedIn(phone, '/InstaDirect');
    await phone.getByTestId('insta-direct-page').waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(phone, 'instagram-06-direct-mobile-es');
    expect(pageErrors).toEqual([]);
    await context.close();
    await mobile.close();
  });
});
