/**
 * The tool pages as a Brazilian newcomer meets them, in Portuguese, on a desktop (1440×900) and a
 * phone (390×844), against the real server and simulated phones: a file added to the media library
 * from the page and sent (the phone gets it); the history showing what was sent, 'Parar envio'
 * asked again, and closing any dialog changing nothing; a schedule whose connection is picked from
 * a list, started with DISPARAR; the voice note heard before sending; SMS, calls and Instagram
 * saying what to configure and where.
 */
import { deflateSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, pageErrors, screenshot, openSignedIn } from './browser';
import { startServer, type RunningServer } from './server';
import { apiAs, idOf, scanWhenReady, signIn, type Api } from './simulator';

let server: RunningServer;
let browser: Browser;
let token = '';
let api: Api;
let centro = 0;
let praia = 0;
/** Holds the slow sends the history test stops: a connection keeps its pace after a stopped send. */
let shopping = 0;
let n = 0;

type Outbox = { to: string; body: string; kind: string; mimetype: string | null }[];
type Campaign = { id: number; status: string; message: string };

const nextNumber = () => `4477008${String((n += 1)).padStart(5, '0')}`;
const outbox = async (connection: number) => (await (await api(`/simulator/${connection}/outbox`)).json()) as Outbox;
const campaign = async (id: number) => (await (await api(`/campaigns/${id}`)).json()) as Campaign;
const toast = (page: Page, text: string | RegExp) => page.locator('.Toastify__toast', { hasText: text }).first().waitFor();

/** A small PNG banner in three colours (a picture a person would recognise in a preview). */
function banner(): Buffer {
  const width = 240;
  const height = 120;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x += 1) {
      const [r, g, b] = x < 80 ? [0, 151, 57] : x < 160 ? [254, 221, 0] : [0, 39, 118];
      row.set([r, g, b], 1 + x * 3);
    }
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

async function open(mobile: boolean): Promise<Page> {
  const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR', mobile });
  const page = await context.newPage();
  if (!mobile) await page.setViewportSize({ width: 1440, height: 900 });
  await openSignedIn(page);
  return page;
}

const size = (mobile: boolean) => (mobile ? 'phone' : 'desktop');

async function pickConnection(page: Page, scope: Page | ReturnType<Page['getByTestId']>, name: string): Promise<void> {
  await scope.getByRole('combobox', { name: 'Conexão' }).click();
  await page.getByRole('option', { name: new RegExp(`^${name} · `) }).click();
}

