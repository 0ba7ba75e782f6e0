/**
 * Outgoing webhooks in the browser, in Portuguese, against a receiver on 127.0.0.1 that checks
 * every signature: an admin adds a webhook (the secret shown once, copied), sends a test that
 * arrives (Entregue, HTTP 200); the receiver breaks, a new contact's delivery waits (Pendente,
 * HTTP 500, attempts counting); the receiver recovers and 'Reenviar' delivers it with the same
 * id; the detail drawer shows the body and the answer; a new secret signs from then on; the
 * webhook is deleted after a confirmation. Screens at 1440×900 and 390×844.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe';
import { launchBrowser, newContext, pageErrors, screenshot, openSignedIn } from './browser';
import { startServer, type RunningServer } from './server';
import { apiAs, signIn, type Api } from './simulator';

type Received = { event: string; delivery: string; body: string; status: number; verified: boolean };

let server: RunningServer;
let browser: Browser;
let admin: Api;
let receiver: http.Server;
let receiverUrl = '';
/** The secret the receiver checks signatures with: the one the page showed. */
let secret = '';
let failing = false;
const received: Received[] = [];

/** Signed as the contract says: `sha256=` and the HMAC-SHA256 of `${timestamp}.${body}`, sent within the last five minutes. */
function verified(headers: http.IncomingHttpHeaders, body: string): boolean {
  const timestamp = String(headers['x-zapdesk-timestamp'] ?? '');
  const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
  return secret !== '' && fresh && headers['x-zapdesk-signature'] === expected;
}

