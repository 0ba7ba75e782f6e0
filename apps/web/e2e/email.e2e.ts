/**
 * E-mail in the browser against the real server and an SMTP server on 127.0.0.1 (smtp-server):
 * the SMTP settings filled in, a test mail, the list of mails, and a conversation exported by
 * e-mail from the chat's panel with zdg.csv attached; the closing notice that follows a resolve.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { Browser } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, pageErrors, screenshot, openSignedIn } from './browser';
import { fillTextSetting } from './settings';
import { startServer, type RunningServer } from './server';
import { apiAs, idOf, scanWhenReady, signIn, type Api } from './simulator';

let server: RunningServer;
let browser: Browser;
let token = '';
let api: Api;
let phone = 0;
let smtp: SMTPServer;
let smtpPort = 0;
const received: { to: string[]; mail: ParsedMail }[] = [];

const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000 });

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  server = await startServer({ simulator: true });
  browser = await launchBrowser();
  token = (await signIn(server.baseUrl)).token;
  api = apiAs(server.baseUrl, () => token);
  phone = await idOf(await api('/whatsapp', { method: 'POST', body: { name: 'Mail phone', channel: 'simulator', isDefault: true } }));
  await scanWhenReady(api, phone);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('e-mail', () => {
  it('takes the SMTP settings, sends a test mail and lists it; exports a conversation with zdg.csv; mails the closing notice', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page, '/settings');
    await page.getByTestId('settings-group-email').waitFor();
    await fillTextSetting(page, api, 'emailHost', '127.0.0.1');
    await fillTextSetting(page, api, 'emailPort', String(smtpPort));
    await page.getByTestId('setting-emailSecurity').getByRole('combobox').click();
    await page.getByRole('option', { name: 'None (not recommended)' }).click();
    await fillTextSetting(page, api, 'emailFrom', 'loja@example.com');
    await fillTextSetting(page, api, 'emailTo', 'equipe@example.com');
    await page.getByTestId('email-test').click();
    await page.getByText('Test e-mail sent to equipe@example.com.').waitFor();
    await eventually(() => received.some((r) => r.mail.subject === 'ZapDesk: e-mail de teste' && r.to.includes('equipe@example.com'))).toBe(true);
    await page.getByTestId('setting-emailLanguage').getByRole('combobox').click();
    await page.getByRole('option', { name: 'English' }).click();
    await screenshot(page, 'email-01-settings');

    // A conversation exported by e-mail from the chat's panel.
    await api(`/simulator/${phone}/inbound`, { method: 'POST', body: { from: '5511955554444', name: 'Rita Relatório', body: 'Preciso do histórico por e-mail' } });
    const { tickets } = (await (await api('/tickets?status=pending&showAll=true')).json()) as { tickets: { id: number; contact: { number: string } }[] };
    const ticketId = tickets.find((t) => t.contact.number === '5511955554444')?.id ?? 0;
    expect(ticketId).toBeGreaterThan(0);
    await page.goto(`/tickets/${ticketId}`);
    await page.getByTestId('ticket-view').getByTestId('ticket-accept').click();
    await page.getByTestId('messages-list').getByText('Preciso do histórico por e-mail').waitFor();
    await page.getByTestId('ticket-panel-toggle').click();
    await page.getByTestId('panel-export-email').click();
    await page.getByTestId('panel-email-to').fill('rita@example.com');
    await screenshot(page, 'email-02-export-form');
    await page.getByTestId('panel-email-send').click();
    await page.getByText('The conversation goes out by e-mail in a moment.').waitFor();
    await eventually(() => received.some((r) => r.to.includes('rita@example.com'))).toBe(true);
    const exported = received.find((r) => r.to.includes('rita@example.com'));
    expect(exported?.mail.subject).toBe(`Conversation #${ticketId} with Rita Relatório`);
    expect(exported?.mail.text).toContain('Preciso do histórico por e-mail');
    expect(exported?.mail.attachments.map((a) => a.filename)).toEqual(['zdg.csv']);
    expect(exported?.mail.attachments[0]?.content.toString('utf8')).toContain('Preciso do histórico por e-mail');

    // Resolving sends the closing notice, in the language chosen for e-mails.
    await page.getByTestId('ticket-resolve').click();
    await eventually(() => received.some((r) => r.mail.subject === `Ticket #${ticketId} closed`)).toBe(true);

    await page.goto('/settings');
    await page.getByTestId('email-list').waitFor();
    await eventually(() => page.getByTestId('email-row').count()).toBeGreaterThanOrEqual(2);
    await page.getByTestId('email-panel').scrollIntoViewIfNeeded();
    await screenshot(page, 'email-03-list');
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
