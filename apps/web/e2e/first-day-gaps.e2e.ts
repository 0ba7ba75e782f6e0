/**
 * The spec's gaps closed for a Brazilian team's first day, in Portuguese, on a desktop (1440×900)
 * and a phone (390×844): a customer's Ogg voice note played through the server's m4a copy where
 * the browser has no Ogg (as Safari before 18.4), with a download when the copy cannot be made;
 * the location card; SMS and calls in the customer's chat; the messages-loading alerts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZMessageListSchema, ZTicketListSchema } from '@zapdesk/shared/messaging';
import { ZSimulatorOutboxItemSchema } from '@zapdesk/shared/simulator';
import { z } from 'zod';
import { FakeVonage } from '../../server/src/test/fake-vonage';
import { launchBrowser, pageErrors, screenshot, openSignedIn } from './browser';
import { REPO_ROOT, startServer, type RunningServer } from './server';
import { apiAs, idOf, scanWhenReady, signIn, type Api } from './simulator';

const VOICE = readFileSync(path.join(REPO_ROOT, 'apps/server/src/features/messages/fixtures/voice-3s.ogg')).toString('base64');
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let server: RunningServer;
let browser: Browser;
let vonage: FakeVonage;
let token = '';
let connectionId = 0;
let api: Api;
let n = 0;

/** A Portuguese browser at this size; `noOgg` makes it answer as Safari before 18.4 does: no Ogg Opus. */
async function context(viewport: { width: number; height: number }, options: { noOgg?: boolean; baseURL?: string } = {}): Promise<BrowserContext> {
  const created = await browser.newContext({ baseURL: options.baseURL ?? server.baseUrl, locale: 'pt-BR', viewport, deviceScaleFactor: 1 });
  created.setDefaultTimeout(15_000);
  if (options.noOgg) {
    await created.addInitScript(() => {
      const canPlay = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, 'canPlayType')?.value as (this: HTMLMediaElement, type: string) => CanPlayTypeResult;
      HTMLMediaElement.prototype.canPlayType = function (this: HTMLMediaElement, type: string) {
        return /ogg|opus/i.test(type) ? '' : canPlay.call(this, type);
      };
    });
  }
  created.on('page', (page) => page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`)));
  return created;
}

/** A customer writes in (with a file, a place...): their ticket's id once it exists. */
async function customerSends(payload: Record<string, unknown>, on: { api: Api; connectionId: number } = { api, connectionId }): Promise<{ ticketId: number; from: string }> {
  n += 1;
  const from = `55119888${String(n).padStart(5, '0')}`;
  expect((await on.api(`/simulator/${on.connectionId}/inbound`, { method: 'POST', body: { from, name: `Cliente ${n}`, ...payload } })).status).toBe(200);
  let ticketId = 0;
  await expect
    .poll(async () => {
      const { tickets } = ZTicketListSchema.parse(await (await on.api('/tickets?showAll=true&status=pending')).json());
      ticketId = tickets.find((t) => t.contact.number === from)?.id ?? 0;
      return ticketId;
    })
    .toBeGreaterThan(0);
  return { ticketId, from };
}

async function openChat(page: Page, ticketId: number): Promise<void> {
  await page.goto(`/tickets/${ticketId}`);
  await page.getByTestId('message').first().waitFor();
}

beforeAll(async () => {
  vonage = await new FakeVonage({ apiKey: 'abcd1234', apiSecret: 'Secret-42-vonage' }).start();
  server = await startServer({ simulator: true, env: { FFMPEG_PATH: '/usr/bin/ffmpeg', VONAGE_REST_URL: vonage.url, VONAGE_API_URL: vonage.url, PHONE_PACE_SECONDS: '1-1' } });
  browser = await launchBrowser();
  token = (await signIn(server.baseUrl)).token;
  api = apiAs(server.baseUrl, () => token);
  connectionId = await idOf(await api('/whatsapp', { method: 'POST', body: { name: 'Loja', channel: 'simulator' } }));
  await scanWhenReady(api, connectionId);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await vonage?.stop();
  expect(pageErrors).toEqual([]);
});

describe('voice notes where Ogg does not play', () => {
  it("plays a customer's Ogg voice note through the m4a copy, with its duration; a browser with Ogg keeps the original", async () => {
    const { ticketId } = await customerSends({ media: { base64: VOICE, mimetype: 'audio/ogg; codecs=opus', filename: 'audio.ogg' } });
    for (const viewport of [DESKTOP, PHONE]) {
      const safari = await context(viewport, { noOgg: true });
      const page = await safari.newPage();
      await openSignedIn(page);
      await openChat(page, ticketId);
      const audio = page.getByTestId('message-audio').last();
      await expect.poll(() => audio.getAttribute('data-format')).toBe('m4a');
      await expect(audio.getAttribute('src')).resolves.toContain('format=m4a');
      // The browser read the copy's duration (3 s) before anyone pressed play.
      await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.duration), { timeout: 15_000 }).toBeGreaterThan(2.9);
      expect(await audio.evaluate((a: HTMLAudioElement) => a.duration)).toBeLessThan(3.2);
      // What the server sent: AAC in an MP4 (.m4a) container.
      const served = await audio.evaluate(async (a: HTMLAudioElement) => {
        const response = await fetch(a.currentSrc);
        const bytes = new Uint8Array(await response.arrayBuffer());
        return { type: response.headers.get('content-type'), box: new TextDecoder('latin1').decode(bytes.slice(4, 12)) };
      });
      expect(served).toEqual({ type: 'audio/mp4', box: 'ftypM4A ' });
      // And it plays.
      await audio.evaluate((a: HTMLAudioElement) => {
        a.muted = true;
        return a.play();
      });
      await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThan(0.2);
      await expect(page.getByTestId('message-audio-unsupported').count()).resolves.toBe(0);
      await screenshot(page, `first-day-gaps-voice-m4a-${viewport === DESKTOP ? 'desktop' : 'phone'}`);
      await safari.close();
    }
    const chromium = await context(DESKTOP);
    const page = await chromium.newPage();
    await openSignedIn(page);
    await openChat(page, ticketId);
    await expect.poll(() => page.getByTestId('message-audio').last().getAttribute('data-format')).toBe('original');
    await chromium.close();
  });
});

describe('the location card', () => {
  it('shows the place a customer shared: name, address, coordinates and a link to open it in a map', async () => {
    const { ticketId } = await customerSends({ location: { latitude: -23.561414, longitude: -46.655881, name: 'MASP', address: 'Av. Paulista, 1578 - Bela Vista, São Paulo' } });
    for (const viewport of [DESKTOP, PHONE]) {
      const browserContext = await context(viewport);
      const page = await browserContext.newPage();
      await openSignedIn(page);
      await openChat(page, ticketId);
      const card = page.getByTestId('message-location').last();
      await card.waitFor();
      await expect(card.getByTestId('message-location-name').textContent()).resolves.toBe('MASP');
      await expect(card.getByTestId('message-location-address').textContent()).resolves.toBe('Av. Paulista, 1578 - Bela Vista, São Paulo');
      await expect(card.getByTestId('message-location-coordinates').textContent()).resolves.toBe('-23.56141, -46.65588');
      const link = card.getByTestId('message-location-link');
      await expect(link.textContent()).resolves.toBe('Abrir mapa');
      await expect(link.getAttribute('href')).resolves.toBe('https://www.openstreetmap.org/?mlat=-23.561414&mlon=-46.655881#map=17/-23.561414/-46.655881');
      await expect(link.getAttribute('target')).resolves.toBe('_blank');
      await expect(card.getByTestId('message-location-google').getAttribute('href')).resolves.toContain('q=-23.561414,-46.655881');
      // Nothing of the card is cut off on a phone.
      const box = await card.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= viewport.width).toBe(true);
      await screenshot(page, `first-day-gaps-location-${viewport === DESKTOP ? 'desktop' : 'phone'}`);
      await browserContext.close();
    }
  });
});

describe("SMS and calls in the customer's chat", () => {
  it('shows an SMS and a call to the customer at their time in the chat, with their state, and sends nothing on WhatsApp', async () => {
    for (const [key, value] of [
      ['vonageApiKey', 'abcd1234'],
      ['vonageApiSecret', 'Secret-42-vonage'],
      ['vonageFrom', '5511900001111'],
    ]) {
      expect((await api(`/settings/${key}`, { method: 'PUT', body: { value } })).status).toBe(200);
    }
    const { ticketId, from } = await customerSends({ body: 'Oi! Meu pedido já saiu?' });
    const outboxBefore = z.array(ZSimulatorOutboxItemSchema).parse(await (await api(`/simulator/${connectionId}/outbox`)).json()).length;
    const sms = await api('/sms', { method: 'POST', body: { numbers: from, text: 'Seu pedido saiu para entrega hoje.' } });
    expect(sms.status).toBe(201);
    for (const viewport of [DESKTOP, PHONE]) {
      const browserContext = await context(viewport);
      const page = await browserContext.newPage();
      await openSignedIn(page);
      await openChat(page, ticketId);
      const note = page.getByTestId('chat-phone-send').filter({ hasText: 'Seu pedido saiu para entrega hoje.' });
      await note.waitFor();
      await expect(note.getByTestId('chat-phone-send-text').textContent()).resolves.toBe('📱 SMS enviado: Seu pedido saiu para entrega hoje.');
      await expect.poll(() => note.getByTestId('chat-phone-send-state').textContent(), { timeout: 30_000 }).toBe('Enviado');
      await expect(note.textContent()).resolves.toContain('fora do WhatsApp');
      await screenshot(page, `first-day-gaps-sms-${viewport === DESKTOP ? 'desktop' : 'phone'}`);
      await browserContext.close();
    }
    const { messages } = ZMessageListSchema.parse(await (await api(`/messages/${ticketId}`)).json());
    expect(messages.map((m) => m.body)).not.toContain('Seu pedido saiu para entrega hoje.');
    expect(z.array(ZSimulatorOutboxItemSchema).parse(await (await api(`/simulator/${connectionId}/outbox`)).json()).length).toBe(outboxBefore);
  });
});

describe('messages-loading alerts', () => {
  it('says when older messages load or fail, and when a chat cannot be loaded, each with a way to try again', async () => {
    const { ticketId, from } = await customerSends({ body: 'Mensagem 1' });
    for (let i = 2; i <= 26; i += 1) {
      expect((await api(`/simulator/${connectionId}/inbound`, { method: 'POST', body: { from, name: 'Cliente', body: `Mensagem ${i}` } })).status).toBe(200);
    }
    await expect.poll(async () => ZMessageListSchema.parse(await (await api(`/messages/${ticketId}`)).json()).count).toBeGreaterThanOrEqual(26);
    for (const viewport of [DESKTOP, PHONE]) {
      const browserContext = await context(viewport);
      const page = await browserContext.newPage();
      await openSignedIn(page);
      // Older pages fail until told otherwise.
      let failOlder = true;
      await page.route(/\/api\/messages\/\d+\?pageNumber=2/, (route) => (failOlder ? route.abort('connectionfailed') : route.continue()));
      await openChat(page, ticketId);
      await page.getByTestId('message').filter({ hasText: 'Mensagem 26' }).waitFor();
      const failed = page.getByTestId('messages-older-failed');
      await expect
        .poll(
          async () => {
            // The reader's wheel, up to the top.
            await page.getByTestId('messages-list').hover();
            await page.mouse.wheel(0, -100_000);
            return failed.isVisible();
          },
          { timeout: 30_000 },
        )
        .toBe(true);
      await expect(failed.textContent()).resolves.toContain('Não foi possível carregar as mensagens anteriores.');
      await screenshot(page, `first-day-gaps-older-failed-${viewport === DESKTOP ? 'desktop' : 'phone'}`);
      failOlder = false;
      await page.getByTestId('messages-older-retry').click();
      await page.getByTestId('message-body').getByText('Mensagem 1', { exact: true }).waitFor();
      await expect(failed.count()).resolves.toBe(0);
      await browserContext.close();
    }

    // The whole chat failing: an error in its place, and 'Tentar de novo' brings it.
    const browserContext = await context(DESKTOP);
    const page = await browserContext.newPage();
    await openSignedIn(page);
    let failAll = true;
    await page.route(/\/api\/messages\/\d+(\?|$)/, (route) => (failAll && route.request().method() === 'GET' ? route.abort('connectionfailed') : route.continue()));
    await page.goto(`/tickets/${ticketId}`);
    const alert = page.getByTestId('messages-load-failed');
    await alert.waitFor({ timeout: 30_000 });
    await expect(alert.textContent()).resolves.toContain('Não foi possível carregar as mensagens desta conversa.');
    await screenshot(page, 'first-day-gaps-load-failed-desktop');
    failAll = false;
    await page.getByTestId('messages-retry').click();
    await page.getByTestId('message').filter({ hasText: 'Mensagem 26' }).waitFor();
    await browserContext.close();
  });
});

describe('without ffmpeg on the server', () => {
  it('offers the voice note to download where the browser cannot play Ogg', async () => {
    const bare = await startServer({ simulator: true, env: { FFMPEG_PATH: '/nonexistent/ffmpeg' } });
    try {
      const bareToken = (await signIn(bare.baseUrl)).token;
      const bareApi = apiAs(bare.baseUrl, () => bareToken);
      const id = await idOf(await bareApi('/whatsapp', { method: 'POST', body: { name: 'Loja', channel: 'simulator' } }));
      await scanWhenReady(bareApi, id);
      const { ticketId } = await customerSends({ media: { base64: VOICE, mimetype: 'audio/ogg; codecs=opus', filename: 'audio.ogg' } }, { api: bareApi, connectionId: id });
      const created = await context(PHONE, { noOgg: true, baseURL: bare.baseUrl });
      const page = await created.newPage();
      await openSignedIn(page);
      await openChat(page, ticketId);
      const fallback = page.getByTestId('message-audio-unsupported');
      await fallback.waitFor();
      await expect(fallback.textContent()).resolves.toContain('Baixe o arquivo para ouvir.');
      const download = fallback.getByRole('link');
      await expect(download.getAttribute('href')).resolves.not.toContain('format=m4a');
      const original = await page.evaluate(async (href) => (await fetch(href ?? '')).headers.get('content-type'), await download.getAttribute('href'));
      expect(original).toBe('audio/ogg');
      await screenshot(page, 'first-day-gaps-voice-no-ffmpeg-phone');
      await created.close();
    } finally {
      await bare.stop();
    }
  });
});