beforeAll(async () => {
  server = await startServer({ simulator: true });
  browser = await launchBrowser({ fakeMedia: true });
  token = (await signIn(server.baseUrl)).token;
  api = apiAs(server.baseUrl, () => token);
  centro = await idOf(await api('/whatsapp', { method: 'POST', body: { name: 'Loja Centro', channel: 'simulator', isDefault: true } }));
  praia = await idOf(await api('/whatsapp', { method: 'POST', body: { name: 'Loja Praia', channel: 'simulator' } }));
  shopping = await idOf(await api('/whatsapp', { method: 'POST', body: { name: 'Loja Shopping', channel: 'simulator' } }));
  await scanWhenReady(api, centro);
  await scanWhenReady(api, praia);
  await scanWhenReady(api, shopping);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('tool pages a newcomer understands', () => {
  it('adds a picture to the media library from the page, sends it, and the phone receives it; a wrong type is refused in Portuguese; removing asks first', async () => {
    const page = await open(false);
    await page.goto('/ZDGMedia2');
    await page.getByTestId('bulk-page-mediaPath').waitFor();
    await page.getByTestId('media-library-empty').waitFor();
    await page.getByText('até 16 MB cada').waitFor();
    await page.getByTestId('media-library-input').setInputFiles({ name: 'Promoção de verão.png', mimeType: 'image/png', buffer: banner() });
    await toast(page, 'Arquivo adicionado e escolhido: Promoção de verão.png.');
    const file = page.locator('[data-testid="media-library-file"][data-path="Promoção de verão.png"]');
    await expect.poll(() => file.getAttribute('data-chosen')).toBe('true');
    await expect(file.textContent()).resolves.toContain('Foto · ');
    await expect.poll(() => page.getByTestId('media-library-preview').getAttribute('data-ready')).toBe('true');
    await expect.poll(() => page.locator('[data-testid="media-library-preview"] img').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(240);

    // A web page is not a picture: refused by the server, said in Portuguese, nothing added.
    await page.getByTestId('media-library-input').setInputFiles({ name: 'oferta.html', mimeType: 'text/html', buffer: Buffer.from('<html><body>oi</body></html>') });
    await toast(page, 'Este tipo de arquivo não pode ser adicionado');
    await expect(page.getByTestId('media-library-file').count()).resolves.toBe(1);

    const number = nextNumber();
    await page.getByTestId('campaign-numbers').fill(number);
    await page.getByTestId('campaign-message').fill('Promoção de verão: 20% em tudo');
    await page.getByTestId('campaign-min').fill('0');
    await page.getByTestId('campaign-max').fill('0');
    await screenshot(page, 'first-day-tools-01-media-library-desktop');
    await page.getByTestId('campaign-submit').click();
    await expect.poll(() => page.getByTestId('campaign-progress').first().getAttribute('data-status'), { timeout: 20_000 }).toBe('completed');
    await expect.poll(async () => (await outbox(centro)).find((m) => m.to === number)).toMatchObject({ kind: 'media', mimetype: 'image/png', body: 'Promoção de verão: 20% em tudo' });

    // Removing asks first; keeping it changes nothing.
    await page.getByTestId('media-library-input').setInputFiles({ name: 'rascunho.png', mimeType: 'image/png', buffer: banner() });
    await toast(page, 'rascunho.png');
    const draft = page.locator('[data-testid="media-library-file"][data-path="rascunho.png"]');
    await draft.getByTestId('media-library-remove').click();
    await page.getByText('Excluir este arquivo da biblioteca?').waitFor();
    await screenshot(page, 'first-day-tools-02-media-remove-confirm-desktop');
    await page.getByTestId('confirmation-cancel').click();
    await page.getByTestId('confirmation-dialog').waitFor({ state: 'hidden' });
    await expect(draft.count()).resolves.toBe(1);
    await draft.getByTestId('media-library-remove').click();
    await page.getByTestId('confirmation-confirm').click();
    await toast(page, 'Arquivo excluído da biblioteca.');
    await draft.waitFor({ state: 'detached' });
    const listed = (await (await api('/local-media')).json()) as { files: { path: string }[] };
    expect(listed.files.map((f) => f.path)).toEqual(['Promoção de verão.png']);
    await page.context().close();

    const phone = await open(true);
    await phone.goto('/ZDGMedia2');
    await phone.getByTestId('media-library-file').first().click();
    await expect.poll(() => phone.getByTestId('media-library-preview').getAttribute('data-ready')).toBe('true');
    await phone.getByTestId('media-library').scrollIntoViewIfNeeded();
    await screenshot(phone, 'first-day-tools-03-media-library-phone');
    await phone.context().close();
  });

  for (const mobile of [false, true]) {
    it(`history (${size(mobile)}): shows what was sent; closing the detail changes nothing; 'Parar envio' asks, and 'Continuar enviando' keeps it going`, async () => {
      const numbers = Array.from({ length: 4 }, nextNumber);
      const message = `Cupom da semana ${mobile ? 'celular' : 'mesa'}`;
      const created = await api('/campaigns', { method: 'POST', body: { kind: 'text', whatsappId: shopping, numbers: numbers.join('\n'), message, minDelay: 120, maxDelay: 120 } });
      expect(created.status).toBe(201);
      const id = ((await created.json()) as { campaign: Campaign }).campaign.id;
      await expect.poll(async () => (await campaign(id)).status).toBe('running');

      const page = await open(mobile);
      await page.goto('/ZDGHistorico');
      const row = page.locator(`[data-testid="history-row"][data-id="${id}"]`);
      await row.getByText(message).waitFor();
      if (!mobile) await row.getByText('Texto').first().waitFor();
      await screenshot(page, `first-day-tools-04-history-list-${size(mobile)}`);

      // Closed by its button, by Escape, by a click outside: the send goes on.
      await row.click();
      await page.getByTestId('campaign-content-text').getByText(message).waitFor();
      await screenshot(page, `first-day-tools-05-history-detail-${size(mobile)}`);
      await page.getByTestId('history-detail-close').click();
      await page.getByTestId('history-detail').waitFor({ state: 'hidden' });
      await row.click();
      await page.getByTestId('campaign-content').waitFor();
      await page.keyboard.press('Escape');
      await page.getByTestId('history-detail').waitFor({ state: 'hidden' });
      await row.click();
      await page.getByTestId('campaign-content').waitFor();
      await page.mouse.click(5, 5);
      await page.getByTestId('history-detail').waitFor({ state: 'hidden' });
      expect((await campaign(id)).status).toBe('running');

      // 'Parar envio' is red and asks; keeping it changes nothing.
      await row.click();
      const stop = page.getByTestId('campaign-cancel');
      await expect(stop.textContent()).resolves.toBe('Parar envio');
      // Red, filled: not to be mistaken for closing the window.
      const [red = 0, green = 0, blue = 0] = (await stop.evaluate((b) => getComputedStyle(b).backgroundColor)).match(/\d+/g)?.map(Number) ?? [];
      expect(red).toBeGreaterThan(150);
      expect(Math.max(green, blue)).toBeLessThan(100);
      await stop.click();
      await page.getByText(`Parar o envio #${id}?`).waitFor();
      await page.getByText(/^Os [34] números que ainda não receberam ficam sem a mensagem\./).waitFor();
      await screenshot(page, `first-day-tools-06-history-stop-confirm-${size(mobile)}`);
      await expect(page.getByTestId('confirmation-cancel').textContent()).resolves.toBe('Continuar enviando');
      await page.getByTestId('confirmation-cancel').click();
      await page.getByTestId('confirmation-dialog').waitFor({ state: 'hidden' });
      expect((await campaign(id)).status).toBe('running');
      await stop.click();
      await page.getByTestId('confirmation-confirm').click();
      await toast(page, `Envio #${id} parado.`);
      await expect.poll(() => page.getByTestId('campaign-progress').getAttribute('data-status')).toBe('cancelled');
      expect((await campaign(id)).status).toBe('cancelled');
      await page.getByTestId('history-detail-close').click();
      await expect.poll(() => row.textContent()).toContain('Cancelado');

      // The import of a phone's history: its connection picked from a list.
      await page.getByTestId('history-import-connection').scrollIntoViewIfNeeded();
      await pickConnection(page, page.getByTestId('history-import'), 'Loja Praia');
      await expect(page.getByTestId('history-import-connection').inputValue()).resolves.toBe(String(praia));
      await screenshot(page, `first-day-tools-07-history-import-${size(mobile)}`);
      await page.context().close();
    });
  }

  it('history: a sent picture is previewed in the list line and the detail', async () => {
    const page = await open(false);
    await page.goto('/ZDGHistorico');
    const row = page.locator('[data-testid="history-row"]', { hasText: 'Promoção de verão.png' }).first();
    await row.getByText('Foto · Promoção de verão.png').waitFor();
    await row.click();
    await expect.poll(() => page.getByTestId('campaign-content-media').getAttribute('data-ready')).toBe('true');
    await expect.poll(() => page.locator('[data-testid="campaign-content-media"] img').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(240);
    await screenshot(page, 'first-day-tools-08-history-media-desktop');
    await page.context().close();
  });

  for (const mobile of [false, true]) {
    it(`schedule (${size(mobile)}): the connection picked from a list; the schedule shows its message, recipients, time and state; DISPARAR starts it on that connection`, async () => {
      const page = await open(mobile);
      const numbers = [nextNumber(), nextNumber()];
      const message = `Agenda de amanhã ${size(mobile)}`;
      const tomorrow = new Date(Date.now() + 24 * 60 * 60_000);
      const pad = (v: number) => String(v).padStart(2, '0');
      const day = `${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}`;
      await page.goto('/ZDG');
      await page.getByTestId('bulk-page-text').waitFor();
      await pickConnection(page, page, 'Loja Praia');
      await page.getByTestId('campaign-numbers').fill(numbers.join('\n'));
      await page.getByTestId('campaign-message').fill(message);
      await page.getByTestId('campaign-min').fill('0');
      await page.getByTestId('campaign-max').fill('0');
      await page.getByTestId('campaign-schedule-toggle').click();
      await page.getByTestId('campaign-start-at').fill(`${day}T10:00`);
      await page.getByTestId('campaign-submit').click();
      await expect.poll(() => page.getByTestId('campaign-progress').first().getAttribute('data-status')).toBe('scheduled');

      await page.goto('/ZDGAgendamento');
      await page.getByTestId('scheduled-page').waitFor();
      await page.getByText('DISPARAR começa agora, sem esperar a hora marcada').waitFor();
      await page.getByText('Controle pelo ChatBOT:').waitFor();
      const row = page.locator('[data-testid="scheduled-row"]', { hasText: message });
      await row.getByText('Loja Praia').waitFor();
      await row.getByText(`2 números: ${numbers.join(', ')}`).waitFor();
      await expect(row.getAttribute('data-status')).resolves.toBe('scheduled');
      await expect(row.getByTestId('scheduled-when').inputValue()).resolves.toBe(`${day}T10:00`);
      await expect(row.getByTestId('scheduled-status').textContent()).resolves.toBe('Agendado');
      if (mobile) await row.scrollIntoViewIfNeeded();
      await screenshot(page, `first-day-tools-09-scheduled-${size(mobile)}`);

      // DISPARAR for tomorrow on the connection picked from the list: no id typed anywhere.
      await page.getByTestId('scheduled-day').fill(day);
      await pickConnection(page, page, 'Loja Praia');
      await page.getByTestId('scheduled-fire').click();
      await toast(page, '1 envio iniciado.');
      await expect.poll(async () => (await outbox(praia)).filter((m) => m.body === message).length, { timeout: 30_000 }).toBe(2);
      expect((await outbox(centro)).filter((m) => m.body === message)).toHaveLength(0);
      await expect.poll(() => row.getAttribute('data-status')).not.toBe('scheduled');
      await page.context().close();
    });
  }

  it('schedule: cancelling asks first, and keeping it changes nothing', async () => {
    const created = await api('/campaigns', {
      method: 'POST',
      body: { kind: 'text', whatsappId: praia, numbers: nextNumber(), message: 'Aviso de feriado', minDelay: 0, maxDelay: 0, scheduledAt: new Date(Date.now() + 3 * 24 * 60 * 60_000).toISOString() },
    });
    const id = ((await created.json()) as { campaign: Campaign }).campaign.id;
    const page = await open(false);
    await page.goto('/ZDGAgendamento');
    const row = page.locator(`[data-testid="scheduled-row"][data-id="${id}"]`);
    await row.getByTestId('scheduled-cancel').click();
    await page.getByText(`Cancelar o envio agendado #${id}?`).waitFor();
    await screenshot(page, 'first-day-tools-10-scheduled-cancel-confirm-desktop');
    await page.getByTestId('confirmation-cancel').click();
    await page.getByTestId('confirmation-dialog').waitFor({ state: 'hidden' });
    expect((await campaign(id)).status).toBe('scheduled');
    await row.getByTestId('scheduled-cancel').click();
    await page.getByTestId('confirmation-confirm').click();
    await toast(page, `Envio agendado #${id} cancelado.`);
    expect((await campaign(id)).status).toBe('cancelled');
    await page.context().close();
  });

  for (const mobile of [false, true]) {
    it(`voice note (${size(mobile)}): the recording is heard before sending, with no 'empty folder' beside it`, async () => {
      const page = await open(mobile);
      await page.goto('/ZDGMedia3');
      await page.getByTestId('bulk-page-voice').waitFor();
      await page.getByTestId('audio-record').click();
      await page.getByTestId('audio-recorder').waitFor();
      await expect.poll(() => page.getByTestId('audio-timer').textContent(), { timeout: 6000 }).toBe('00:02');
      await page.getByTestId('audio-send').click();
      await toast(page, 'Gravação salva');
      await expect.poll(() => page.getByTestId('campaign-media-path').inputValue()).toMatch(/^recordings\/.+\.ogg$/);
      await page.getByText('Ouça antes de enviar:').waitFor();
      const audio = page.getByTestId('campaign-voice-preview-audio');
      await expect.poll(() => audio.evaluate((a) => (a as HTMLAudioElement).readyState), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      await expect.poll(() => audio.evaluate((a) => (a as HTMLAudioElement).duration)).toBeGreaterThan(1);
      await expect(page.getByText('Ainda não há áudios').count()).resolves.toBe(0);
      await expect(page.getByText(/pasta.*vazia/i).count()).resolves.toBe(0);
      await page.getByTestId('campaign-voice-listen').scrollIntoViewIfNeeded();
      await screenshot(page, `first-day-tools-11-voice-listen-${size(mobile)}`);
      if (!mobile) {
        const number = nextNumber();
        await page.getByTestId('campaign-numbers').fill(number);
        await page.getByTestId('campaign-min').fill('0');
        await page.getByTestId('campaign-max').fill('0');
        await page.getByTestId('campaign-submit').click();
        await expect.poll(() => page.getByTestId('campaign-progress').first().getAttribute('data-status'), { timeout: 20_000 }).toBe('completed');
        await expect.poll(async () => (await outbox(centro)).find((m) => m.to === number), { timeout: 20_000 }).toMatchObject({ kind: 'voice' });
      }
      await page.context().close();
    });
  }

  for (const mobile of [false, true]) {
    it(`SMS, calls and Instagram (${size(mobile)}) say what to configure and where, in plain words`, async () => {
      const page = await open(mobile);
      await page.goto('/SMS');
      const setup = page.getByTestId('phone-setup');
      await expect.poll(() => setup.getAttribute('data-configured'), { timeout: 15_000 }).toBe('false');
      await expect(setup.textContent()).resolves.toContain('A Vonage ainda não está configurada: nada será enviado.');
      await expect(page.getByTestId('phone-setup-link').textContent()).resolves.toBe('Configurações → Vonage (SMS e voz)');
      await page.getByTestId('phone-text').fill('Promoção de hoje 🎉');
      const counter = await page.getByTestId('phone-counter').textContent();
      expect(counter).toContain('acentos e emojis reduzem o limite para 70 caracteres por parte');
      expect(counter).not.toMatch(/UCS|GSM/);
      if (mobile) await page.getByTestId('phone-counter').scrollIntoViewIfNeeded();
      await screenshot(page, `first-day-tools-12-sms-${size(mobile)}`);

      await page.goto('/VoiceCall');
      await expect(page.getByTestId('phone-setup').textContent()).resolves.toContain('ID da aplicação e chave privada');
      await screenshot(page, `first-day-tools-13-call-${size(mobile)}`);
      await page.getByTestId('phone-setup-link').click();
      await page.getByTestId('settings-page').waitFor();
      expect(new URL(page.url()).hash).toBe('#vonage');
      await expect.poll(() => page.getByTestId('settings-group-vonage').evaluate((el) => el.getBoundingClientRect().top < window.innerHeight)).toBe(true);

      await page.goto('/InstaDirect');
      const url = page.getByTestId('insta-webhook-url');
      await expect.poll(() => url.inputValue(), { timeout: 15_000 }).toBe(`${server.baseUrl}/api/webhooks/instagram`);
      await expect(page.getByTestId('insta-setup').textContent()).resolves.toContain('adicione uma conexão Instagram em Conexões');
      await page.getByTestId('insta-webhook-copy').click();
      await toast(page, 'Endereço copiado.');
      await screenshot(page, `first-day-tools-14-instagram-${size(mobile)}`);
      await page.context().close();
    });
  }

  it('left no error in any page', () => {
    expect(pageErrors).toEqual([]);
  });
});
