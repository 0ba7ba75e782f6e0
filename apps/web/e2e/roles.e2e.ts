/**
 * Roles in the browser against the real server: an admin makes a role without bulk sends in
 * 'Papéis e permissões', gives it to an agent in the user form; the agent's menu has no bulk or
 * scheduling entry, the bulk page says plainly that they may not use it, and the API refuses.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, pageErrors, pickOption, openSignedIn } from './browser';
import { REPO_ROOT, startServer, type RunningServer } from './server';
import { apiAs, idOf, signIn, type Api } from './simulator';

let server: RunningServer;
let browser: Browser;
let api: Api;

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
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('roles', () => {
  it('an admin makes a role without bulk sends and gives it to an agent: the menu loses those entries, the page and the API refuse', async () => {
    const agent = { email: 'ana@e2e.test', password: 'ana-secret-1' };
    const created = await api('/users', { method: 'POST', body: { name: 'Ana Souza', ...agent, profile: 'user' } });
    expect(created.status).toBe(201);
    const agentId = await idOf(created);

    const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR' });
    const page = await context.newPage();
    await openSignedIn(page);
    await page.getByTestId('menu-roles').click();
    await page.getByTestId('roles-page').waitFor();
    await expect.poll(() => page.getByTestId('role-row').count()).toBe(1);
    await page.getByTestId('add-role').click();
    await page.getByTestId('role-name').fill('Atendimento sem disparos');
    // Everything a plain user may do today, except bulk and scheduled sends.
    for (const permission of ['groups', 'email', 'phone', 'instagram', 'history', 'contactsImportExport', 'connectionsView']) await page.getByTestId(`perm-${permission}`).click();
    await docShot(page, 'roles-editor');
    await page.getByTestId('role-submit').click();
    await page.getByTestId('role-modal').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('role-row').count()).toBe(2);
    await docShot(page, 'roles-page');

    await page.goto('/users');
    await page.getByTestId('users-page').waitFor();
    await page.getByTestId('user-row').filter({ hasText: 'Ana Souza' }).getByTestId('user-edit').click();
    await pickOption(page, 'user-role', 'Atendimento sem disparos');
    await page.getByTestId('user-submit').click();
    await page.getByTestId('user-modal').waitFor({ state: 'detached' });
    const saved = await (await api(`/users/${agentId}`)).json();
    expect(saved).toMatchObject({ role: { name: 'Atendimento sem disparos' } });
    await context.close();

    const agentContext = await newContext(browser, server.baseUrl, { locale: 'pt-BR' });
    const agentPage = await agentContext.newPage();
    await openSignedIn(agentPage, '/', agent);
    await agentPage.getByTestId('menu-groups').waitFor();
    for (const entry of ['bulkText', 'bulkMediaUrl', 'bulkMediaPath', 'bulkAudio', 'scheduled', 'history', 'users', 'roles', 'settings']) {
      expect(await agentPage.getByTestId(`menu-${entry}`).count(), entry).toBe(0);
    }
    await docShot(agentPage, 'roles-agent-menu');

    await agentPage.goto('/ZDGMedia');
    await agentPage.getByTestId('no-permission').waitFor();
    await expect.poll(() => agentPage.getByTestId('no-permission').innerText()).toContain('Você não tem permissão para acessar esta página');
    await docShot(agentPage, 'roles-forbidden-page');

    const agentToken = (await signIn(server.baseUrl, agent)).token;
    const refused = await apiAs(server.baseUrl, () => agentToken)('/campaigns', {
      method: 'POST',
      body: { kind: 'text', whatsappId: 1, numbers: '5511999990000', message: 'Oi', minDelay: 0, maxDelay: 0 },
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    await agentContext.close();
    expect(pageErrors).toEqual([]);
  });
});
