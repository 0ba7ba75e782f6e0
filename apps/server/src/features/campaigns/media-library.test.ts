/** The media library: adding files from the page (types and size from the server's limits), listing, previewing, removing; nothing outside the folder. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCampaign } from '@zapdesk/shared/campaigns';
import type { TLocalMediaFile, TLocalMediaList } from '@zapdesk/shared/media-library';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';

const OPUS = fs.readFileSync(path.join(import.meta.dirname, '../messages/fixtures/opusenc-sine.ogg'));
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n', 'latin1');

let t: TestApp;
let localDir: string;
let phone: number;

function multipart(filename: string, type: string, data: Buffer) {
  const boundary = 'l1brary';
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  };
}

const upload = (filename: string, type: string, data: Buffer, token = t.adminToken) => t.request({ method: 'POST', url: '/api/local-media', token, ...multipart(filename, type, data) });
const list = async () => (await t.request({ method: 'GET', url: '/api/local-media', token: t.adminToken })).json<TLocalMediaList>();
const remove = (typed: string) => t.request({ method: 'DELETE', url: `/api/local-media?path=${encodeURIComponent(typed)}`, token: t.adminToken });

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on', UPLOAD_MAX_FILE_MB: '1' });
  localDir = t.ctx.config.localMediaDir;
  fs.mkdirSync(localDir, { recursive: true });
  fs.writeFileSync(path.join(t.ctx.config.dataDir, 'outside.png'), PNG);
  fs.symlinkSync(path.join(t.ctx.config.dataDir, 'outside.png'), path.join(localDir, 'link-out.png'));
  fs.mkdirSync(path.join(localDir, 'inside'), { recursive: true });
  fs.writeFileSync(path.join(localDir, 'inside', 'real.png'), PNG);
  fs.symlinkSync(path.join(localDir, 'inside', 'real.png'), path.join(localDir, 'link-in.png'));
  phone = (await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Loja', channel: 'simulator', isDefault: true } })).json<{ id: number }>().id;
  await t.request({ method: 'POST', url: `/api/simulator/${phone}/scan`, token: t.adminToken });
});
afterAll(async () => {
  await t.close();
});

describe('media library', () => {
  it('adds a photo under its own name, typed from its bytes, lists it with size and kind, and sends it by path', async () => {
    const res = await upload('Promoção de Natal!.PNG', 'image/png', PNG);
    expect(res.statusCode).toBe(201);
    const added = res.json<TLocalMediaFile>();
    expect(added).toMatchObject({ path: 'Promoção de Natal_.png', size: PNG.length, mediaType: 'image' });
    expect(fs.statSync(path.join(localDir, added.path)).mode & 0o077).toBe(0);
    const again = (await upload('Promoção de Natal!.PNG', 'image/png', PNG)).json<TLocalMediaFile>();
    expect(again.path).toBe('Promoção de Natal_-2.png');
    // Named after what the bytes are, whatever the name and type claimed.
    expect((await upload('contrato.txt', 'text/plain', PDF)).json<TLocalMediaFile>()).toMatchObject({ path: 'contrato.pdf', mediaType: 'other' });
    expect((await upload('nota', 'application/octet-stream', OPUS)).json<TLocalMediaFile>()).toMatchObject({ path: 'nota.ogg', mediaType: 'audio' });

    const listed = await list();
    expect(listed.maxBytes).toBe(1024 * 1024);
    expect(listed.files).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: added.path, size: PNG.length, mediaType: 'image' }), expect.objectContaining({ path: 'contrato.pdf', mediaType: 'other' })]),
    );

    const preview = await t.request({ method: 'GET', url: `/api/local-media/file?path=${encodeURIComponent(added.path)}`, token: t.adminToken });
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('image/png');
    expect(preview.headers['x-content-type-options']).toBe('nosniff');
    expect(preview.rawPayload.equals(PNG)).toBe(true);

    // The same file through the page's send and through the tool API's path contract.
    const sent = await t.request({
      method: 'POST',
      url: '/api/campaigns',
      token: t.adminToken,
      payload: { kind: 'mediaPath', whatsappId: phone, numbers: '447700960001', message: 'Natal', mediaPath: added.path, minDelay: 0, maxDelay: 0 },
    });
    expect(sent.statusCode).toBe(201);
    const campaign = sent.json<{ campaign: TCampaign }>().campaign;
    expect(campaign).toMatchObject({ mediaName: added.path, mediaType: 'image' });
    await waitFor(
      async () => (await t.request({ method: 'GET', url: `/api/campaigns/${campaign.id}`, token: t.adminToken })).json<TCampaign>(),
      (c) => c.status === 'completed',
    );
    const outbox = (await t.request({ method: 'GET', url: `/api/simulator/${phone}/outbox`, token: t.adminToken })).json<TSimulatorOutboxItem[]>();
    expect(outbox.find((m) => m.to === '447700960001')).toMatchObject({ kind: 'media', mimetype: 'image/png', body: 'Natal' });
    // The history shows what was sent.
    const media = await t.request({ method: 'GET', url: `/api/campaigns/${campaign.id}/media`, token: t.adminToken });
    expect(media.statusCode).toBe(200);
    expect(media.headers['content-type']).toBe('image/png');
    expect(media.rawPayload.equals(PNG)).toBe(true);
    const textOnly = (
      await t.request({ method: 'POST', url: '/api/campaigns', token: t.adminToken, payload: { kind: 'text', whatsappId: phone, numbers: '447700960002', message: 'Oi', minDelay: 0, maxDelay: 0 } })
    ).json<{ campaign: TCampaign }>().campaign;
    expect(textOnly.mediaType).toBeNull();
    expect((await t.request({ method: 'GET', url: `/api/campaigns/${textOnly.id}/media`, token: t.adminToken })).json()).toMatchObject({ error: 'ERR_MEDIA_PATH_NOT_FOUND' });

    const tool = await t.request({ method: 'POST', url: '/api/sendMediaZDG', token: t.adminToken, payload: { number: '447700960003', url: added.path, title: 'Foto', ticketwhatsappId: phone } });
    expect(tool.statusCode).toBe(202);
  });

  it('refuses types it does not take and files over UPLOAD_MAX_FILE_MB with ERR_ codes, writing nothing', async () => {
    const before = (await list()).files.length;
    const html = await upload('pagina.html', 'text/html', Buffer.from('<html><script>alert(1)</script></html>'));
    expect(html.statusCode).toBe(400);
    expect(html.json()).toMatchObject({ error: 'ERR_MEDIA_TYPE_NOT_ALLOWED' });
    const exe = await upload('foto.png', 'image/png', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]));
    expect(exe.json()).toMatchObject({ error: 'ERR_MEDIA_TYPE_NOT_ALLOWED' });
    const empty = await upload('vazio.png', 'image/png', Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    const big = await upload('grande.png', 'image/png', Buffer.concat([PNG, Buffer.alloc(1024 * 1024 + 10)]));
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ error: 'ERR_UPLOAD_TOO_LARGE' });
    const none = await t.request({ method: 'POST', url: '/api/local-media', token: t.adminToken, payload: { file: 'x' } });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ error: 'ERR_INVALID_UPLOAD' });
    expect((await list()).files.length).toBe(before);
    expect(fs.readdirSync(path.join(t.ctx.config.mediaDir, '.uploads'))).toEqual([]);
  });

  it('removes a file of the folder, and nothing else: no .., no absolute path, no link', async () => {
    const added = (await upload('apagar.png', 'image/png', PNG)).json<TLocalMediaFile>();
    expect((await remove(added.path)).statusCode).toBe(204);
    expect(fs.existsSync(path.join(localDir, added.path))).toBe(false);
    expect((await list()).files.map((f) => f.path)).not.toContain(added.path);
    expect((await remove(added.path)).json()).toMatchObject({ error: 'ERR_MEDIA_PATH_NOT_FOUND' });
    for (const typed of ['../outside.png', 'inside/../../outside.png', path.join(t.ctx.config.dataDir, 'outside.png'), '/etc/passwd', 'link-out.png', 'link-in.png']) {
      const res = await remove(typed);
      expect(res.statusCode, typed).toBe(400);
      expect(res.json(), typed).toMatchObject({ error: 'ERR_MEDIA_PATH_FORBIDDEN' });
    }
    expect(fs.existsSync(path.join(t.ctx.config.dataDir, 'outside.png'))).toBe(true);
    expect(fs.existsSync(path.join(localDir, 'inside', 'real.png'))).toBe(true);
    expect((await t.request({ method: 'GET', url: '/api/local-media/file?path=link-out.png', token: t.adminToken })).json()).toMatchObject({ error: 'ERR_MEDIA_PATH_FORBIDDEN' });
    expect((await t.request({ method: 'GET', url: '/api/local-media/file?path=..%2Foutside.png', token: t.adminToken })).json()).toMatchObject({ error: 'ERR_MEDIA_PATH_FORBIDDEN' });
    expect((await t.request({ method: 'DELETE', url: '/api/local-media', token: t.adminToken })).statusCode).toBe(400);
  });
});
