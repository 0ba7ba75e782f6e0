/**
 * SMS and calls in the browser against the real server and a fake Vonage on 127.0.0.1: the
 * Vonage settings and their test, /SMS with the parts counted as you type, the live progress
 * with Vonage's ids and a delivery receipt arriving, /VoiceCall read in the screen's language.
 */
import { createHmac, generateKeyPairSync, randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeVonage } from '../../server/src/test/fake-vonage';
import { launchBrowser, newContext, pageErrors, screenshot, openSignedIn } from './browser';
import { fillTextSetting } from './settings';
import { startServer, type RunningServer } from './server';
import { apiAs, idOf, scanWhenReady, signIn, type Api } from './simulator';

const ACCOUNT = { apiKey: 'e2ekey42', apiSecret: 'e2e-secret-value' };
const SIGNATURE_SECRET = 'e2e-signature-secret-0123456789';
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });

let server: RunningServer;
let browser: Browser;
let vonage: FakeVonage;
let token = '';
let api: Api;

const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000 });

async function put(key: string, value: string): Promise<void> {
  expect((await api(`/settings/${key}`, { method: 'PUT', body: { value } })).status).toBe(200);
}

/** A delivery receipt as Vonage posts it, signed with SHA-256 HMAC of the sorted parameters. */
async function deliveryReceipt(messageId: string, status: string): Promise<number> {
  const params: Record<string, string> = { messageId, status, msisdn: '5511988887777', 'err-code': '0', timestamp: String(Math.floor(Date.now() / 1000)), nonce: randomUUID() };
  const signed = Object.keys(params)
    .sort()
    .map((key) => `&${key}=${(params[key] ?? '').replace(/[&=]/g, '_')}`)
    .join('');
  params.sig = createHmac('sha256', SIGNATURE_SECRET).update(signed).digest('hex');
  const res = await fetch(`${server.baseUrl}/api/webhooks/vonage/sms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) });
  return res.status;
}

beforeAll(async () => {
  vonage = await new FakeVonage(ACCOUNT).start();
  server = await startServer({ simulator: true, env: { VONAGE_REST_URL: vonage.url, VONAGE_API_URL: vonage.url, PHONE_PACE_SECONDS: '1-1' } });
  browser = await launchBrowser();
  token = (await signIn(server.baseUrl)).token;
  api = apiAs(server.baseUrl, () => token);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await vonage?.stop();
});

describe('SMS and calls', () => {
  it('takes the Vonage settings and tests them; sends SMS with the parts counted, shows Vonage ids and a delivery receipt live', async () => {
    const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR' });
    const page = await context.newPage();
    await openSignedIn(page, '/settings');
    await page.getByTestId('settings-group-vonage').waitFor();
    await page.getByTestId('vonage-test').click();
    await page.locator('.Toastify__toast', { hasText: 'A Vonage não está configurada' }).waitFor();
    await fillTextSetting(page, api, 'vonageApiKey', ACCOUNT.apiKey);
    await put('vonageApiSecret', ACCOUNT.apiSecret);
    await put('vonageApiId', '0f8c2e64-8d3a-4c63-9b1e-3f2a1c0d9e77');
    await put('vonagePrivateKey', privateKey);
    await put('vonageSignatureSecret', SIGNATURE_SECRET);
    await fillTextSetting(page, api, 'vonageFrom', 'Loja');
    await page.getByTestId('vonage-test').click();
    await page.locator('.Toastify__toast', { hasText: 'A Vonage aceitou as credenciais. Saldo: 12.50.' }).waitFor();
    await page.getByTestId('settings-group-vonage').scrollIntoViewIfNeeded();
    await screenshot(page, 'phone-01-settings-pt');

    await page.goto('/SMS');
    await page.getByTestId('phone-page-sms').waitFor();
    const counter = page.getByTestId('phone-counter');
    await page.getByTestId('phone-text').fill('Promo de hoje');
    await expect(counter.textContent()).resolves.toBe('1 SMS · restam 147 caracteres nesta parte');
    await page.getByTestId('phone-text').fill('Promoção de hoje: 20% em tudo 🎉');
    await expect(counter.textContent()).resolves.toMatch(/^1 SMS · restam 3\d caracteres nesta parte · acentos e emojis reduzem o limite para 70 caracteres por parte$/);
    await page.getByTestId('phone-text').fill('a'.repeat(161));
    await expect(counter.textContent()).resolves.toBe('2 SMS · restam 145 caracteres nesta parte');
    // Nothing is sent without numbers.
    await page.getByTestId('phone-submit').click();
    await page.getByText('Obrigatório').first().waitFor();
    expect(vonage.requests('/sms/json')).toHaveLength(0);

    await page.getByTestId('phone-text').fill('Promoção de hoje: 20% em tudo');
    await page.getByTestId('campaign-numbers').fill('5511988887777\n551187776666\nnão é número');
    await page.getByTestId('phone-submit').click();
    const progress = page.getByTestId('campaign-progress');
    await eventually(() => progress.getAttribute('data-status')).toBe('completed');
    await expect(progress.getByTestId('campaign-count-sent').textContent()).resolves.toBe('Enviado: 2');
    const sent = vonage.requests('/sms/json').map((r) => JSON.parse(r.body) as Record<string, string>);
    expect(sent.map((s) => [s.from, s.to, s.text])).toEqual([
      ['Loja', '5511988887777', 'Promoção de hoje: 20% em tudo'],
      ['Loja', '5511987776666', 'Promoção de hoje: 20% em tudo'],
    ]);
    const ids = await progress.getByTestId('campaign-recipient-provider-id').allTextContents();
    expect(ids.filter((id) => id.length === 36)).toHaveLength(2);
    expect(await deliveryReceipt(ids.find((id) => id.length === 36) ?? '', 'delivered')).toBe(204);
    await progress.getByTestId('campaign-recipient-delivery').filter({ hasText: 'Entregue' }).waitFor();
    await screenshot(page, 'phone-02-sms-pt');

    // The person who got the SMS writes on WhatsApp: the agent sees the SMS in the contact's panel.
    const phone = await idOf(await api('/whatsapp', { method: 'POST', body: { name: 'Loja', channel: 'simulator', isDefault: true } }));
    await scanWhenReady(api, phone);
    expect((await api(`/simulator/${phone}/inbound`, { method: 'POST', body: { from: '5511988887777', name: 'Cliente SMS', body: 'Recebi o SMS!' } })).status).toBe(200);
    const findTicket = async () => {
      const { tickets } = (await (await api('/tickets?status=pending&showAll=true')).json()) as { tickets: { id: number; contact: { number: string } }[] };
      return tickets.find((ticket) => ticket.contact.number === '5511988887777')?.id ?? 0;
    };
    await eventually(findTicket).toBeGreaterThan(0);
    await page.goto(`/tickets/${await findTicket()}`);
    await page.getByTestId('ticket-contact-button').click();
    const card = page.getByTestId('contact-drawer').getByTestId('contact-phone-sends');
    await card.getByText('Promoção de hoje: 20% em tudo').waitFor();
    await expect(card.getByTestId('contact-phone-send').first().textContent()).resolves.toContain('SMS · ');
    await expect(card.getByTestId('contact-phone-send').first().textContent()).resolves.toContain('Entregue');
    await screenshot(page, 'phone-05-contact-panel-pt');
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('calls in the language of the screen, and fits a phone', async () => {
    const context = await newContext(browser, server.baseUrl, { locale: 'en-US' });
    const page = await context.newPage();
    await openSignedIn(page, '/VoiceCall');
    await page.getByTestId('phone-page-call').waitFor();
    await page.getByTestId('phone-text').fill('Your order has shipped.');
    await expect(page.getByTestId('phone-counter').textContent()).resolves.toBe('23 of 1500 characters · Read in en-US (the language of this screen).');
    await page.getByTestId('phone-from').fill('5511900001111');
    await page.getByTestId('campaign-numbers').fill('5511970000009');
    await page.getByTestId('phone-submit').click();
    const progress = page.getByTestId('campaign-progress');
    await eventually(() => progress.getAttribute('data-status')).toBe('completed');
    await expect(progress.locator('h6, .MuiTypography-subtitle1').first().textContent()).resolves.toMatch(/Voice call from 5511900001111/);
    const call = JSON.parse(vonage.requests('/v1/calls')[0]?.body ?? '{}') as { ncco: { action: string; text: string; language: string }[]; to: { number: string }[] };
    expect(call.ncco).toEqual([{ action: 'talk', text: 'Your order has shipped.', language: 'en-US' }]);
    expect(call.to[0]?.number).toBe('5511970000009');
    await screenshot(page, 'phone-03-call-en');

    const mobile = await newContext(browser, server.baseUrl, { locale: 'es-ES', mobile: true });
    const phonePage = await mobile.newPage();
    await openSignedIn(phonePage, '/SMS');
    await phonePage.getByTestId('phone-page-sms').waitFor();
    await phonePage.getByTestId('phone-text').fill('Hola');
    expect(await phonePage.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(phonePage, 'phone-04-sms-mobile-es');
    expect(pageErrors).toEqual([]);
    await context.close();
    await mobile.close();
  });
});
