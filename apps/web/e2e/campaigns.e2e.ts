/**
 * Bulk sends in the browser against the real server and a simulated phone: a bulk text to 20
 * numbers followed live to 100%, the history and its CSV, a bad form that sends nothing, a voice
 * note recorded on the page (Chromium's fake microphone), a campaign scheduled for the next whole
 * minute that starts by itself, and each page at desktop and phone sizes.
 */
import fs from 'node:fs';
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

type Outbox = { to: string; body: string; kind: string; mimetype: string | null }[];

async function outbox(): Promise<Outbox> {
  return (await (await api(`/simulator/${phone}/outbox`)).json()) as Outbox;
}

async function campaignCount(): Promise<number> {
  return ((await (await api('/campaigns')).json()) as { count: number }).count;
}

function numbersFrom(start: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `4477009${String(start + i).padStart(5, '0')}`);
}

async function fillForm(page: Page, options: { numbers: string[]; message?: string; min: string; max: string }): Promise<void> {
  await page.getByTestId('campaign-numbers').fill(options.numbers.join('\n'));
  if (options.message !== undefined) await page.getByTestId('campaign-message').fill(options.message);
  await page.getByTestId('campaign-min').fill(options.min);
  await page.getByTestId('campaign-max').fill(options.max);
}

function progress(page: Page) {
  return page.getByTestId('campaign-progress').first();
}

