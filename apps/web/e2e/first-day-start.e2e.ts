/**
 * The first day of a new install, in Portuguese, at 1440×900 and 390×844: the login page without
 * a sign-up link while sign-up is off, the admin's checklist ticking itself as the phone is linked
 * with the simulator's button, a queue is created (a second one with the same name refused), an
 * agent is added and a message is sent, then closed for good; chats opening on message skeletons;
 * a voice note's length shown before it is played; the profile dialog's labels above their values.
 */
import { spawnSync } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZTicketListSchema } from '@zapdesk/shared/messaging';
import { launchBrowser, login, newContext, pageErrors, pickOption, screenshot } from './browser';
import { ADMIN, startServer, type RunningServer } from './server';
import { apiAs, signIn } from './simulator';

/** A fresh install: the desktop's and the phone's each start from nothing. */
type Site = { server: RunningServer; token: string };
let browser: Browser;
let site: Site;

const apiOf =
  (at: Site) =>
  (route: string, options: { method?: string; body?: unknown } = {}) =>
    apiAs(at.server.baseUrl, () => at.token)(route, options);
const api = (route: string, options: { method?: string; body?: unknown } = {}) => apiOf(site)(route, options);

async function startSite(): Promise<Site> {
  const server = await startServer({ simulator: true });
  return { server, token: (await signIn(server.baseUrl)).token };
}
const shot = (page: Page, name: string) => screenshot(page, `first-day-start-${name}`);

async function expectToast(page: Page, text: string): Promise<void> {
  await page.locator('.Toastify__toast', { hasText: text }).first().waitFor();
}

async function open(size: 'desktop' | 'phone'): Promise<Page> {
  const context = await newContext(browser, site.server.baseUrl, { locale: 'pt-BR', mobile: size === 'phone' });
  const page = await context.newPage();
  if (size === 'desktop') await page.setViewportSize({ width: 1440, height: 900 });
  return page;
}

const stepDone = (page: Page, step: string) => page.getByTestId(`first-run-${step}`).getAttribute('data-done');

async function ticketOf(from: string): Promise<number> {
  for (const status of ['pending', 'open']) {
    const { tickets } = ZTicketListSchema.parse(await (await api(`/tickets?status=${status}&showAll=true`)).json());
    const found = tickets.find((ticket) => ticket.contact.number === from);
    if (found) return found.id;
  }
  return 0;
}

/** A 7-second voice note as a browser records it: Opus in WebM written as a stream, with no length in its header. */
function recordedVoiceNote(): string {
  const made = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=7', '-c:a', 'libopus', '-b:a', '24k', '-f', 'webm', 'pipe:1'], {
    maxBuffer: 4 << 20,
  });
  expect(made.status).toBe(0);
  return made.stdout.toString('base64');
}

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** Links a simulated phone from the QR dialog's button, from the connections page. */
async function linkWithSimulator(page: Page, name: string, shotName: string): Promise<number> {
  await page.getByTestId('connections-page').waitFor();
  await page.getByTestId('add-connection').click();
  await page.getByTestId('connection-name').fill(name);
  await pickOption(page, 'connection-channel', 'Simulador');
  await page.getByTestId('connection-submit').click();
  const dialog = page.getByTestId('qr-dialog');
  await dialog.waitFor();
  const scan = page.getByTestId('qr-simulator-scan');
  await expect(scan.textContent()).resolves.toBe('Escanear com o simulador');
  await expect(dialog.textContent()).resolves.not.toContain('/api/');
  await expect.poll(() => scan.isEnabled()).toBe(true);
  await shot(page, shotName);
  await scan.click();
  await dialog.waitFor({ state: 'detached' });
  await expectToast(page, 'O celular simulado foi conectado.');
  const row = page.getByTestId('connection-row').filter({ hasText: name });
  await expect.poll(() => row.getByTestId('connection-status').getAttribute('data-status')).toBe('CONNECTED');
  return Number(await row.getAttribute('data-id')); // > 0, or the next calls fail
}