function startReceiver(): Promise<void> {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const status = failing ? 500 : 200;
      received.push({ event: String(req.headers['x-zapdesk-event']), delivery: String(req.headers['x-zapdesk-delivery']), body, status, verified: verified(req.headers, body) });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(failing ? JSON.stringify({ erro: 'sistema em manutenção' }) : JSON.stringify({ recebido: true }));
    });
  });
  return new Promise((resolve) =>
    receiver.listen(0, '127.0.0.1', () => {
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/zapdesk/eventos`;
      resolve();
    }),
  );
}

const wide = (page: Page) => page.setViewportSize({ width: 1440, height: 900 });
const row = (page: Page, event: string) => page.locator(`[data-testid="delivery-row"][data-event="${event}"]`);
/** The picture without a tooltip the pointer left open. */
async function shoot(page: Page, name: string): Promise<void> {
  await page.mouse.move(1, 1);
  await screenshot(page, name);
}
const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text).first().waitFor();
/** Words of the English screen that must not show on the Portuguese one. */
const ENGLISH = /\b(Pending|Delivered|Failed|Resend|Refresh|Deliveries|Attempts|Load more|ping|Test)\b/;

beforeAll(async () => {
  await startReceiver();
  server = await startServer({ env: { ALLOW_PRIVATE_WEBHOOK_URLS: 'true', WEBHOOK_RETRY_BASE_MS: '200' } });
  browser = await launchBrowser();
  const session = await signIn(server.baseUrl);
  admin = apiAs(server.baseUrl, () => session.token);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('webhooks', () => {
  it('an admin adds one, tests it, sees a failed delivery wait and resends it, renews the secret and deletes it', async () => {
    const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR' });
    const page = await context.newPage();
    await wide(page);
    await openSignedIn(page);

    // The page is in the admin menu; empty, it says what a webhook is for and how to check a signature.
    await page.getByTestId('menu-webhooks').click();
    await page.getByTestId('webhooks-page').waitFor();
    await expect(page.getByTestId('page-title').textContent()).resolves.toBe('Webhooks');
    const empty = page.getByTestId('webhooks-empty');
    await empty.getByText('Nenhum webhook ainda').waitFor();
    await expect(empty.textContent()).resolves.toContain('X-ZapDesk-Signature');
    await shoot(page, 'webhooks-01-empty-1440');

    // The dialog: a wrong address and no event are refused, in Portuguese, before anything is sent.
    await empty.getByTestId('webhook-add').click();
    const dialog = page.getByTestId('webhook-dialog');
    await page.getByTestId('webhook-url').fill('ftp://exemplo.com.br');
    await page.getByTestId('webhook-events-all').click();
    await page.getByTestId('webhook-submit').click();
    await dialog.getByText('O endereço do webhook deve ser uma URL http ou https.').waitFor();
    await dialog.getByText('Marque pelo menos um evento.').waitFor();
    await page.getByTestId('webhook-url').fill(receiverUrl);
    for (const event of ['ticket.created', 'ticket.updated', 'ticket.closed', 'message.created', 'contact.created', 'contact.updated', 'campaign.finished']) {
      await page.getByTestId(`webhook-event-${event}`).click();
    }
    await dialog.getByText('Marque pelo menos um evento.').waitFor({ state: 'detached' });
    await expect(dialog.getByText('Mensagem confirmada (entregue ou lida)').isVisible()).resolves.toBe(true);
    for (const scrolled of ['.MuiDialog-container', '.MuiDialog-paper', '.MuiDialogContent-root']) await page.locator(scrolled).evaluate((box) => box.scrollTo(0, 0));
    await shoot(page, 'webhooks-02-dialog-1440');
    await page.getByTestId('webhook-submit').click();

    // The secret, once, with the warning; copied.
    const shown = page.getByTestId('webhook-secret-dialog');
    await shown.getByText('Copie o segredo agora: ele não será mostrado de novo.').waitFor();
    secret = await page.getByTestId('webhook-secret-value').inputValue();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    await page.getByTestId('webhook-secret-copy').click();
    await toast(page, 'Copiado para a área de transferência');
    await shoot(page, 'webhooks-03-secret-shown-once-1440');
    await page.getByTestId('webhook-secret-done').click();
    await shown.waitFor({ state: 'detached' });

    // The list: the address, the events by name, the secret's last characters only.
    const webhookRow = page.getByTestId('webhook-row');
    await webhookRow.getByText(receiverUrl).waitFor();
    await webhookRow.getByText(`Segredo terminado em ${secret.slice(-4)}`).waitFor();
    await expect(webhookRow.getByTestId('webhook-events-chips').textContent()).resolves.toContain('Contato criado');
    expect(await page.locator('body').textContent()).not.toContain(secret);

    // 'Enviar teste': the receiver gets a signed ping, the page says so at once.
    await webhookRow.getByTestId('webhook-test').click();
    await toast(page, 'Teste entregue: o endereço respondeu HTTP 200.');
    const ping = received.find((request) => request.event === 'ping');
    expect(ping?.verified).toBe(true);
    expect(JSON.parse(ping?.body ?? '{}')).toMatchObject({ id: ping?.delivery, event: 'ping' });
    await webhookRow.getByTestId('webhook-counts').getByText('Nada aguardando').waitFor();
    await shoot(page, 'webhooks-04-list-1440');
    await expect(seriousViolations(page)).resolves.toEqual([]);

    // Its deliveries: the test, Entregue, HTTP 200.
    await webhookRow.getByTestId('webhook-deliveries').click();
    await page.getByTestId('deliveries-page').waitFor();
    await expect(page.getByTestId('deliveries-address').textContent()).resolves.toBe(receiverUrl);
    await expect(row(page, 'ping').getByTestId('delivery-status').textContent()).resolves.toBe('Entregue');
    await expect(row(page, 'ping').getByTestId('delivery-answer').textContent()).resolves.toBe('HTTP 200');

    // The receiver breaks; a new contact's delivery waits, its attempts counting, the answer HTTP 500.
    failing = true;
    expect((await admin('/contacts', { method: 'POST', body: { name: 'Marina Souza', number: '5511933330001' } })).status).toBe(201);
    const contactRow = row(page, 'contact.created');
    await contactRow.waitFor({ timeout: 20_000 });
    await expect.poll(() => contactRow.getByTestId('delivery-answer').textContent(), { timeout: 20_000 }).toBe('HTTP 500');
    await expect(contactRow.getByTestId('delivery-status').textContent()).resolves.toBe('Pendente');
    expect(Number(await contactRow.getByTestId('delivery-attempts').textContent())).toBeGreaterThanOrEqual(1);
    const failed = received.filter((request) => request.event === 'contact.created');
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(failed.every((request) => request.verified && request.status === 500)).toBe(true);
    await shoot(page, 'webhooks-05-deliveries-pending-1440');

    // The detail: the body sent, laid out, and the receiver's answer.
    await contactRow.getByText('Contato criado').click();
    const drawer = page.getByTestId('delivery-drawer');
    await expect.poll(() => drawer.getByTestId('delivery-body').textContent()).toContain('"event": "contact.created"');
    await expect(drawer.getByTestId('delivery-body').textContent()).resolves.toContain('Marina Souza');
    await expect.poll(() => drawer.getByTestId('delivery-response').textContent()).toContain('sistema em manutenção');
    await shoot(page, 'webhooks-06-detail-1440');
    await page.getByTestId('delivery-drawer-close').click();
    await drawer.waitFor({ state: 'detached' });

    // The receiver recovers; 'Reenviar' delivers it at once, with the same id (the receiver's de-duplication key).
    failing = false;
    await contactRow.getByTestId('delivery-resend').click();
    await toast(page, 'Entregue: o endereço respondeu HTTP 200.');
    await expect(contactRow.getByTestId('delivery-status').textContent()).resolves.toBe('Entregue');
    await expect(contactRow.getByTestId('delivery-answer').textContent()).resolves.toBe('HTTP 200');
    const delivered = received.filter((request) => request.event === 'contact.created' && request.status === 200);
    expect(delivered.length).toBeGreaterThanOrEqual(1);
    expect(delivered.every((request) => request.verified && request.delivery === failed[0]?.delivery)).toBe(true);
    await shoot(page, 'webhooks-07-resent-1440');
    await expect(seriousViolations(page)).resolves.toEqual([]);
    expect(await page.locator('main').textContent()).not.toMatch(ENGLISH);

    // The filter: nothing is left pending.
    await page.getByTestId('deliveries-filter').getByRole('combobox').click();
    await page.getByRole('option', { name: 'Pendente', exact: true }).click();
    await page.getByTestId('deliveries-empty').getByText('Nenhuma entrega nesta situação.').waitFor();
    await page.getByTestId('deliveries-filter').getByRole('combobox').click();
    await page.getByRole('option', { name: 'Entregue', exact: true }).click();
    await expect.poll(() => page.getByTestId('delivery-row').count()).toBe(2);

    // On a phone: the list, the deliveries and the detail.
    const phone = await newContext(browser, server.baseUrl, { locale: 'pt-BR', mobile: true });
    const phonePage = await phone.newPage();
    await openSignedIn(phonePage, '/webhooks');
    await phonePage.getByTestId('webhook-row').waitFor();
    await shoot(phonePage, 'webhooks-08-list-390');
    await phonePage.getByTestId('webhook-more').click();
    await phonePage.getByRole('menuitem', { name: 'Gerar novo segredo' }).waitFor();
    await shoot(phonePage, 'webhooks-12-actions-390');
    await phonePage.getByRole('menuitem', { name: 'Editar' }).click();
    await phonePage.getByTestId('webhook-dialog').getByText('Editar webhook').waitFor();
    await shoot(phonePage, 'webhooks-13-edit-390');
    await phonePage.getByTestId('webhook-cancel').click();
    await phonePage.getByTestId('webhook-dialog').waitFor({ state: 'detached' });
    await phonePage.getByTestId('webhook-deliveries').click();
    await row(phonePage, 'contact.created').waitFor();
    await shoot(phonePage, 'webhooks-09-deliveries-390');
    await row(phonePage, 'contact.created').getByText('Contato criado').click();
    await phonePage.getByTestId('delivery-body').waitFor();
    await shoot(phonePage, 'webhooks-10-detail-390');
    await phone.close();

    // Back on the list: a new secret signs from now on, shown once.
    await page.getByTestId('deliveries-back').click();
    await webhookRow.getByTestId('webhook-renew').click();
    await page.getByTestId('confirmation-confirm').click();
    await page.getByTestId('webhook-secret-dialog').getByText('Novo segredo gerado').waitFor();
    const renewed = await page.getByTestId('webhook-secret-value').inputValue();
    expect(renewed).not.toBe(secret);
    secret = renewed;
    await page.getByTestId('webhook-secret-done').click();
    await webhookRow.getByTestId('webhook-test').click();
    await toast(page, 'Teste entregue: o endereço respondeu HTTP 200.');
    expect(received.filter((request) => request.event === 'ping').at(-1)?.verified).toBe(true);

    // Turned off, it is kept; edited, its events change.
    await webhookRow.getByTestId('webhook-toggle').locator('input').click();
    await toast(page, 'Webhook desativado: novos eventos não são enviados a ele.');
    await webhookRow.getByTestId('webhook-edit').click();
    await page.getByTestId('webhook-event-campaign.finished').click();
    await page.getByTestId('webhook-submit').click();
    await toast(page, 'Webhook salvo.');
    await expect(webhookRow.getByTestId('webhook-events-chips').textContent()).resolves.not.toContain('Disparo concluído');

    // Deleted after a confirmation: the empty page again.
    await webhookRow.getByTestId('webhook-delete').click();
    await page.getByTestId('confirmation-dialog').getByText(`Excluir o webhook ${receiverUrl}?`).waitFor();
    await shoot(page, 'webhooks-11-delete-1440');
    await page.getByTestId('confirmation-confirm').click();
    await toast(page, 'Webhook excluído.');
    await page.getByTestId('webhooks-empty').waitFor();
    expect((await admin('/webhooks')).status).toBe(200);
    await expect((await admin('/webhooks')).json()).resolves.toEqual([]);

    await context.close();
    expect(pageErrors).toEqual([]);
  });
});
