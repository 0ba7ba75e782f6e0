/**
 * Business hours in the browser, in Portuguese: an admin sets a queue's hours (today a holiday,
 * so it is closed now whatever the hour) and its out-of-hours message; a customer writes through
 * the simulated phone and the reply arrives there. The editor is photographed on a wide screen
 * and on a phone; the Configurações section turns on the waiting time within opening hours.
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

const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000 });
/** Today's date in São Paulo, as the date field takes it. */
const todayInSaoPaulo = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());

beforeAll(async () => {
  server = await startServer({ simulator: true });
  browser = await launchBrowser();
  token = (await signIn(server.baseUrl)).token;
  api = apiAs(server.baseUrl, () => token);
  const queue = await idOf(await api('/queue', { method: 'POST', body: { name: 'Suporte', color: '#1565C0', greetingMessage: '' } }));
  phone = await idOf(await api('/whatsapp', { method: 'POST', body: { name: 'Loja', channel: 'simulator', isDefault: true, queueIds: [queue] } }));
  await scanWhenReady(api, phone);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function openQueueHours(page: Page): Promise<void> {
  await page.goto('/queues');
  await page.getByTestId('queue-row').filter({ hasText: 'Suporte' }).getByTestId('queue-hours').click();
  await page.getByTestId('hours-dialog').waitFor();
}

describe('business hours', () => {
  it("an admin sets a queue's hours and message; a customer writing while it is closed gets the reply on the phone", async () => {
    const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR' });
    const page = await context.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await openSignedIn(page);
    await openQueueHours(page);
    const dialog = page.getByTestId('hours-dialog');
    // A Portuguese screen starts in São Paulo's time zone with Monday to Friday 08:00–18:00.
    await expect.poll(() => page.getByTestId('hours-timezone').inputValue()).toContain('America/Sao Paulo');
    expect(await page.getByTestId('hours-from-1-0').inputValue()).toBe('08:00');
    await screenshot(page, 'hours-00-editor-top-1440-pt');
    // Saturday mornings too.
    await page.getByTestId('hours-open-6').locator('input').check();
    await page.getByTestId('hours-to-6-0').fill('12:00');
    // Today is a holiday: closed all day.
    // Typed as Brazilians write dates.
    await page.getByTestId('hours-holiday-date').fill(todayInSaoPaulo().split('-').reverse().join('/'));
    await page.getByTestId('hours-holiday-add').click();
    await dialog.getByTestId('hours-holiday').first().waitFor();
    await expect.poll(() => page.getByTestId('hours-now').textContent()).toBe('Fechado agora');
    await page.getByTestId('hours-message').fill('Olá {{name}}! A {{queue}} está fechada agora; respondemos assim que abrirmos.');
    await screenshot(page, 'hours-01-editor-1440-pt');
    await page.getByTestId('hours-save').click();
    await page.getByText('Horário de atendimento salvo').waitFor();
    await page.getByTestId('hours-dialog').waitFor({ state: 'detached' });
    // The row's clock now says the queue has its own hours.
    await expect.poll(() => page.getByTestId('queue-hours').first().getAttribute('aria-label')).toBe('Horário de atendimento · Horário próprio');

    // Saved as typed.
    const saved = (await (await api('/business-hours')).json()) as { queueId: number | null; hours: { timezone: string; week: unknown[][]; holidays: string[] } | null; outOfHoursMessage: string }[];
    const own = saved.find((entry) => entry.queueId !== null);
    expect(own?.hours).toMatchObject({ timezone: 'America/Sao_Paulo', holidays: [todayInSaoPaulo()] });
    expect(own?.hours?.week[6]).toEqual([{ from: '08:00', to: '12:00' }]);

    // A customer writes now: closed, so the message reaches the phone, once.
    await api(`/simulator/${phone}/inbound`, { method: 'POST', body: { from: '5511944445555', name: 'Marta', body: 'Boa noite, vocês estão aí?' } });
    const expected = 'Olá Marta! A Suporte está fechada agora; respondemos assim que abrirmos.';
    await eventually(async () => ((await (await api(`/simulator/${phone}/outbox`)).json()) as { to: string; body: string }[]).filter((m) => m.to === '5511944445555').map((m) => m.body)).toEqual([
      expected,
    ]);
    // In the inbox, the waiting ticket shows the reply that went out.
    const { tickets } = (await (await api('/tickets?status=pending&showAll=true')).json()) as { tickets: { id: number; contact: { number: string } }[] };
    const ticketId = tickets.find((x) => x.contact.number === '5511944445555')?.id ?? 0;
    await page.goto(`/tickets/${ticketId}`);
    await page.getByText(expected).first().waitFor();
    await screenshot(page, 'hours-02-reply-in-chat-1440-pt');

    // Configurações: the default hours and the waiting time counted within opening hours.
    await page.goto('/settings#hours');
    const section = page.getByTestId('settings-group-hours');
    await section.waitFor();
    await section.scrollIntoViewIfNeeded();
    await page.getByTestId('setting-businessHoursInFigures').locator('input').check();
    await page.getByText('Configuração salva').waitFor();
    await eventually(async () => ((await (await api('/settings')).json()) as { key: string; value: string }[]).find((s) => s.key === 'businessHoursInFigures')?.value).toBe('enabled');
    await screenshot(page, 'hours-03-settings-1440-pt');
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('the hours editor fits a phone', async () => {
    const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR', mobile: true });
    const page = await context.newPage();
    await openSignedIn(page);
    await openQueueHours(page);
    // What was saved comes back: the holiday and Saturday's hours.
    await page.getByTestId('hours-dialog').getByTestId('hours-holiday').first().waitFor();
    expect(await page.getByTestId('hours-to-6-0').inputValue()).toBe('12:00');
    await screenshot(page, 'hours-04-editor-390-pt');
    await page.getByTestId('hours-week').scrollIntoViewIfNeeded();
    await page.getByTestId('hours-message').scrollIntoViewIfNeeded();
    await screenshot(page, 'hours-05-editor-message-390-pt');
    // A range that ends before it starts cannot be saved, and says why.
    await page.getByTestId('hours-to-1-0').fill('07:00');
    await page.getByText('O fim vem depois do início (24:00 = meia-noite)').waitFor();
    expect(await page.getByTestId('hours-save').isDisabled()).toBe(true);
    await page.getByTestId('hours-cancel').click();
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
