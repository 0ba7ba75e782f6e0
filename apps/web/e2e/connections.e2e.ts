/**
 * The Connections page against a server with the simulated phone channel: an admin adds a
 * connection in the form, the QR dialog follows the session live and closes itself once the
 * phone 'scans' the code (through the simulator API), the menu badge follows the statuses, and
 * a plain user sees the table read-only.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, pageErrors, pickOption, screenshot, openSignedIn } from './browser';
import { startServer, type RunningServer } from './server';
import { signIn } from './simulator';

let server: RunningServer;
let browser: Browser;
let adminToken = '';

const PLAIN_USER = { name: 'Pedro Plain', email: 'pedro@e2e.test', password: 'pedro-secret' };
const CONNECTION = 'Simulated phone';

async function api(path: string, options: { method?: string; body?: unknown } = {}): Promise<Response> {
  return fetch(`${server.baseUrl}/api${path}`, {
    method: options.method ?? 'GET',
    headers: { authorization: `Bearer ${adminToken}`, ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

async function expectToast(page: Page, text: string): Promise<void> {
  await page.locator('.Toastify__toast', { hasText: text }).first().waitFor();
}

/** The Connections menu badge, evaluated 2 s after the list changes. */
function badge(page: Page): Promise<string | null> {
  return page.getByTestId('menu-connections').getAttribute('data-alert');
}

function row(page: Page, name = CONNECTION) {
  return page.getByTestId('connection-row').filter({ hasText: name });
}

function statusOf(page: Page, name = CONNECTION): Promise<string | null> {
  return row(page, name).getByTestId('connection-status').getAttribute('data-status');
}

