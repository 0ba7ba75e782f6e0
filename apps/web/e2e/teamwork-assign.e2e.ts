/**
 * Auto-assignment in Portuguese against the real server and the simulated phone: an admin turns
 * it on in the queue dialog with a limit; two agents of the queue are online (one on a desktop,
 * one on a phone); new customers' tickets arrive in their 'Atendendo' live, in turn, without
 * anyone accepting them.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, pageErrors, openSignedIn } from './browser';
import { REPO_ROOT, startServer, type RunningServer } from './server';
import { apiAs, idOf, scanWhenReady, signIn, type Api } from './simulator';

let server: RunningServer;
let browser: Browser;
let api: Api;
let queueId = 0;
let connectionId = 0;

const ANA = { name: 'Ana Souza', email: 'ana@e2e.test', password: 'ana-secret-1' };
const BRUNO = { name: 'Bruno Lima', email: 'bruno@e2e.test', password: 'bruno-secret-1' };

/** The product's documentation pictures, looked at by whoever changes these screens. */
async function docShot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(350);
  await page.screenshot({ path: path.join(REPO_ROOT, 'docs/screenshots', `${name}.png`) });
}

beforeAll(async () => {
  server = await startServer({ simulator: true });
  browser = await launchBrowser();
  const { token } = await signIn(server.baseUrl);
  api = apiAs(server.baseUrl, () => token);
  const queue = await api('/queue', { method: 'POST', body: { name: 'Suporte', color: '#2E7D32', greetingMessage: '' } });
  expect(queue.status).toBe(201);
  queueId = await idOf(queue);
  const connection = await api('/whatsapp', { method: 'POST', body: { name: 'Loja Centro', channel: 'simulator', queueIds: [queueId] } });
  expect(connection.status).toBe(201);
  connectionId = await idOf(connection);
  await scanWhenReady(api, connectionId);
  for (const agent of [ANA, BRUNO]) expect((await api('/users', { method: 'POST', body: { ...agent, profile: 'user', queueIds: [queueId] } })).status).toBe(201);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function customerWrites(from: string, name: string): Promise<void> {
  const sent = await api(`/simulator/${connectionId}/inbound`, { method: 'POST', body: { from, name, body: 'Olá, meu pedido não chegou' } });
  expect(sent.status).toBe(200);
}

/** The agent signs in and leaves 'Atendendo' open (online, listening). */
async function agentOnline(credentials: { email: string; password: string }, mobile: boolean): Promise<Page> {
  const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR', mobile });
  const page = await context.newPage();
  if (!mobile) await page.setViewportSize({ width: 1440, height: 900 });
  await openSignedIn(page, '/tickets', credentials);
  await page.getByTestId('tickets-page').waitFor();
  await page.getByTestId('tab-open').click();
  await page.getByTestId('tickets-list-open').getByTestId('tickets-empty').waitFor();
  return page;
}

describe('auto-assignment', () => {
  it('an admin turns it on in the queue dialog with a limit, and sees it saved', async () => {
    const openDialog = async (mobile: boolean) => {
      const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR', mobile });
      const page = await context.newPage();
      if (!mobile) await page.setViewportSize({ width: 1440, height: 900 });
      await openSignedIn(page, '/queues');
      await page.getByTestId('queues-page').waitFor();
      await page.getByTestId('queue-row').filter({ hasText: 'Suporte' }).getByTestId('queue-edit').click();
      const dialog = page.getByTestId('queue-modal');
      const part = dialog.getByTestId('queue-assignment');
      await expect.poll(() => part.innerText()).toContain('Distribuição automática');
      return { page, dialog, part, toggle: part.getByLabel('Distribuir novos atendimentos automaticamente', { exact: true }).first(), limit: part.getByTestId('queue-assignment-limit') };
    };

    const desktop = await openDialog(false);
    // Off until an admin turns it on; the limit waits for the switch.
    expect(await desktop.toggle.isChecked()).toBe(false);
    expect(await desktop.limit.isDisabled()).toBe(true);
    await desktop.toggle.check();
    await desktop.limit.fill('0');
    await desktop.dialog.getByTestId('queue-submit').click();
    // A limit below one is refused in the dialog, in Portuguese, and nothing is saved.
    await expect.poll(() => desktop.part.innerText()).toContain('Use um número inteiro de 1 a 100.');
    expect(await (await api(`/queue/${queueId}/assignment`)).json()).toMatchObject({ enabled: false });
    await desktop.limit.fill('2');
    await expect.poll(() => desktop.part.innerText()).toContain('Conta os atendimentos abertos desta fila de cada atendente.');
    await docShot(desktop.page, 'assign-queue-dialog-desktop');
    await desktop.dialog.getByTestId('queue-submit').click();
    await desktop.page.getByText('Distribuição automática ativada').waitFor();
    await desktop.dialog.waitFor({ state: 'detached' });
    expect(await (await api(`/queue/${queueId}/assignment`)).json()).toEqual({ queueId, enabled: true, maxPerAgent: 2 });
    await desktop.page.context().close();

    // Opened again, on a phone: the dialog shows what was saved.
    const phone = await openDialog(true);
    await expect.poll(() => phone.toggle.isChecked()).toBe(true);
    expect(await phone.limit.inputValue()).toBe('2');
    await phone.part.scrollIntoViewIfNeeded();
    await docShot(phone.page, 'assign-queue-dialog-mobile');
    await phone.page.context().close();
  });

  it('hands each new customer to the next online agent, who sees it in Atendendo without accepting', async () => {
    const ana = await agentOnline(ANA, false);
    const bruno = await agentOnline(BRUNO, true);

    await customerWrites('5511988880001', 'Carla Cliente');
    await customerWrites('5511988880002', 'Davi Cliente');
    const anaRow = ana.getByTestId('tickets-list-open').getByTestId('ticket-row').filter({ hasText: 'Carla Cliente' });
    const brunoRow = bruno.getByTestId('tickets-list-open').getByTestId('ticket-row').filter({ hasText: 'Davi Cliente' });
    await anaRow.waitFor();
    await brunoRow.waitFor();
    // Each got exactly their own: the turn went Ana, then Bruno.
    expect(await ana.getByTestId('tickets-list-open').getByTestId('ticket-row').count()).toBe(1);
    expect(await bruno.getByTestId('tickets-list-open').getByTestId('ticket-row').count()).toBe(1);
    await expect.poll(() => anaRow.innerText()).toContain('Olá, meu pedido não chegou');
    await docShot(ana, 'assign-agent-desktop');
    await docShot(bruno, 'assign-agent-mobile');
    await ana.context().close();
    await bruno.context().close();
    expect(pageErrors).toEqual([]);
  });
});