/** A chat opened while its messages are held back: the skeleton shows, then the messages. */
async function openHeld(page: Page, ticketId: number, firstText: string, shotName: string): Promise<void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(`**/api/messages/${ticketId}?**`, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/tickets/${ticketId}`);
  await page.getByTestId('message-skeleton').first().waitFor();
  await expect(page.getByTestId('message-skeleton').count()).resolves.toBeGreaterThan(3);
  await expect(page.getByRole('status', { name: 'Carregando as mensagens…' }).count()).resolves.toBe(1);
  await shot(page, shotName);
  release();
  await page.getByText(firstText).first().waitFor();
  await expect(page.getByTestId('message-skeleton').count()).resolves.toBe(0);
  await page.unroute(`**/api/messages/${ticketId}?**`);
}

/** A contact sends a text and then a recorded voice note; the ticket's id. */
async function voiceNoteTicket(connectionId: number, from: string, name: string): Promise<number> {
  expect((await api(`/simulator/${connectionId}/inbound`, { method: 'POST', body: { from, name, body: 'Oi! Segue um áudio.' } })).status).toBe(200);
  const media = { base64: recordedVoiceNote(), mimetype: 'audio/webm', filename: 'audio.webm' };
  expect((await api(`/simulator/${connectionId}/inbound`, { method: 'POST', body: { from, name, body: '', media } })).status).toBe(200);
  await expect.poll(() => ticketOf(from)).toBeGreaterThan(0);
  return ticketOf(from);
}

async function expectVoiceNoteLength(page: Page): Promise<void> {
  const audio = page.getByTestId('message-audio');
  await audio.waitFor();
  // The player shows '0:00 / 0:07' before anyone presses play (Chromium alone would show 0:00 for a recording).
  await expect.poll(() => audio.getAttribute('data-duration'), { timeout: 20_000 }).toBe('0:07');
  await expect(audio.getAttribute('aria-label')).resolves.toBe('Mensagem de voz de 0:07');
  await expect(audio.evaluate((element: HTMLAudioElement) => Math.round(element.duration))).resolves.toBe(7);
  await expect(audio.evaluate((element: HTMLAudioElement) => ({ paused: element.paused, at: element.currentTime }))).resolves.toEqual({ paused: true, at: 0 });
}

describe('the first day, on a desktop', () => {
  let connectionId = 0;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(() => site?.server.stop());

  it('hides the sign-up link while sign-up is off, and shows it once an admin turns it on', async () => {
    const page = await open('desktop');
    const asked = page.waitForResponse((response) => response.url().endsWith('/api/public-settings'));
    await page.goto('/login');
    await page.getByTestId('login-submit').waitFor();
    await asked;
    await expect(page.getByTestId('link-signup').count()).resolves.toBe(0);
    await expect(page.getByTestId('login-submit').textContent()).resolves.toBe('Entrar');
    await shot(page, 'login-desktop');

    expect((await api('/settings/userCreation', { method: 'PUT', body: { value: 'enabled' } })).status).toBe(200);
    await page.reload();
    await expect(page.getByTestId('link-signup').textContent()).resolves.toBe('Não tem uma conta? Cadastre-se!');
    expect((await api('/settings/userCreation', { method: 'PUT', body: { value: 'disabled' } })).status).toBe(200);
    await page.context().close();
  });

  it('guides the admin through the first steps, ticking each as it gets done, and stays closed once closed', async () => {
    const page = await open('desktop');
    await login(page);
    const checklist = page.getByTestId('first-run');
    await checklist.waitFor();
    await expect(checklist.locator('h2').textContent()).resolves.toBe('Primeiros passos');
    await expect(page.getByTestId('first-run-progress').textContent()).resolves.toBe('Concluídos: 0 de 4');
    for (const step of ['connection', 'queue', 'agent', 'message']) await expect(stepDone(page, step)).resolves.toBe('false');
    await shot(page, 'checklist-desktop');

    // A queue, from the checklist's own button; a second one with the same name in capitals is refused.
    await page.getByTestId('first-run-queue-action').click();
    await page.getByTestId('queues-page').waitFor();
    await page.getByTestId('add-queue').click();
    await page.getByTestId('queue-name').fill('Vendas');
    await page.getByTestId('queue-submit').click();
    await page.getByTestId('queue-modal').waitFor({ state: 'detached' });
    await page.getByTestId('add-queue').click();
    await page.getByTestId('queue-name').fill('VENDAS');
    await page.getByTestId('queue-submit').click();
    await expectToast(page, 'Já existe uma fila com este nome.');
    await page.getByText('Já está em uso').waitFor();
    await shot(page, 'queue-name-taken-desktop');
    await page.getByTestId('queue-cancel').click();
    await expect(page.getByTestId('queue-row').count()).resolves.toBe(1);

    await page.goto('/');
    await checklist.waitFor();
    await expect.poll(() => stepDone(page, 'queue')).toBe('true');
    await expect(page.getByTestId('first-run-progress').textContent()).resolves.toBe('Concluídos: 1 de 4');

    // An agent added elsewhere ticks while the dashboard is open (a live update, or the half-minute read).
    expect((await api('/users', { method: 'POST', body: { name: 'Bruna Atendente', email: 'bruna@e2e.test', password: 'bruna-secret-1', profile: 'user', queueIds: [] } })).status).toBe(201);
    await expect.poll(() => stepDone(page, 'agent'), { timeout: 40_000 }).toBe('true');

    // The phone: the QR dialog scans with the simulator at a click.
    await page.getByTestId('first-run-connection-action').click();
    connectionId = await linkWithSimulator(page, 'Loja Centro', 'qr-simulator-desktop');
    await page.goto('/');
    await checklist.waitFor();
    await expect.poll(() => stepDone(page, 'connection')).toBe('true');
    await expect(stepDone(page, 'message')).resolves.toBe('false');

    // A customer writes in; the admin answers from the chat.
    const from = '5511977001001';
    expect((await api(`/simulator/${connectionId}/inbound`, { method: 'POST', body: { from, name: 'Carla Cliente', body: 'Bom dia! Vocês entregam no sábado?' } })).status).toBe(200);
    await expect.poll(() => ticketOf(from)).toBeGreaterThan(0);
    await page.goto(`/tickets/${await ticketOf(from)}`);
    await page.getByTestId('ticket-view').getByTestId('ticket-accept').click();
    await expect.poll(() => page.getByTestId('ticket-view').getAttribute('data-status')).toBe('open');
    await page.getByTestId('message-input').fill('Bom dia, Carla! Entregamos sim.');
    await page.getByTestId('message-send').click();
    await page.getByText('Bom dia, Carla! Entregamos sim.').first().waitFor();

    await page.goto('/');
    await checklist.waitFor();
    await expect.poll(() => stepDone(page, 'message')).toBe('true');
    await expect(page.getByTestId('first-run-progress').textContent()).resolves.toBe('Concluídos: 4 de 4');
    await expect(checklist.textContent()).resolves.toContain('Tudo pronto!');
    await shot(page, 'checklist-done-desktop');

    await page.getByTestId('first-run-dismiss').click();
    await expectToast(page, 'Os primeiros passos foram fechados.');
    await checklist.waitFor({ state: 'detached' });
    const asked = page.waitForResponse((response) => response.url().endsWith('/api/onboarding'));
    await page.reload();
    await page.getByTestId('dashboard-open').waitFor();
    await asked;
    await expect(page.getByTestId('first-run').count()).resolves.toBe(0);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  it('opens a chat on message skeletons while its messages load, and shows a voice note’s length before it is played', async () => {
    const ticketId = await voiceNoteTicket(connectionId, '5511977001002', 'Davi Áudio');
    const page = await open('desktop');
    await login(page);
    await openHeld(page, ticketId, 'Oi! Segue um áudio.', 'skeletons-desktop');
    await expectVoiceNoteLength(page);
    await shot(page, 'voice-note-desktop');
    await page.context().close();
  });

  it("draws the profile dialog's labels above the values it opens with", async () => {
    const page = await open('desktop');
    await login(page);
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('user-menu-profile').click();
    const modal = page.getByTestId('user-modal');
    await expect.poll(() => page.getByTestId('user-email').inputValue()).toBe(ADMIN.email);
    for (const label of ['Nome', 'Email']) await expect.poll(() => modal.locator('label', { hasText: label }).first().getAttribute('data-shrink')).toBe('true');
    await shot(page, 'profile-desktop');
    await page.context().close();
  });
});

describe('the first day, on a phone', () => {
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(() => site?.server.stop());

  it('shows the login page without a sign-up link, the checklist, the scan button, the skeletons, the voice note’s length and the profile', async () => {
    const page = await open('phone');
    const asked = page.waitForResponse((response) => response.url().endsWith('/api/public-settings'));
    await page.goto('/login');
    await page.getByTestId('login-submit').waitFor();
    await asked;
    await expect(page.getByTestId('link-signup').count()).resolves.toBe(0);
    await shot(page, 'login-phone');

    await login(page);
    const checklist = page.getByTestId('first-run');
    await checklist.waitFor();
    await expect(page.getByTestId('first-run-progress').textContent()).resolves.toBe('Concluídos: 0 de 4');
    await shot(page, 'checklist-phone');

    await page.getByTestId('first-run-connection-action').click();
    const connectionId = await linkWithSimulator(page, 'Loja Bairro', 'qr-simulator-phone');
    await page.goto('/');
    await checklist.waitFor();
    await expect.poll(() => stepDone(page, 'connection')).toBe('true');
    await expect(page.getByTestId('first-run-progress').textContent()).resolves.toBe('Concluídos: 1 de 4');
    await shot(page, 'checklist-ticked-phone');

    const ticketId = await voiceNoteTicket(connectionId, '5511977002001', 'Elisa Áudio');
    await openHeld(page, ticketId, 'Oi! Segue um áudio.', 'skeletons-phone');
    await expectVoiceNoteLength(page);
    await shot(page, 'voice-note-phone');

    await page.goto('/');
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('user-menu-profile').click();
    await expect.poll(() => page.getByTestId('user-email').inputValue()).toBe(ADMIN.email);
    await expect.poll(() => page.getByTestId('user-modal').locator('label', { hasText: 'Nome' }).first().getAttribute('data-shrink')).toBe('true');
    await shot(page, 'profile-phone');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
});
