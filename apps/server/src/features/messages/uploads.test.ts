/**
 * Uploads from the chat are streamed to disk, never held whole in memory: a request over the
 * size cap answers 413 ERR_UPLOAD_TOO_LARGE and leaves no temporary file, a user past the
 * per-minute upload budget gets 429 ERR_TOO_MANY_REQUESTS (others are not affected), and five
 * 19 MB files sent to a real listening server raise its memory far less than their size.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TMessage } from '@zapdesk/shared/messaging';
import { createTestApp, type TestApp } from '../../test/harness.js';

const MB = 1024 * 1024;
const BOUNDARY = 'zapdeskuploadboundary';

let t: TestApp;
let connectionId: number;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on', UPLOAD_MAX_REQUEST_MB: '100', UPLOAD_MB_PER_MINUTE: '300' });
  connectionId = (await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Uploads line', channel: 'simulator' } })).json<{ id: number }>().id;
  expect((await t.request({ method: 'POST', url: `/api/simulator/${connectionId}/scan`, token: t.adminToken })).statusCode).toBe(200);
});
afterAll(async () => {
  await t.close();
});

/** The multipart parts of a chat message, produced chunk by chunk: the sender never holds a whole file either. */
async function* multipartChunks(files: { name: string; type: string; size: number }[], caption = ''): AsyncGenerator<Buffer> {
  yield Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="body"\r\n\r\n${caption}\r\n`);
  const chunk = Buffer.alloc(256 * 1024, 0x61);
  for (const file of files) {
    yield Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="medias"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`);
    for (let left = file.size; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
    yield Buffer.from('\r\n');
  }
  yield Buffer.from(`--${BOUNDARY}--\r\n`);
}

function multipartLength(files: { name: string; type: string; size: number }[], caption = ''): number {
  let length = Buffer.byteLength(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="body"\r\n\r\n${caption}\r\n`) + Buffer.byteLength(`--${BOUNDARY}--\r\n`);
  for (const file of files) {
    length += Buffer.byteLength(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="medias"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`) + file.size + 2;
  }
  return length;
}

function files(count: number, size: number): { name: string; type: string; size: number }[] {
  return Array.from({ length: count }, (_, i) => ({ name: `arquivo-${i + 1}.pdf`, type: 'application/pdf', size }));
}

async function openTicket(): Promise<number> {
  const ticket = await t.inboundTicket(connectionId, 'Pode mandar os arquivos?');
  expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open' } })).statusCode).toBe(200);
  return ticket.id;
}

/** What is left in the uploads' temporary folder (none once every request has ended). */
function temporaryFiles(): string[] {
  const dir = path.join(t.ctx.config.mediaDir, '.uploads');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

async function messageCount(ticketId: number): Promise<number> {
  return (await t.request({ method: 'GET', url: `/api/messages/${ticketId}`, token: t.adminToken })).json<{ messages: TMessage[] }>().messages.length;
}

describe('memory', () => {
  it('keeps the server far below the size of five 19 MB files sent to it at once', async () => {
    const ticketId = await openTicket();
    const base = new URL(await t.listen());
    const upload = files(5, 19 * MB);
    const total = upload.reduce((sum, f) => sum + f.size, 0);
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakBuffers = before.arrayBuffers;
    const sample = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakBuffers = Math.max(peakBuffers, now.arrayBuffers);
    }, 10);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: base.hostname,
          port: base.port,
          method: 'POST',
          path: `/api/messages/${ticketId}`,
          headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': multipartLength(upload) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      Readable.from(multipartChunks(upload)).pipe(req);
    });
    clearInterval(sample);
    expect(status).toBe(201);
    // Held whole, every file was in memory at once (the total, plus copies: 128 MB here). Streamed,
    // what remains is chunks not yet collected, which the garbage collector bounds.
    expect(peakBuffers - before.arrayBuffers).toBeLessThan(total * 0.6);
    expect(peakRss - before.rss).toBeLessThan(total * 0.6);
    expect(temporaryFiles()).toEqual([]);
  }, 120_000);
});

