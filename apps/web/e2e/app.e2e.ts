/**
 * The web app in a real browser against the real server: sign-up and admin CRUD, language,
 * logout, permissions and live updates between two tabs. Screenshots land in e2e/artifacts/.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, login, newContext, pageErrors, pickOption, screenshot, openSignedIn } from './browser';
import { signIn } from './simulator';

const baseUrl = inject('baseUrl');
let browser: Browser;

const PLAIN_USER = { name: 'Paula Plain', email: 'paula@e2e.test', password: 'paula-secret' };

async function expectToast(page: Page, text: string): Promise<void> {
  await page.locator('.Toastify__toast', { hasText: text }).first().waitFor();
}

beforeAll(async () => {
  browser = await launchBrowser();
  const { token } = await signIn(baseUrl);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  // Sign-up is off on a new install: the admin opens it for these tests.
  expect((await fetch(`${baseUrl}/api/settings/userCreation`, { method: 'PUT', headers, body: JSON.stringify({ value: 'enabled' }) })).status).toBe(200);
  // A plain user for the permission test, created through the public API.
  const response = await fetch(`${baseUrl}/api/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(PLAIN_USER) });
  expect(response.status).toBe(201);

  // A queue and a contact, so each test stands on its own.
  const queue = await fetch(`${baseUrl}/api/queue`, { method: 'POST', headers, body: JSON.stringify({ name: 'Billing', color: '#B80000', greetingMessage: '' }) });
  expect(queue.status).toBe(201);
  const contact = await fetch(`${baseUrl}/api/contacts`, { method: 'POST', headers, body: JSON.stringify({ name: 'Seed Contact', number: '5511900000001' }) });
  expect(contact.status).toBe(201);
});

afterAll(async () => {
  await browser?.close();
});

describe('web app', () => {
  it('signs up a new user, then the admin creates a queue, a user and a contact', async () => {
    const context = await newContext(browser, baseUrl);
    const page = await context.newPage();

    await page.goto('/signup');
    await page.getByTestId('signup-submit').click();
    await expect(page.getByText('Required').first().isVisible()).resolves.toBe(true);
    await page.getByTestId('signup-name').fill('N');
    await page.getByTestId('signup-email').fill('not-an-email');
    await page.getByTestId('signup-submit').click();
    await page.getByText('Too Short!').first().waitFor();
    await page.getByText('Invalid email').waitFor();
    await screenshot(page, '01-signup-validation');

    await page.getByTestId('signup-name').fill('Sam Signup');
    await page.getByTestId('signup-email').fill('sam@e2e.test');
    await page.getByTestId('signup-password').fill('sam-secret');
    await page.getByTestId('signup-submit').click();
    await expectToast(page, 'User created successfully! Please login!');
    await page.waitForURL('**/login');
    await screenshot(page, '02-login');

    // One socket per tab: it opens at login and survives moving between pages.
    const sockets: string[] = [];
    page.on('websocket', (ws) => {
      if (ws.url().includes('/socket.io/')) sockets.push(ws.url());
    });
    await login(page);
    await expectToast(page, 'Login successfully!');
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByTestId('dashboard-page').waitFor();
    await screenshot(page, '03-dashboard-shell');

    // Queue
    await page.getByTestId('menu-queues').click();
    await page.getByTestId('queues-page').waitFor();
    await page.getByTestId('add-queue').click();
    await page.getByTestId('queue-name').fill('Sales');
    await page.getByTestId('queue-color-swatch').click();
    await page.getByTestId('color-palette').waitFor();
    await screenshot(page, '04-queue-modal-palette');
    await page.getByTestId('color-1273DE').click();
    await expect(page.getByTestId('queue-color').inputValue()).resolves.toBe('#1273DE');
    await page.getByTestId('queue-greeting').fill('Welcome to Sales!');
    await page.getByTestId('queue-submit').click();
    await expectToast(page, 'Queue saved successfully');
    await page.getByTestId('queue-row').filter({ hasText: 'Sales' }).waitFor();
    await screenshot(page, '05-queues');

    // User, in the new queue
    await page.getByTestId('menu-users').click();
    await page.getByTestId('users-page').waitFor();
    await page.getByTestId('user-row').filter({ hasText: 'sam@e2e.test' }).waitFor();
    await page.getByTestId('add-user').click();
    await page.getByTestId('user-name').fill('Alice Agent');
    await page.getByTestId('user-email').fill('alice@e2e.test');
    await page.getByTestId('user-password').fill('alice-secret');
    await pickOption(page, 'user-queues', 'Sales');
    await page.keyboard.press('Escape');
    await screenshot(page, '06-user-modal');
    await page.getByTestId('user-submit').click();
    await expectToast(page, 'User saved successfully!');
    const aliceRow = page.getByTestId('user-row').filter({ hasText: 'alice@e2e.test' });
    await aliceRow.waitFor();
    await screenshot(page, '07-users');

    // The search narrows the list (debounced on the server side of the list).
    await page.getByTestId('search-input').fill('alice');
    await expect.poll(() => page.getByTestId('user-row').count(), { timeout: 5000 }).toBe(1);
    await page.getByTestId('search-input').fill('');

    // Contact with extra info
    await page.getByTestId('menu-contacts').click();
    await page.getByTestId('contacts-page').waitFor();
    await page.getByTestId('add-contact').click();
    await page.getByTestId('contact-name').fill('Carla Customer');
    await page.getByTestId('contact-number').fill('55 11 9x');
    await page.getByTestId('contact-submit').click();
    await page.getByText('Digits only: country code, area code and number').first().waitFor();
    await page.getByTestId('contact-number').fill('5511912345678');
    await page.getByTestId('contact-email').fill('carla@example.com');
    await page.getByTestId('contact-add-extra').click();
    await page.getByTestId('contact-extra-name-0').fill('Company');
    await page.getByTestId('contact-extra-value-0').fill('ACME');
    await screenshot(page, '08-contact-modal');
    await page.getByTestId('contact-submit').click();
    await expectToast(page, 'Contact saved successfully!');
    await page.getByTestId('contact-row').filter({ hasText: 'Carla Customer' }).waitFor();
    await screenshot(page, '09-contacts');

    // Quick answer
    await page.getByTestId('menu-quickAnswers').click();
    await page.getByTestId('add-quick-answer').click();
    await page.getByTestId('quick-answer-shortcut').fill('hello');
    await page.getByTestId('quick-answer-message').fill('Hello! How can we help you today?');
    await page.getByTestId('quick-answer-submit').click();
    await expectToast(page, 'Quick answer saved successfully!');
    await page.getByTestId('quick-answer-row').filter({ hasText: '/hello' }).waitFor();
    await screenshot(page, '10-quick-answers');

    expect(sockets).toHaveLength(1);

    // Settings: a toggle saves at once; /Settings is an alias of /settings.
    await page.goto('/Settings');
    await page.getByTestId('settings-page').waitFor();
    await page.getByTestId('setting-groups').locator('input').check();
    await expectToast(page, 'Settings saved successfully.');
    await screenshot(page, '11-settings');

    await context.close();
  });

  it('switches the language and remembers it', async () => {
    const context = await newContext(browser, baseUrl);
    const page = await context.newPage();
    await openSignedIn(page);
    await expect(page.getByTestId('menu-contacts').textContent()).resolves.toBe('Contacts');

    // On a wide screen the drawer collapses to its icons and opens again.
    await page.getByTestId('drawer-toggle').click();
    await expect.poll(() => page.getByTestId('menu-contacts').textContent()).toBe('');
    await page.getByTestId('menu-contacts').hover();
    await screenshot(page, '20-drawer-collapsed');
    await page.getByTestId('drawer-toggle').click();
    await expect.poll(() => page.getByTestId('menu-contacts').textContent()).toBe('Contacts');

    await page.getByTestId('language-button').click();
    await page.getByTestId('language-option-pt').click();
    await expect.poll(() => page.getByTestId('menu-contacts').textContent()).toBe('Contatos');
    await expect(page.getByTestId('menu-section-admin').textContent()).resolves.toBe('Administração');
    await screenshot(page, '12-shell-portuguese');

    await page.reload();
    await expect.poll(() => page.getByTestId('menu-contacts').textContent()).toBe('Contatos');
    await page.getByTestId('menu-users').click();
    await page.getByTestId('user-row').first().waitFor();
    await screenshot(page, '21-users-portuguese');

    await page.getByTestId('language-button').click();
    await page.getByTestId('language-option-es').click();
    await expect.poll(() => page.getByTestId('menu-contacts').textContent()).toBe('Contactos');
    await page.getByTestId('menu-settings').click();
    await page.getByTestId('settings-group-general').waitFor();
    await screenshot(page, '22-settings-spanish');
    await context.close();

    // A first visit follows the browser's language.
    const spanish = await newContext(browser, baseUrl, { locale: 'pt-BR' });
    const visitor = await spanish.newPage();
    await visitor.goto('/login');
    await expect.poll(() => visitor.getByTestId('login-submit').textContent()).toBe('Entrar');
    await spanish.close();
  });

  it('logs out and lands on /login; public and private routes redirect', async () => {
    const context = await newContext(browser, baseUrl);
    const page = await context.newPage();

    await page.goto('/contacts');
    await page.waitForURL('**/login');

    await openSignedIn(page, '/signup');
    await page.waitForURL((url) => url.pathname === '/');

    await page.getByTestId('user-menu-button').click();
    await screenshot(page, '13-user-menu');
    await page.getByTestId('user-menu-logout').click();
    await page.waitForURL('**/login');
    await page.getByTestId('login-page').waitFor();

    // The session is gone on the server too: a reload stays on the login page.
    await page.goto('/users');
    await page.waitForURL('**/login');
    await context.close();
  });

  it('refuses /users to a plain user and hides the Administration menu', async () => {
    const context = await newContext(browser, baseUrl);
    const page = await context.newPage();
    await openSignedIn(page, '/', PLAIN_USER);
    await page.getByTestId('menu-contacts').waitFor();
    // Every tool page is built and in the menu.
    await page.getByTestId('menu-section-bulk').waitFor();
    for (const built of [
      'menu-bulkText',
      'menu-groups',
      'menu-bot',
      'menu-bulkMediaUrl',
      'menu-bulkMediaPath',
      'menu-bulkAudio',
      'menu-scheduled',
      'menu-directIg',
      'menu-sms',
      'menu-voiceCall',
      'menu-history',
    ]) {
      await expect(page.getByTestId(built).count()).resolves.toBe(1);
    }
    await expect(page.getByTestId('menu-section-admin').count()).resolves.toBe(0);
    await expect(page.getByTestId('menu-users').count()).resolves.toBe(0);

    await page.goto('/users');
    await page.getByTestId('no-permission').waitFor();
    await expect(page.getByTestId('no-permission').textContent()).resolves.toContain("You don't have permission to use this page.");
    await screenshot(page, '14-no-permission');

    // Profile: the user edits their own name; no admin-only fields.
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('user-menu-profile').click();
    await page.getByTestId('user-modal').waitFor();
    await page.getByTestId('user-name').waitFor();
    await expect(page.getByTestId('user-profile').count()).resolves.toBe(0);
    await expect(page.getByTestId('user-queues').count()).resolves.toBe(0);
    await screenshot(page, '15-profile-modal');
    await page.getByTestId('user-name').fill('Paula P.');
    await page.getByTestId('user-submit').click();
    await expectToast(page, 'User saved successfully!');
    await expect.poll(() => page.getByTestId('user-menu-button').textContent()).toBe('PP');

    // Contacts: a plain user has no delete button.
    await page.getByTestId('menu-contacts').click();
    await page.getByTestId('contact-row').first().waitFor();
    await expect(page.getByTestId('contact-delete').count()).resolves.toBe(0);
    await context.close();
  });

  it('shows a queue created in one tab in another tab without reload', async () => {
    const context = await newContext(browser, baseUrl);
    const first = await context.newPage();
    await openSignedIn(first, '/queues');
    await first.getByTestId('queues-page').waitFor();

    // The second tab restores the session from the refresh cookie.
    const second = await context.newPage();
    await second.goto('/queues');
    await second.getByTestId('queues-page').waitFor();
    await second.getByTestId('queue-row').first().waitFor();

    await first.getByTestId('add-queue').click();
    await first.getByTestId('queue-name').fill('Support');
    await first.getByTestId('queue-color').fill('#16A5A5');
    await first.getByTestId('queue-submit').click();
    await expectToast(first, 'Queue saved successfully');

    await second.getByTestId('queue-row').filter({ hasText: 'Support' }).waitFor({ timeout: 10_000 });
    await screenshot(second, '16-live-queue-second-tab');

    // Deleting in the second tab removes the row from the first.
    await second.getByTestId('queue-row').filter({ hasText: 'Support' }).getByTestId('queue-delete').click();
    await second.getByTestId('confirmation-confirm').click();
    await expectToast(second, 'Queue deleted successfully!');
    await first.getByTestId('queue-row').filter({ hasText: 'Support' }).waitFor({ state: 'detached', timeout: 10_000 });

    // Contacts follow too: one created in the first tab shows in the second's open list.
    await second.goto('/contacts');
    await second.getByTestId('contact-row').first().waitFor();
    await first.goto('/contacts');
    await first.getByTestId('add-contact').click();
    await first.getByTestId('contact-name').fill('Live Larry');
    await first.getByTestId('contact-number').fill('5521987654321');
    await first.getByTestId('contact-submit').click();
    await second.getByTestId('contact-row').filter({ hasText: 'Live Larry' }).waitFor({ timeout: 10_000 });

    // Settings too: a toggle flipped in one tab moves in the other.
    await first.goto('/settings');
    await second.goto('/settings');
    const toggle = (page: Page) => page.getByTestId('setting-call').locator('input');
    await expect(toggle(second).isChecked()).resolves.toBe(false);
    await toggle(first).check();
    await expectToast(first, 'Settings saved successfully.');
    await expect.poll(() => toggle(second).isChecked(), { timeout: 10_000 }).toBe(true);
    await toggle(second).uncheck();
    await expect.poll(() => toggle(first).isChecked(), { timeout: 10_000 }).toBe(false);
    await context.close();
  });

  it('imports contacts from a CSV, loads more rows on scroll and exports the CSV', async () => {
    const context = await newContext(browser, baseUrl);
    const page = await context.newPage();
    await openSignedIn(page, '/contacts');
    await page.getByTestId('contact-row').first().waitFor();

    const lines = ['name;number;email'];
    for (let i = 1; i <= 30; i += 1) lines.push(`Imported ${String(i).padStart(2, '0')};55119800000${String(i).padStart(2, '0')};imported${i}@example.com`);
    lines.push('X;123;');
    await page.getByTestId('import-contacts').click();
    await page.getByTestId('contact-import-file').setInputFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
    await page.getByTestId('contact-import-submit').click();
    const result = page.getByTestId('contact-import-result');
    await result.waitFor();
    await expect(result.textContent()).resolves.toContain('30 contacts created');
    await expect(result.textContent()).resolves.toContain('1 line skipped');
    await expect(result.textContent()).resolves.toContain('Line 32');
    await screenshot(page, '19-contact-import');
    await page.keyboard.press('Escape');

    // 20 rows a page: scrolling to the bottom loads the next one.
    // The search goes out once typing pauses (500 ms).
    const searched = page.waitForResponse((response) => response.url().includes('searchParam=imported'));
    await page.getByTestId('search-input').fill('imported');
    await searched;
    await page.getByTestId('contact-row').filter({ hasText: 'Seed Contact' }).waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('contact-row').count(), { timeout: 5000 }).toBe(20);
    await page.getByTestId('contacts-list').evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await expect.poll(() => page.getByTestId('contact-row').count(), { timeout: 5000 }).toBe(30);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-contacts').click()]);
    expect(download.suggestedFilename()).toBe('zdg.csv');
    const file = await download.path();
    const { readFile } = await import('node:fs/promises');
    const csv = await readFile(file, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('\uFEFF"name";"number";"email";"labels"');
    expect(csv).toContain('"Imported 30";"5511980000030";"imported30@example.com";""');
    await context.close();
  });

  it('looks right on a phone: the drawer is temporary', async () => {
    const context = await newContext(browser, baseUrl, { mobile: true });
    const page = await context.newPage();
    await openSignedIn(page, '/contacts');
    await page.getByTestId('contact-row').first().waitFor();
    await expect(page.getByTestId('menu-contacts').isVisible()).resolves.toBe(false);
    await screenshot(page, '17-mobile-contacts');
    await page.getByTestId('drawer-toggle').click();
    await page.getByTestId('menu-contacts').waitFor({ state: 'visible' });
    await screenshot(page, '18-mobile-drawer');
    await page.getByTestId('menu-quickAnswers').click();
    await page.getByTestId('quick-answers-page').waitFor();
    await expect.poll(() => page.getByTestId('menu-contacts').isVisible()).toBe(false);
    await context.close();
  });

  it('raised no uncaught error in any page', () => {
    expect(pageErrors).toEqual([]);
  });
});
