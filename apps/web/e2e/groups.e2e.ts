/**
 * Group tools in the browser against the real server and a simulated phone: the six tabs of
 * /ZDGGroups, each action followed live until done, the phone's groups changed as asked, and the
 * spec's alert when the fields do not match an action; in Portuguese and English.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, pageErrors, screenshot, openSignedIn } from './browser';
import { startServer, type RunningServer } from './server';
import { apiAs, idOf, scanWhenReady, signIn, type Api } from './simulator';

let server: RunningServer;
let browser: Browser;
let token = '';
let api: Api;
let phone = 0;

type SimGroup = { id: string; subject: string; description: string; announce: boolean; participants: { number: string; admin: boolean }[] };

async function simGroups(): Promise<{ ownNumber: string; groups: SimGroup[] }> {
  return (await (await api(`/simulator/${phone}/groups`)).json()) as { ownNumber: string; groups: SimGroup[] };
}

async function simGroup(id: string): Promise<SimGroup | undefined> {
  return (await simGroups()).groups.find((g) => g.id === id);
}

async function addGroup(body: Record<string, unknown>): Promise<SimGroup> {
  const res = await api(`/simulator/${phone}/groups`, { method: 'POST', body });
  expect(res.status).toBe(201);
  return (await res.json()) as SimGroup;
}

async function outbox(): Promise<{ to: string; body: string }[]> {
  return (await (await api(`/simulator/${phone}/outbox`)).json()) as { to: string; body: string }[];
}

/** Server work paced 0–1 s per group: give it time. */
const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000 });

/** Exactly these groups selected (the selection is kept from tab to tab). */
async function select(page: Page, ids: string[]): Promise<void> {
  const rows = page.getByTestId('group-row');
  for (let i = 0; i < (await rows.count()); i += 1) {
    const row = rows.nth(i);
    const wanted = ids.includes((await row.getAttribute('data-group-id')) ?? '');
    if ((await row.getByRole('checkbox').isChecked()) !== wanted) await row.click();
  }
}

/** The newest progress panel, once its action is over. */
async function waitDone(page: Page): Promise<void> {
  await eventually(() => page.getByTestId('campaign-progress').first().getAttribute('data-status')).toBe('completed');
}

async function openTab(page: Page, tab: string): Promise<void> {
  await page.getByTestId(`group-tab-${tab}`).click();
}

let sales: SimGroup;
let support: SimGroup;
let partner: SimGroup;
const [ana, bruno, carla] = ['447700960001', '447700960002', '447700960003'];

