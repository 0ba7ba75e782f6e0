/**
 * A customer's Ogg Opus voice note has an m4a copy (`/api/media/{id}?…&format=m4a`) for browsers
 * without Ogg (Safari before 18.4): AAC in MP4, made by ffmpeg once and then served from the
 * media folder; without ffmpeg the address answers ERR_AUDIO_CONVERTER_MISSING.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import { ffmpegRunCount } from '../../core/media/ffmpeg.js';
import { createTestApp, type TestApp } from '../../test/harness.js';

const VOICE = fs.readFileSync(new URL('./fixtures/voice-3s.ogg', import.meta.url));
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

let t: TestApp;
let connectionId: number;
let n = 0;

/** An MP4's boxes at one level: type, start of the content, end. */
function boxes(data: Buffer, start = 0, end = data.length): { type: string; body: number; end: number }[] {
  const found = [];
  for (let at = start; at + 8 <= end;) {
    const size = data.readUInt32BE(at);
    if (size < 8) break;
    found.push({ type: data.toString('latin1', at + 4, at + 8), body: at + 8, end: at + size });
    at += size;
  }
  return found;
}

/** The brand, the duration in seconds (moov/mvhd) and the sample format of the first track (…/stsd). */
function readM4a(data: Buffer): { brand: string; seconds: number; codec: string } {
  const top = boxes(data);
  const ftyp = top.find((b) => b.type === 'ftyp');
  const moov = top.find((b) => b.type === 'moov');
  if (!ftyp || !moov) throw new Error('not an MP4');
  const mvhd = boxes(data, moov.body, moov.end).find((b) => b.type === 'mvhd');
  if (!mvhd) throw new Error('no mvhd');
  const v1 = data[mvhd.body] === 1;
  const timescale = data.readUInt32BE(mvhd.body + (v1 ? 20 : 12));
  const duration = v1 ? Number(data.readBigUInt64BE(mvhd.body + 24)) : data.readUInt32BE(mvhd.body + 16);
  const stsd = data.indexOf('stsd', moov.body, 'latin1');
  return { brand: data.toString('latin1', ftyp.body, ftyp.body + 4), seconds: duration / timescale, codec: data.toString('latin1', stsd + 16, stsd + 20) };
}

/** A customer sends a file from the simulated phone; answers its stored message. */
async function inboundFile(media: { data: Buffer; mimetype: string; filename: string }): Promise<TMessage> {
  n += 1;
  const from = `55119333${String(process.pid % 1000).padStart(3, '0')}${String(n).padStart(2, '0')}`;
  const payload = { from, name: 'Cliente Voz', media: { base64: media.data.toString('base64'), mimetype: media.mimetype, filename: media.filename } };
  expect((await t.request({ method: 'POST', url: `/api/simulator/${connectionId}/inbound`, token: t.adminToken, payload })).statusCode).toBe(200);
  let found: TMessage | undefined;
  await expect
    .poll(async () => {
      const tickets = (await t.request({ method: 'GET', url: `/api/tickets?showAll=true&searchParam=${from}`, token: t.adminToken })).json<{ tickets: TTicket[] }>().tickets;
      const ticket = tickets.find((x) => x.contact.number === from);
      if (!ticket) return undefined;
      const list = (await t.request({ method: 'GET', url: `/api/messages/${ticket.id}`, token: t.adminToken })).json<{ messages: TMessage[] }>().messages;
      found = list.find((m) => m.mediaUrl && !m.fromMe);
      return found?.mediaUrl;
    })
    .toBeTruthy();
  if (!found) throw new Error('no message');
  return found;
}

