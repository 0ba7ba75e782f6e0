/**
 * Named API tokens in the browser, in Portuguese: an admin makes one on the Settings page, sees
 * it once with the warning and copies it, the integration uses it, the list shows its last use,
 * and revoking it (after a confirmation) ends it at once.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, pageErrors, screenshot, openSignedIn } from './browser';
import { startServer, type RunningServer } from './server';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The tool API's list of connections, which needs the 'campaigns' permission. */
const connectionsWith = (token: string) => fetch(`${server.baseUrl}/api/whatsappzdg`, { headers: { authorization: `Bearer ${token}` } });

describe('API tokens', () => {
  it('are made with a name and permissions, shown once, used, and revoked after a confirmation', async () => {
    const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR' });
    const page = await context.newPage();
    await openSignedIn(page, '/settings');
    const panel = page.getByTestId('api-tokens-panel');
    await panel.getByText('Nenhum token criado ainda.').waitFor();

    await page.getByTestId('api-token-add').click();
    const dialog = page.getByTestId('api-token-dialog');
    // Nothing ticked: the form says what is missing and sends nothing.
    await page.getByTestId('api-token-submit').click();
    await dialog.getByText('Marque pelo menos uma opção.').waitFor();
    await dialog.getByText('Obrigatório').waitFor();
    await page.getByTestId('api-token-name').fill('Loja virtual');
    await dialog.getByLabel('Envios em massa e agendados').check();
    await dialog.getByLabel('Ferramentas de grupos').check();
    // Fixed fields lose their error at once.
    await dialog.getByText('Obrigatório').waitFor({ state: 'detached' });
    await dialog.getByText('Marque pelo menos uma opção.').waitFor({ state: 'detached' });
    await page.getByTestId('api-token-expires').fill('2031-12-31');
    await screenshot(page, 'api-tokens-01-create');
    await page.getByTestId('api-token-submit').click();

    const created = page.getByTestId('api-token-created');
    await created.getByText('Copie agora: este token não será mostrado de novo.').waitFor();
    const token = await page.getByTestId('api-token-value').inputValue();
    expect(token).toMatch(/^zdk_/);
    await screenshot(page, 'api-tokens-02-shown-once');
    await page.getByTestId('api-token-copy').click();
    await page.getByText('Copiado').first().waitFor();
    await page.getByTestId('api-token-done').click();
    await created.waitFor({ state: 'detached' });

    // The list shows the token's start, never the token.
    const row = panel.getByTestId('api-token-row').filter({ hasText: 'Loja virtual' });
    await row.getByText('Ativo').waitFor();
    await row.getByText('Nunca usado').waitFor();
    expect(await panel.textContent()).not.toContain(token);
    await expect.poll(async () => (await row.textContent()) ?? '').toContain(token.slice(0, 10));

    expect((await connectionsWith(token)).status).toBe(200);
    await page.reload();
    await row.getByText('Nunca usado').waitFor({ state: 'detached' });
    await row.getByText('31/12/2031').waitFor();
    await panel.scrollIntoViewIfNeeded();
    await screenshot(page, 'api-tokens-03-list');

    await row.getByTestId('api-token-revoke').click();
    await page.getByTestId('confirmation-dialog').getByText('Revogar o token "Loja virtual"?').waitFor();
    await screenshot(page, 'api-tokens-04-revoke');
    await page.getByTestId('confirmation-confirm').click();
    await page.getByText('Token "Loja virtual" revogado.').waitFor();
    await row.getByText('Revogado').waitFor();
    expect(await row.getByTestId('api-token-revoke').count()).toBe(0);
    expect((await connectionsWith(token)).status).toBe(401);
    await page.getByText('Token "Loja virtual" revogado.').waitFor({ state: 'detached', timeout: 20_000 });
    await screenshot(page, 'api-tokens-05-revoked');
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