describe('the size of one upload', () => {
  it('answers 413 ERR_UPLOAD_TOO_LARGE for a request over the cap, declared or streamed, stores nothing and leaves no temporary file', async () => {
    const ticketId = await openTicket();
    const before = await messageCount(ticketId);
    const tooMany = files(6, 18 * MB);
    // Declared: refused from its length, before it is read.
    const declared = await t.request({
      method: 'POST',
      url: `/api/messages/${ticketId}`,
      token: t.adminToken,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(multipartLength(tooMany)) },
      payload: Readable.from(multipartChunks(tooMany)),
    });
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toMatchObject({ error: 'ERR_UPLOAD_TOO_LARGE' });
    // Streamed without a length: refused once the files read pass the cap, the ones on disk removed.
    const streamed = await t.request({
      method: 'POST',
      url: `/api/messages/${ticketId}`,
      token: t.adminToken,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'transfer-encoding': 'chunked' },
      payload: Readable.from(multipartChunks(tooMany)),
    });
    expect(streamed.statusCode).toBe(413);
    expect(streamed.json()).toMatchObject({ error: 'ERR_UPLOAD_TOO_LARGE' });
    // One file over the per-file limit.
    const oneBig = files(1, 21 * MB);
    const big = await t.request({
      method: 'POST',
      url: `/api/messages/${ticketId}`,
      token: t.adminToken,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: Readable.from(multipartChunks(oneBig)),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ error: 'ERR_UPLOAD_TOO_LARGE' });
    expect(temporaryFiles()).toEqual([]);
    expect(await messageCount(ticketId)).toBe(before);
  }, 60_000);

  it('removes the temporary files of an upload refused for its content, and of one that was sent', async () => {
    const ticketId = await openTicket();
    const caption = 'x'.repeat(30_001);
    const invalid = await t.request({
      method: 'POST',
      url: `/api/messages/${ticketId}`,
      token: t.adminToken,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: Readable.from(multipartChunks(files(2, MB), caption)),
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    expect(temporaryFiles()).toEqual([]);
    const sent = await t.request({
      method: 'POST',
      url: `/api/messages/${ticketId}`,
      token: t.adminToken,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: Readable.from(multipartChunks(files(2, MB), 'Seguem'), { objectMode: false }),
    });
    expect(sent.statusCode).toBe(201);
    expect(sent.json<TMessage[]>().map((m) => [m.mediaName, m.mediaSize])).toEqual([
      ['arquivo-1.pdf', MB],
      ['arquivo-2.pdf', MB],
    ]);
    expect(temporaryFiles()).toEqual([]);
  });
});

describe('the upload budget of a user', () => {
  it('answers 429 ERR_TOO_MANY_REQUESTS past the bytes a user may upload in a minute, without affecting another user', async () => {
    // A server of its own, with a budget of 3 MB a minute.
    const small = await createTestApp({ SIMULATOR: 'on', UPLOAD_MB_PER_MINUTE: '3' });
    try {
      const line = (await small.request({ method: 'POST', url: '/api/whatsapp', token: small.adminToken, payload: { name: 'Budget line', channel: 'simulator' } })).json<{ id: number }>().id;
      await small.request({ method: 'POST', url: `/api/simulator/${line}/scan`, token: small.adminToken });
      const ticket = await small.inboundTicket(line, 'Manda tudo');
      await small.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: small.adminToken, payload: { status: 'open' } });
      const agent = await small.createUser({ profile: 'admin' });
      const send = (token: string) =>
        small.request({
          method: 'POST',
          url: `/api/messages/${ticket.id}`,
          token,
          headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
          payload: Readable.from(multipartChunks(files(1, MB - 4096))),
        });
      expect([(await send(agent.token)).statusCode, (await send(agent.token)).statusCode, (await send(agent.token)).statusCode]).toEqual([201, 201, 201]);
      const refused = await send(agent.token);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ error: 'ERR_TOO_MANY_REQUESTS' });
      expect(refused.headers['retry-after']).toBeDefined();
      // Someone else uploads as usual.
      expect((await send(small.adminToken)).statusCode).toBe(201);
      const dir = path.join(small.ctx.config.mediaDir, '.uploads');
      expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
    } finally {
      await small.close();
    }
  }, 60_000);
});
