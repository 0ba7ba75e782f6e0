/**
 * The chatbot in the browser: the Typebot settings filled in on the settings page, the
 * /ZDGChatbot page framing that Typebot server (a stand-in page on 127.0.0.1) under the security
 * policy, and a customer answered by the bot while the ticket waits.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, pageErrors, screenshot, openSignedIn } from './browser';
import { fillTextSetting } from './settings';
import { startServer, type RunningServer } from './server';
import { apiAs, idOf, scanWhenReady, signIn, type Api } from './simulator';

let server: RunningServer;
let browser: Browser;
let token = '';
let api: Api;
let phone = 0;
let typebot: http.Server;
let typebotUrl = '';

const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000 });

beforeAll(async () => {
  // A Typebot stand-in: a page to frame, and a one-step flow on the chat API.
  typebot = http.createServer((req, res) => {
    if (req.method === 'GET') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Typebot</title><h1>Typebot builder</h1><p>Flows: loja</p>');
    req.resume();
    req.on('end', () => {
      const reply = {
        sessionId: 'e2e-session',
        messages: [{ id: 'm1', type: 'text', content: { type: 'markdown', markdown: 'Olá! Sou o **robô** da loja.' } }],
        input: { id: 'i1', type: 'text input' },
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => typebot.listen(0, '127.0.0.1', resolve));
  typebotUrl = `http://127.0.0.1:${(typebot.address() as AddressInfo).port}`;
  server = await startServer({ simulator: true });
  browser = await launchBrowser();
  token = (await signIn(server.baseUrl)).token;
  api = apiAs(server.baseUrl, () => token);
  phone = await idOf(await api('/whatsapp', { method: 'POST', body: { name: 'Bot phone', channel: 'simulator', isDefault: true } }));
  await scanWhenReady(api, phone);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise<void>((resolve) => typebot.close(() => resolve()));
});

describe('chatbot', () => {
  it('says where to set Typebot up, takes its settings, frames it, and answers a waiting customer', async () => {
    const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR' });
    const page = await context.newPage();
    await openSignedIn(page);
    await page.getByTestId('menu-bot').click();
    await page.getByTestId('chatbot-not-set').waitFor();
    await screenshot(page, 'chatbot-01-not-set-pt');
    await page.getByTestId('chatbot-settings-link').click();
    await page.getByTestId('settings-group-typebot').waitFor();
    await fillTextSetting(page, api, 'typebotUrl', typebotUrl);
    await fillTextSetting(page, api, 'typebotName', 'loja');
    await fillTextSetting(page, api, 'typebotDebounce', '0');
    await page.getByTestId('setting-typebot').locator('input').check();
    await eventually(async () => ((await (await api('/settings')).json()) as { key: string; value: string }[]).find((s) => s.key === 'typebot')?.value).toBe('enabled');
    await page.getByTestId('settings-group-typebot').scrollIntoViewIfNeeded();
    await screenshot(page, 'chatbot-02-settings-pt');

    // A fresh load, as after saving the address: the page's policy now allows that origin.
    await page.goto('/ZDGChatbot');
    await page.getByTestId('chatbot-frame').waitFor();
    await page.frameLocator('[data-testid="chatbot-frame"]').getByText('Typebot builder').waitFor();
    await screenshot(page, 'chatbot-03-framed-pt');

    await api(`/simulator/${phone}/inbound`, { method: 'POST', body: { from: '5511933332222', name: 'Bruna Bot', body: 'oi' } });
    await eventually(async () =>
      ((await (await api(`/simulator/${phone}/outbox`)).json()) as { to: string; body: string }[]).some((m) => m.to === '5511933332222' && m.body === 'Olá! Sou o *robô* da loja.'),
    ).toBe(true);
    // In the chat: the bot's message is marked, and the waiting ticket says the bot is answering.
    const { tickets } = (await (await api('/tickets?status=pending&showAll=true')).json()) as { tickets: { id: number; contact: { number: string } }[] };
    const ticketId = tickets.find((x) => x.contact.number === '5511933332222')?.id ?? 0;
    await page.goto(`/tickets/${ticketId}`);
    await page.getByTestId('chatbot-banner').waitFor();
    await page.getByTestId('tab-pending').click();
    await page.getByTestId('tickets-list-pending').getByTestId('ticket-bot-tag').first().waitFor();
    await page.getByTestId('message-bot').first().waitFor();
    await screenshot(page, 'chatbot-04-ticket-pt');
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
