/**
 * Voice notes recorded in the browser: a file named audio-record… is sent as a voice note. A
 * WebM recording with Opus inside becomes Ogg Opus (what phones play); anything else is stored
 * in the container it came in, so the chat's player gets it with the right type.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import type { TWhatsapp } from '@zapdesk/shared/schemas';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let connection: TWhatsapp;
let ticket: TTicket;

function multipartAudio(filename: string, mimetype: string, data: Buffer, boundary = '----zapdesk-voice') {
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="${filename}"\r\nContent-Type: ${mimetype}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, data, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  connection = (await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Voz', channel: 'simulator' } })).json();
  expect((await t.request({ method: 'POST', url: `/api/simulator/${connection.id}/scan`, token: t.adminToken })).statusCode).toBe(200);
  const from = '5511944443333';
  expect((await t.request({ method: 'POST', url: `/api/simulator/${connection.id}/inbound`, token: t.adminToken, payload: { from, name: 'Vera Voz', body: 'Oi' } })).statusCode).toBe(200);
  for (let tries = 0; tries < 100 && !ticket; tries += 1) {
    const list = (await t.request({ method: 'GET', url: '/api/tickets?showAll=true&status=pending', token: t.adminToken })).json().tickets as TTicket[];
    const found = list.find((row) => row.contact.number === from);
    if (found) ticket = found;
    else await new Promise((resolve) => setTimeout(resolve, 25));
  }
  expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open' } })).statusCode).toBe(200);
});
afterAll(async () => {
  await t.close();
});

describe('voice notes from the browser', () => {
  it.each([
    ['audio-record-1.webm', 'audio/webm', 'audio/webm'],
    ['audio-record-2.ogg', 'audio/ogg', 'audio/ogg'],
  ])('sends %s as a voice note and serves it back as %s', async (filename, mimetype, served) => {
    const data = Buffer.alloc(12000, 7);
    const res = await t.request({ method: 'POST', url: `/api/messages/${ticket.id}`, token: t.adminToken, ...multipartAudio(filename, mimetype, data) });
    expect(res.statusCode).toBe(201);
    const [message] = res.json<TMessage[]>();
    expect(message).toMatchObject({ mediaType: 'audio', fromMe: true });
    const outbox = (await t.request({ method: 'GET', url: `/api/simulator/${connection.id}/outbox`, token: t.adminToken })).json<TSimulatorOutboxItem[]>();
    expect(outbox.filter((item) => item.kind === 'voice').length).toBeGreaterThan(0);
    const mediaUrl = new URL(message?.mediaUrl ?? '', 'http://localhost');
    const media = await t.request({ method: 'GET', url: `${mediaUrl.pathname}${mediaUrl.search}` });
    expect(media.statusCode).toBe(200);
    expect(media.headers['content-type']).toBe(served);
    expect(media.rawPayload.length).toBe(data.length);
  });

  it("moves Chromium's WebM recording into Ogg Opus: the phone gets a voice note it can play", async () => {
    const recording = readFileSync(new URL('./fixtures/voice-chromium.webm', import.meta.url));
    const res = await t.request({ method: 'POST', url: `/api/messages/${ticket.id}`, token: t.adminToken, ...multipartAudio('audio-record-3.webm', 'audio/webm;codecs=opus', recording) });
    expect(res.statusCode).toBe(201);
    const [message] = res.json<TMessage[]>();
    const outbox = (await t.request({ method: 'GET', url: `/api/simulator/${connection.id}/outbox`, token: t.adminToken })).json<TSimulatorOutboxItem[]>();
    expect(outbox.at(-1)).toMatchObject({ kind: 'voice', mimetype: 'audio/ogg; codecs=opus' });
    const mediaUrl = new URL(message?.mediaUrl ?? '', 'http://localhost');
    const media = await t.request({ method: 'GET', url: `${mediaUrl.pathname}${mediaUrl.search}` });
    expect(media.headers['content-type']).toBe('audio/ogg');
    expect(media.rawPayload.subarray(0, 4).toString('latin1')).toBe('OggS');
  });
});