beforeAll(async () => {
  server = await startServer({ simulator: true });
  browser = await launchBrowser({ fakeMedia: true });
  token = (await signIn(server.baseUrl)).token;
  api = apiAs(server.baseUrl, () => token);
  const created = await api('/whatsapp', { method: 'POST', body: { name: 'Bulk phone', channel: 'simulator', isDefault: true } });
  expect(created.status).toBe(201);
  phone = await idOf(created);
  await scanWhenReady(api, phone);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('bulk sends', () => {
  it('refuses a form without numbers or with a maximum below the minimum, and sends nothing', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page);
    await page.getByTestId('menu-bulkText').click();
    await page.getByTestId('bulk-page-text').waitFor();
    const before = await campaignCount();
    await page.getByTestId('campaign-message').fill('Oi');
    await page.getByTestId('campaign-submit').click();
    await page.getByText('Required').first().waitFor();
    await fillForm(page, { numbers: ['447700900001'], min: '5', max: '2' });
    await page.getByTestId('campaign-submit').click();
    await page.getByText('Must not be less than the minimum').waitFor();
    await screenshot(page, 'campaigns-01-form-errors');
    expect(await campaignCount()).toBe(before);
    await context.close();
  });

  it('sends a bulk text to 20 numbers at 0–1 s, the bar reaches 100% live; the history opens it and exports zdg.csv', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await openSignedIn(page);
    await page.getByTestId('menu-bulkText').click();
    const numbers = numbersFrom(100, 20);
    const message = `Promoção de hoje ${Date.now()}`;
    await fillForm(page, { numbers, message, min: '0', max: '1' });
    await expect.poll(() => page.getByTestId('campaign-numbers-count').textContent()).toContain('20 numbers');
    await page.getByTestId('campaign-submit').click();
    await progress(page).waitFor();

    // Follow the bar as the socket moves it: some step between the start and the end is seen.
    const seen = new Set<number>();
    const deadline = Date.now() + 60_000;
    for (;;) {
      const done = Number(await progress(page).getAttribute('data-done'));
      seen.add(done);
      if (done === 20 || Date.now() > deadline) break;
      await page.waitForTimeout(100);
    }
    expect([...seen].some((n) => n > 0 && n < 20)).toBe(true);
    await expect.poll(() => progress(page).getAttribute('data-status')).toBe('completed');
    expect(await page.getByTestId('campaign-bar').getAttribute('aria-valuenow')).toBe('100');
    await expect.poll(() => page.getByTestId('campaign-count-sent').textContent()).toContain('20');
    await screenshot(page, 'campaigns-02-bulk-text-done-1440');
    const got = (await outbox()).filter((m) => m.body === message).map((m) => m.to);
    expect(got.sort()).toEqual([...numbers].sort());

    await page.getByTestId('menu-history').click();
    await page.getByTestId('history-page').waitFor();
    const row = page.getByTestId('history-row').first();
    await row.waitFor();
    await screenshot(page, 'campaigns-03-history-1440');
    await row.click();
    await expect.poll(() => page.getByTestId('campaign-recipient').count()).toBe(20);
    await screenshot(page, 'campaigns-04-history-detail-1440');
    await page.keyboard.press('Escape');

    const downloading = page.waitForEvent('download');
    await page.getByTestId('history-export').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('zdg.csv');
    const file = await download.path();
    const csv = fs.readFileSync(file, 'utf8');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.slice(1).trim().split('\r\n');
    expect(lines[0]).toContain(';');
    expect(lines.filter((line) => numbers.some((n) => line.includes(`"${n}"`)) && line.includes('"Sent"'))).toHaveLength(20);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('records a voice note on the page and sends it as a voice note', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page);
    await page.getByTestId('menu-bulkAudio').click();
    await page.getByTestId('bulk-page-voice').waitFor();
    await page.getByTestId('audio-record').click();
    await page.getByTestId('audio-recorder').waitFor();
    await expect.poll(() => page.getByTestId('audio-timer').textContent(), { timeout: 6000 }).toBe('00:02');
    await page.getByTestId('audio-send').click();
    await expect.poll(() => page.getByTestId('campaign-media-path').inputValue()).toMatch(/^recordings\/.+\.ogg$/);
    const [number] = numbersFrom(300, 1);
    await fillForm(page, { numbers: [number ?? ''], min: '0', max: '0' });
    await page.getByTestId('campaign-submit').click();
    await expect.poll(() => progress(page).getAttribute('data-status'), { timeout: 20_000 }).toBe('completed');
    await screenshot(page, 'campaigns-05-voice-done');
    const note = (await outbox()).find((m) => m.to === number);
    expect(note).toMatchObject({ kind: 'voice', mimetype: 'audio/ogg; codecs=opus' });
    await context.close();
  });

  it('starts by itself a campaign scheduled for the next whole minute', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await openSignedIn(page);
    await page.getByTestId('menu-bulkText').click();
    const numbers = numbersFrom(400, 2);
    const message = `Agendada ${Date.now()}`;
    await fillForm(page, { numbers, message, min: '0', max: '0' });
    await page.getByTestId('campaign-schedule-toggle').click();
    // The form takes whole minutes: the first one at least 25 s ahead leaves the checks below
    // time to see it scheduled, and the wait is 25–85 s instead of two minutes.
    const at = new Date(Math.ceil((Date.now() + 25_000) / 60_000) * 60_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    await page.getByTestId('campaign-start-at').fill(`${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`);
    await page.getByTestId('campaign-submit').click();
    await expect.poll(() => progress(page).getAttribute('data-status')).toBe('scheduled');
    expect((await outbox()).filter((m) => m.body === message)).toHaveLength(0);

    await page.getByTestId('menu-scheduled').click();
    await page.getByTestId('scheduled-page').waitFor();
    await page.getByTestId('scheduled-row').first().waitFor();
    await screenshot(page, 'campaigns-06-scheduled');
    await page.getByTestId('menu-bulkText').click();
    await page.getByTestId('bulk-page-text').waitFor();
    // Nobody touches it: it starts at its time and the phone gets it.
    await expect.poll(async () => (await outbox()).filter((m) => m.body === message).length, { timeout: 170_000, interval: 2_000 }).toBe(2);
    const campaigns = (await (await api('/campaigns?scheduled=true')).json()) as { campaigns: { message: string; status: string; startedAt: string }[] };
    const ran = campaigns.campaigns.find((c) => c.message === message);
    expect(ran?.status).toBe('completed');
    expect(Date.parse(ran?.startedAt ?? '')).toBeGreaterThanOrEqual(at.getTime() - 60_000);
    await context.close();
  }, 200_000);

  it('looks right on a desktop and on a phone', async () => {
    const pages = [
      ['/ZDG', 'bulk-page-text', 'text'],
      ['/ZDGMedia', 'bulk-page-mediaUrl', 'media-url'],
      ['/ZDGMedia2', 'bulk-page-mediaPath', 'media-path'],
      ['/ZDGMedia3', 'bulk-page-voice', 'voice'],
      ['/ZDGAgendamento', 'scheduled-page', 'scheduled'],
      ['/ZDGHistorico', 'history-page', 'history'],
    ] as const;
    for (const mobile of [false, true]) {
      const context = await newContext(browser, server.baseUrl, { mobile });
      const page = await context.newPage();
      if (!mobile) await page.setViewportSize({ width: 1440, height: 900 });
      await openSignedIn(page);
      for (const [path, testId, name] of pages) {
        await page.goto(path);
        await page.getByTestId(testId).waitFor();
        await screenshot(page, `campaigns-10-${name}-${mobile ? '390' : '1440'}`);
      }
      await context.close();
    }
    expect(pageErrors).toEqual([]);
  });
});