beforeAll(async () => {
  server = await startServer({ simulator: true });
  browser = await launchBrowser();
  adminToken = (await signIn(server.baseUrl)).token;
  const plain = await fetch(`${server.baseUrl}/api/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...PLAIN_USER, profile: 'user' }),
  });
  expect(plain.status).toBe(201);
  for (const queue of [
    { name: 'Sales', color: '#1273DE' },
    { name: 'Support', color: '#16A5A5' },
  ]) {
    expect((await api('/queue', { method: 'POST', body: { ...queue, greetingMessage: '' } })).status).toBe(201);
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('connections', () => {
  it('adds a simulated connection, links it through the QR dialog and drives its session', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page);
    await page.getByTestId('menu-connections').click();
    await page.getByTestId('connections-page').waitFor();
    await page.getByTestId('empty-state').waitFor();
    expect(await badge(page)).toBe('false');

    // The form: a variable goes in where the cursor is, the queues need a greeting.
    await page.getByTestId('add-connection').click();
    await page.getByTestId('connection-submit').click();
    await page.getByText('Required').first().waitFor();
    await page.getByTestId('connection-name').fill(CONNECTION);
    await pickOption(page, 'connection-channel', 'Simulator');
    await expect(page.getByTestId('connection-channel-help').textContent()).resolves.toContain('SIMULATOR=on');
    await expect(page.getByTestId('connection-default').locator('input').isChecked()).resolves.toBe(true);
    const greeting = page.getByTestId('connection-greeting');
    await greeting.fill('Hello ! How can we help?');
    await greeting.evaluate((element) => {
      if (element instanceof HTMLTextAreaElement) element.setSelectionRange(6, 6);
    });
    await page.getByTestId('connection-greeting-variables').click();
    await page.getByTestId('variable-menu').getByRole('menuitem').first().waitFor();
    await expect(page.getByTestId('variable-ms').textContent()).resolves.toContain('Bom dia, Boa tarde or Boa noite');
    await screenshot(page, '23-connection-form-variables');
    await page.getByTestId('variable-name').click();
    await expect(greeting.inputValue()).resolves.toBe('Hello {{name}}! How can we help?');
    // The cursor stays after the variable: typing goes on from there.
    await page.keyboard.type(' (#{{ticket_id}})');
    await expect(greeting.inputValue()).resolves.toBe('Hello {{name}} (#{{ticket_id}})! How can we help?');
    await page.getByTestId('connection-farewell-variables').click();
    await page.getByTestId('variable-user').click();
    await expect(page.getByTestId('connection-farewell').inputValue()).resolves.toBe('{{user}}');

    await greeting.fill('');
    await pickOption(page, 'connection-queues', 'Sales');
    await page.getByRole('option', { name: 'Support', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('connection-submit').click();
    await expectToast(page, 'Greeting message is required if there is more than one queue.');
    await greeting.fill('{{ms}}, {{name}}! Choose a queue:');
    await screenshot(page, '24-connection-form');
    await page.getByTestId('connection-submit').click();
    await expectToast(page, 'Connection saved successfully.');

    // The new connection waits for its phone: the QR dialog opens with a real QR code.
    const dialog = page.getByTestId('qr-dialog');
    await dialog.waitFor();
    const qr = page.getByTestId('qr-code');
    await expect.poll(() => qr.getAttribute('data-qr')).toMatch(/^SIM-\d+-/);
    await expect(qr.locator('svg path').count()).resolves.toBeGreaterThan(0);
    await expect(page.getByTestId('qr-instructions').textContent()).resolves.toContain('Link a device');
    await screenshot(page, '25-qr-dialog');

    // Pairing by phone number instead: digits only, then the 8-character code.
    await page.getByTestId('qr-toggle-pairing').click();
    await page.getByTestId('pairing-phone').fill('55 11 9');
    await page.getByTestId('pairing-submit').click();
    await page.getByText('Digits only: country code, area code and number').first().waitFor();
    await page.getByTestId('pairing-phone').fill('5511912345678');
    await page.getByTestId('pairing-submit').click();
    const pairing = page.getByTestId('pairing-code');
    await pairing.waitFor();
    await expect(pairing.getAttribute('data-code')).resolves.toMatch(/^[A-Z0-9]{8}$/);
    await expect(pairing.textContent()).resolves.toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    await screenshot(page, '26-qr-dialog-pairing-code');
    await page.getByTestId('qr-toggle-pairing').click();
    await qr.waitFor();

    // Closed by hand, the dialog opens again from the row's 'QR code' button.
    await page.getByTestId('qr-close').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await statusOf(page)).toBe('qrcode');
    await expect(row(page).getByTestId('connection-status').textContent()).resolves.toContain('Waiting for scan');
    await expect.poll(() => badge(page), { timeout: 6000 }).toBe('true');
    const id = Number(await row(page).getAttribute('data-id'));
    await row(page).getByTestId('session-qrcode').click();
    await expect.poll(() => qr.getAttribute('data-qr')).toMatch(new RegExp(`^SIM-${id}-`));

    // A new code (the session restarted elsewhere): the open dialog waits through OPENING and shows it.
    const firstCode = await qr.getAttribute('data-qr');
    expect((await api(`/whatsappsession/${id}`, { method: 'POST' })).status).toBe(200);
    // Through OPENING the dialog holds no code (''), then shows the new one.
    const newCode = async () => {
      const code = (await qr.getAttribute('data-qr')) ?? '';
      return code === firstCode ? `still ${code}` : code;
    };
    await expect.poll(newCode).toMatch(new RegExp(`^SIM-${id}-`));
    await expect(dialog.isVisible()).resolves.toBe(true);

    // The phone scans the code: the dialog closes by itself, the row turns connected and the badge
    // goes, 2 s after the list changed.
    expect((await api(`/simulator/${id}/scan`, { method: 'POST' })).status).toBe(200);
    await dialog.waitFor({ state: 'detached', timeout: 5000 });
    await expect.poll(() => statusOf(page)).toBe('CONNECTED');
    const connectedAt = Date.now();
    expect(await badge(page)).toBe('true');
    await expect(row(page).getByTestId('connection-status').textContent()).resolves.toBe('Connected');
    await expect(row(page).getByTestId('connection-default-flag').count()).resolves.toBe(1);
    await expect(row(page).getByTestId('connection-channel-chip').textContent()).resolves.toBe('Simulator');
    await expect(row(page).getByTestId('connection-updated').textContent()).resolves.toMatch(/^\d{2}\/\d{2}\/\d{2} \d{2}:\d{2}$/);
    await expect.poll(() => badge(page), { timeout: 6000, interval: 100 }).toBe('false');
    expect(Date.now() - connectedAt).toBeGreaterThan(1500);
    await screenshot(page, '27-connections-connected');

    // Disconnect (confirmed): DISCONNECTED with 'Try again' and 'New QR'; the badge is back.
    await row(page).getByTestId('session-disconnect').click();
    await page.getByTestId('confirmation-dialog').getByText('Disconnect Simulated phone?').waitFor();
    await page.getByTestId('confirmation-confirm').click();
    await expect.poll(() => statusOf(page)).toBe('DISCONNECTED');
    await row(page).getByTestId('session-retry').waitFor();
    await expect(row(page).getByTestId('session-retry').textContent()).resolves.toBe('Try again');
    await expect(row(page).getByTestId('session-newQr').textContent()).resolves.toBe('New QR');
    await expect.poll(() => badge(page), { timeout: 6000 }).toBe('true');
    await screenshot(page, '28-connections-disconnected');

    // Try again: the phone was logged out, so the session asks for a QR code again.
    await row(page).getByTestId('session-retry').click();
    await expect.poll(() => statusOf(page)).toBe('qrcode');
    await row(page).getByTestId('session-qrcode').waitFor();

    // The phone drops off (not logged out): retries show; 'New QR' starts a fresh pairing in the dialog.
    await api(`/simulator/${id}/scan`, { method: 'POST' });
    await expect.poll(() => statusOf(page)).toBe('CONNECTED');
    expect((await api(`/simulator/${id}/disconnect`, { method: 'POST' })).status).toBe(200);
    await expect.poll(() => statusOf(page)).toBe('DISCONNECTED');
    await expect(row(page).getByTestId('connection-retries').textContent()).resolves.toBe('1 retry');
    await row(page).getByTestId('session-newQr').click();
    await dialog.waitFor();
    await expect.poll(() => qr.getAttribute('data-qr')).toMatch(new RegExp(`^SIM-${id}-`));
    await api(`/simulator/${id}/scan`, { method: 'POST' });
    await dialog.waitFor({ state: 'detached', timeout: 5000 });
    await expect.poll(() => statusOf(page)).toBe('CONNECTED');
    await expect.poll(() => badge(page), { timeout: 6000 }).toBe('false');

    // Edit: the only default cannot be unset (translated server error); a rename saves.
    await row(page).getByTestId('connection-edit').click();
    await expect(page.getByTestId('connection-channel').count()).resolves.toBe(0);
    await expect(page.getByTestId('connection-greeting').inputValue()).resolves.toBe('{{ms}}, {{name}}! Choose a queue:');
    await page.getByTestId('connection-default').click();
    await page.getByTestId('connection-submit').click();
    await expectToast(page, 'There must be at lest one default WhatsApp connection.');
    await page.getByTestId('connection-default').click();
    await page.getByTestId('connection-name').fill('Simulated phone 1');
    await page.getByTestId('connection-submit').click();
    await expectToast(page, 'Connection saved successfully.');
    await row(page, 'Simulated phone 1').waitFor();

    // Delete, with confirmation: a second connection made through the API shows up live, then goes.
    expect((await api('/whatsapp', { method: 'POST', body: { name: 'Spare phone', channel: 'simulator' } })).status).toBe(201);
    await row(page, 'Spare phone').waitFor();
    await expect(row(page, 'Spare phone').getByTestId('connection-default-flag').count()).resolves.toBe(0);
    await row(page, 'Spare phone').getByTestId('connection-delete').click();
    await page.getByTestId('confirmation-dialog').getByText('Delete Spare phone?').waitFor();
    await page.getByTestId('confirmation-confirm').click();
    await expectToast(page, 'Connection deleted successfully.');
    await row(page, 'Spare phone').waitFor({ state: 'detached' });
    await expect(page.getByTestId('connection-row').count()).resolves.toBe(1);

    await context.close();
  });

  it('shows a plain user the table read-only, with live statuses', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page, '/', PLAIN_USER);
    await page.getByTestId('menu-connections').click();
    await page.getByTestId('connections-page').waitFor();
    await row(page, 'Simulated phone 1').waitFor();
    expect(await statusOf(page, 'Simulated phone 1')).toBe('CONNECTED');
    await expect(page.getByTestId('add-connection').count()).resolves.toBe(0);
    await expect(page.getByTestId('connection-edit').count()).resolves.toBe(0);
    await expect(page.getByTestId('connection-delete').count()).resolves.toBe(0);
    await expect(page.getByTestId('session-disconnect').count()).resolves.toBe(0);
    await expect(page.getByRole('columnheader', { name: 'Session' }).count()).resolves.toBe(0);

    // The phone drops off: the row and the badge follow without a reload, still without buttons.
    const id = Number(await row(page, 'Simulated phone 1').getAttribute('data-id'));
    await api(`/simulator/${id}/disconnect`, { method: 'POST' });
    await expect.poll(() => statusOf(page, 'Simulated phone 1')).toBe('DISCONNECTED');
    await expect.poll(() => badge(page), { timeout: 6000 }).toBe('true');
    await expect(page.getByTestId('session-retry').count()).resolves.toBe(0);
    await screenshot(page, '29-connections-plain-user');

    // In Portuguese the statuses are translated too.
    await page.getByTestId('language-button').click();
    await page.getByTestId('language-option-pt').click();
    await expect.poll(() => row(page, 'Simulated phone 1').getByTestId('connection-status').textContent()).toContain('Desconectado');
    await context.close();
  });

  it('raised no uncaught error in any page', () => {
    expect(pageErrors).toEqual([]);
  });
});