beforeAll(async () => {
  server = await startServer({ simulator: true, env: { GROUP_PACE_SECONDS: '0-1' } });
  browser = await launchBrowser();
  token = (await signIn(server.baseUrl)).token;
  api = apiAs(server.baseUrl, () => token);
  const created = await api('/whatsapp', { method: 'POST', body: { name: 'Groups phone', channel: 'simulator', isDefault: true } });
  expect(created.status).toBe(201);
  phone = await idOf(created);
  await scanWhenReady(api, phone);
  sales = await addGroup({ subject: 'Vendas Centro', description: 'Equipe de vendas', participants: [{ number: ana }, { number: bruno }] });
  support = await addGroup({ subject: 'Suporte Técnico', participants: [{ number: bruno }, { number: carla }] });
  partner = await addGroup({ subject: 'Parceiros', announce: true, phoneIsAdmin: false, participants: [{ number: carla, admin: true }] });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('group tools', () => {
  it('goes through the six tabs in Portuguese: rename, create, close, open, message in groups, private message', async () => {
    const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR' });
    const page = await context.newPage();
    await openSignedIn(page);
    await page.getByTestId('menu-groups').click();
    await page.getByTestId('groups-page').waitFor();
    await expect(page.getByTestId('page-title').textContent()).resolves.toBe('Grupos');
    await expect.poll(() => page.getByTestId('group-row').count(), { timeout: 15_000 }).toBe(3);
    await expect(page.locator(`[data-testid="group-row"][data-group-id="${partner.id}"]`).textContent()).resolves.toContain('Fechado');
    await screenshot(page, 'groups-01-list-pt');

    // Update groups: the spec's alert when both fields are filled; then a rename.
    await select(page, [sales.id, support.id]);
    await page.getByTestId('group-subject').fill('Novo nome');
    await page.getByTestId('group-description').fill('E também uma descrição');
    await page.getByTestId('group-submit').click();
    await expect.poll(() => page.getByTestId('group-fields-alert').textContent()).toBe('Preencha os campos corretamente, nenhuma ação foi executada.');
    await page.getByTestId('group-description').fill('');
    await page.getByTestId('group-subject').fill('Vendas Centro 2026');
    await page.getByTestId('group-search').fill('suporte');
    await expect.poll(() => page.getByTestId('group-row').count(), { timeout: 15_000 }).toBe(1);
    await page.getByTestId('group-search').fill('');
    await select(page, [sales.id]);
    await page.getByTestId('group-submit').click();
    await waitDone(page);
    await eventually(async () => (await simGroup(sales.id))?.subject).toBe('Vendas Centro 2026');
    expect((await simGroup(support.id))?.subject).toBe('Suporte Técnico');
    await screenshot(page, 'groups-02-renamed-pt');

    // Create group: one member not on WhatsApp is named in the result.
    await openTab(page, 'create');
    await page.getByTestId('group-title').fill('Turma de Março');
    await page.getByTestId('campaign-numbers').fill(`${ana}\n${carla}\n+999 9998-887`);
    await page.getByTestId('group-create-submit').click();
    await page.getByTestId('group-create-result').waitFor();
    await expect(page.getByTestId('group-create-failed-row').textContent()).resolves.toContain('+999 9998-887');
    await eventually(async () => (await simGroups()).groups.some((g) => g.subject === 'Turma de Março')).toBe(true);
    await screenshot(page, 'groups-03-created-pt');

    // Close groups: FECHAR typed; the group where the phone is not admin is reported.
    await openTab(page, 'close');
    await expect.poll(() => page.getByTestId('group-row').count(), { timeout: 15_000 }).toBe(4);
    await select(page, [support.id, partner.id]);
    await page.getByTestId('group-confirm').fill('fechar');
    await page.getByTestId('group-submit').click();
    await expect.poll(() => page.getByTestId('group-fields-alert').textContent()).toBe('Preencha os campos corretamente, nenhuma ação foi executada.');
    await page.getByTestId('group-confirm').fill('FECHAR');
    await page.getByTestId('group-submit').click();
    await waitDone(page);
    await page.locator('[data-testid="campaign-recipient"][data-status="notAdmin"]').first().waitFor();
    await eventually(async () => (await simGroup(support.id))?.announce).toBe(true);
    await screenshot(page, 'groups-04-closed-pt');

    // Open groups: ABRIR typed.
    await openTab(page, 'open');
    await select(page, [support.id]);
    await page.getByTestId('group-confirm').fill('ABRIR');
    await page.getByTestId('group-submit').click();
    await eventually(async () => (await simGroup(support.id))?.announce).toBe(false);

    // Message in groups.
    await openTab(page, 'message');
    await select(page, [sales.id, support.id]);
    const inGroups = `Reunião amanhã às 9h ${Date.now()}`;
    await page.getByTestId('group-message').fill(inGroups);
    await page.getByTestId('group-submit').click();
    await eventually(async () =>
      (await outbox())
        .filter((m) => m.body === inGroups)
        .map((m) => m.to)
        .sort(),
    ).toEqual([`group:${sales.id}`, `group:${support.id}`].sort());
    await screenshot(page, 'groups-05-message-pt');

    // Private message to all participants: bruno is in both groups and gets it once.
    await openTab(page, 'participants');
    await select(page, [sales.id, support.id]);
    const privately = `Oi! Mensagem privada ${Date.now()}`;
    await page.getByTestId('group-message').fill(privately);
    await page.getByTestId('group-submit').click();
    await eventually(async () =>
      (await outbox())
        .filter((m) => m.body === privately)
        .map((m) => m.to)
        .sort(),
    ).toEqual([ana, bruno, carla]);
    await waitDone(page);
    await screenshot(page, 'groups-06-participants-pt');
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('reads the same in English and fits a phone screen', async () => {
    const context = await newContext(browser, server.baseUrl, { locale: 'en-US' });
    const page = await context.newPage();
    await openSignedIn(page, '/ZDGGroups');
    await page.getByTestId('groups-page').waitFor();
    await expect(page.getByTestId('group-tab-participants').textContent()).resolves.toBe('Private message to all participants');
    await expect.poll(() => page.getByTestId('group-row').count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(4);
    await page.getByTestId('group-select-all').click();
    await screenshot(page, 'groups-07-en');
    await openTab(page, 'close');
    await page.getByTestId('group-submit').click();
    await expect.poll(() => page.getByTestId('group-fields-alert').textContent()).toBe('Fill in the fields correctly, no action was taken.');
    await screenshot(page, 'groups-08-alert-en');
    await context.close();

    const mobile = await newContext(browser, server.baseUrl, { locale: 'en-US', mobile: true });
    const small = await mobile.newPage();
    await openSignedIn(small, '/ZDGGroups');
    await small.getByTestId('group-row').first().waitFor();
    const overflow = await small.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(small, 'groups-09-mobile-en');
    expect(pageErrors).toEqual([]);
    await mobile.close();
  });
});
