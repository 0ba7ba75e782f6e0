/**
 * The audit log in the browser against the real server: a failed sign-in, the admin's sign-in
 * and a queue created on the Queues page show on the Auditoria page, in Portuguese words; the
 * action filter narrows the table; 'Exportar CSV' downloads those rows as zdg.csv. Then a role
 * without bulk sends given to an agent, and the agent's two-step set-up and sign-in with a code
 * (computed by otpauth), are listed there too.
 */
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { launchBrowser, newContext, pageErrors, pickOption, screenshot, openSignedIn } from './browser';
import { ADMIN, startServer, type RunningServer } from './server';
import { apiAs, idOf, signIn } from './simulator';

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

describe('audit log', () => {
  it('lists what was done, by whom and from where; filters by action; exports CSV', async () => {
    const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR' });
    const page = await context.newPage();

    // A wrong password first: the failed sign-in is recorded with the e-mail tried.
    await page.goto('/login');
    await page.getByTestId('login-email').fill(ADMIN.email);
    await page.getByTestId('login-password').fill('not-the-password');
    await page.getByTestId('login-submit').click();
    await page.getByText('Erro de autenticação. Por favor, tente novamente.').first().waitFor();
    await openSignedIn(page);

    // The admin changes something: a new queue.
    await page.goto('/queues');
    await page.getByTestId('add-queue').click();
    await page.getByTestId('queue-name').fill('Financeiro');
    await page.getByTestId('queue-submit').click();
    await page.getByTestId('queue-row').filter({ hasText: 'Financeiro' }).waitFor();

    // The Administration menu leads to the audit page.
    await page.getByRole('link', { name: 'Auditoria' }).click();
    await page.getByTestId('audit-page').waitFor();
    const rows = page.getByTestId('audit-row');
    const created = rows.filter({ hasText: 'Criou uma fila' });
    await created.waitFor();
    await expect.poll(() => created.textContent()).toContain('Fila: Financeiro');
    expect(await created.textContent()).toContain('Concluído');
    expect(await created.textContent()).toContain('127.0.0.1');
    const failed = rows.filter({ hasText: 'Tentativa de entrada falhou' });
    expect(await failed.textContent()).toContain(`Tentou como ${ADMIN.email}`);
    expect(await failed.textContent()).toContain('Negado (401)');
    expect(await rows.filter({ hasText: 'Entrou no sistema' }).count()).toBeGreaterThan(0);
    await screenshot(page, 'audit-01-list');

    // Only the queue creations.
    await pickOption(page, 'audit-action', 'Criou uma fila');
    await expect.poll(async () => (await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-action')))).join(',')).toBe('queues.create');
    await screenshot(page, 'audit-02-filtered');

    // The same rows as zdg.csv.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-export').click()]);
    expect(download.suggestedFilename()).toBe('zdg.csv');
    const csv = readFileSync((await download.path()) ?? '', 'utf8');
    // In the reader's language: the column titles, the action in words, the date as dd/mm/yyyy.
    expect(csv.startsWith('\uFEFF"Quando";"Quem (tipo)";')).toBe(true);
    const lines = csv.trim().split('\r\n').slice(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"Criou uma fila"');
    expect(lines[0]).toMatch(/^"\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}";"Usuário";/);
    expect(lines[0]).toContain('"Financeiro"');
    await page.getByText('Registro de auditoria exportado.').waitFor();

    // Taking the log away is itself recorded.
    await pickOption(page, 'audit-action', 'Exportou o registro de auditoria');
    await rows.filter({ hasText: 'Exportou o registro de auditoria' }).waitFor();

    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('lists a role made and given to an agent, and the agent turning on two-step verification and signing in with a code', async () => {
    const { token } = await signIn(server.baseUrl);
    const api = apiAs(server.baseUrl, () => token);
    const role = await api('/roles', { method: 'POST', body: { name: 'Sem envios', permissions: ['groups', 'connectionsView'] } });
    expect(role.status).toBe(201);
    const agent = { name: 'Bruna Lima', email: 'bruna@e2e.test', password: 'bruna-senha-forte' };
    const made = await api('/users', { method: 'POST', body: { ...agent, profile: 'user' } });
    expect(made.status).toBe(201);
    const agentId = await idOf(made);
    expect((await api(`/users/${agentId}`, { method: 'PUT', body: { name: agent.name, email: agent.email, roleId: await idOf(role) } })).status).toBe(200);

    // The agent turns on two-step verification, then signs in with a code of the app.
    const session = await signIn(server.baseUrl, agent);
    const asAgent = apiAs(server.baseUrl, () => session.token);
    const { secret } = (await (await asAgent('/auth/2fa/setup', { method: 'POST' })).json()) as { secret: string };
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    expect((await asAgent('/auth/2fa/enable', { method: 'POST', body: { code: totp.generate() } })).status).toBe(200);
    const password = await fetch(`${server.baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(agent) });
    const { challenge } = (await password.json()) as { challenge: string };
    // The next step's code: the one that turned it on may not be used twice.
    const code = totp.generate({ timestamp: Date.now() + 30_000 });
    const second = await fetch(`${server.baseUrl}/api/auth/login/2fa`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ challenge, code }) });
    expect(second.status).toBe(200);

    const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR' });
    const page = await context.newPage();
    await openSignedIn(page, '/audit');
    await page.getByTestId('audit-page').waitFor();
    const rows = page.getByTestId('audit-row');
    await expect.poll(() => rows.filter({ hasText: 'Criou um papel' }).textContent()).toContain('Papel: Sem envios');
    const given = await rows.filter({ hasText: 'Editou um usuário' }).first().textContent();
    expect(given).toContain('Bruna Lima');
    expect(given).toContain('papel: Sem envios');
    expect(await rows.filter({ hasText: 'Ativou a verificação em duas etapas' }).textContent()).toContain('Bruna Lima');
    expect(await rows.filter({ hasText: 'Entrou no sistema' }).filter({ hasText: 'Bruna Lima' }).count()).toBe(2);
    // The password step alone is no sign-in: the code was still owed.
    expect(await rows.filter({ hasText: 'Senha aceita; falta o código da verificação em duas etapas' }).textContent()).toContain(agent.email);
    await screenshot(page, 'audit-03-roles-and-2fa');
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