const get = (url: string) => t.request({ method: 'GET', url });
const m4aOf = (message: TMessage) => `${message.mediaUrl ?? ''}&format=m4a`;
const leftovers = () => fs.readdirSync(t.ctx.config.mediaDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.tmp'));

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on', FFMPEG_PATH: '/usr/bin/ffmpeg' });
  connectionId = (await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Voz', channel: 'simulator' } })).json<{ id: number }>().id;
  expect((await t.request({ method: 'POST', url: `/api/simulator/${connectionId}/scan`, token: t.adminToken })).statusCode).toBe(200);
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/media/{id}?format=m4a', () => {
  it('converts an Ogg Opus voice note to AAC in MP4 once, keeps it beside the original, and serves it from there', async () => {
    const message = await inboundFile({ data: VOICE, mimetype: 'audio/ogg; codecs=opus', filename: 'voice.ogg' });
    expect(message.mediaType).toBe('audio');
    const original = await get(message.mediaUrl ?? '');
    expect(original.headers['content-type']).toBe('audio/ogg');

    const runs = ffmpegRunCount();
    const first = await get(m4aOf(message));
    expect(first.statusCode, first.body.slice(0, 200)).toBe(200);
    expect(first.headers['content-type']).toBe('audio/mp4');
    expect(first.headers['content-disposition']).toMatch(/^inline; filename=".+\.m4a"$/);
    const read = readM4a(first.rawPayload);
    expect(read.brand).toBe('M4A ');
    expect(read.codec).toBe('mp4a');
    expect(read.seconds).toBeGreaterThan(2.9);
    expect(read.seconds).toBeLessThan(3.2);
    expect(ffmpegRunCount()).toBe(runs + 1);

    // Cached: beside the stored file, and a second request spawns nothing.
    const cached = fs.readdirSync(t.ctx.config.mediaDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ogg.m4a'));
    expect(cached.length).toBe(1);
    const second = await get(m4aOf(message));
    expect(second.statusCode).toBe(200);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(ffmpegRunCount()).toBe(runs + 1);
    expect(leftovers()).toEqual([]);
  });

  it('converts once when several ask at the same time', async () => {
    const message = await inboundFile({ data: VOICE, mimetype: 'audio/ogg; codecs=opus', filename: 'voice.ogg' });
    const runs = ffmpegRunCount();
    const answers = await Promise.all([1, 2, 3].map(() => get(m4aOf(message))));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(ffmpegRunCount()).toBe(runs + 1);
  });

  it('refuses other formats and non-audio; a file ffmpeg cannot read answers ERR_AUDIO_CONVERSION_FAILED and leaves nothing behind', async () => {
    const image = await inboundFile({ data: PNG, mimetype: 'image/png', filename: 'foto.png' });
    expect((await get(m4aOf(image))).json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { format: 'INVALID' } });
    const voice = await inboundFile({ data: VOICE, mimetype: 'audio/ogg; codecs=opus', filename: 'voice.ogg' });
    expect((await get(`${voice.mediaUrl ?? ''}&format=mp3`)).json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { format: 'INVALID' } });
    const broken = await inboundFile({ data: Buffer.alloc(4000, 9), mimetype: 'audio/ogg', filename: 'quebrado.ogg' });
    const res = await get(m4aOf(broken));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'ERR_AUDIO_CONVERSION_FAILED' });
    expect(leftovers()).toEqual([]);
    expect(fs.readdirSync(t.ctx.config.mediaDir, { recursive: true, encoding: 'utf8' }).filter((f) => path.basename(f).startsWith('.'))).toEqual([]);
  });

  it('says clearly when ffmpeg is missing, and still serves the original', async () => {
    const without = await createTestApp({ SIMULATOR: 'on', FFMPEG_PATH: '/nonexistent/ffmpeg' });
    try {
      const id = (await without.request({ method: 'POST', url: '/api/whatsapp', token: without.adminToken, payload: { name: 'Sem ffmpeg', channel: 'simulator' } })).json<{ id: number }>().id;
      await without.request({ method: 'POST', url: `/api/simulator/${id}/scan`, token: without.adminToken });
      const payload = { from: '5511933300001', name: 'Cliente', media: { base64: VOICE.toString('base64'), mimetype: 'audio/ogg; codecs=opus', filename: 'voice.ogg' } };
      await without.request({ method: 'POST', url: `/api/simulator/${id}/inbound`, token: without.adminToken, payload });
      let url = '';
      await expect
        .poll(async () => {
          const tickets = (await without.request({ method: 'GET', url: '/api/tickets?showAll=true', token: without.adminToken })).json<{ tickets: TTicket[] }>().tickets;
          const ticket = tickets[0];
          if (!ticket) return '';
          const list = (await without.request({ method: 'GET', url: `/api/messages/${ticket.id}`, token: without.adminToken })).json<{ messages: TMessage[] }>().messages;
          url = list.find((m) => m.mediaUrl)?.mediaUrl ?? '';
          return url;
        })
        .not.toBe('');
      const res = await without.request({ method: 'GET', url: `${url}&format=m4a` });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ error: 'ERR_AUDIO_CONVERTER_MISSING' });
      expect((await without.request({ method: 'GET', url })).statusCode).toBe(200);
    } finally {
      await without.close();
    }
  });
});
