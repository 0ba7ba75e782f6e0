/**
 * `POST /api/messages/{ticketId}` with a JSON `mediaUrl`: the file is fetched through the SSRF
 * guard, stored, then sent as a file message with the body as its caption; an address that
 * cannot be used is refused with its ERR_ code and nothing is stored or sent.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TMessage } from '@zapdesk/shared/messaging';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import { createTestApp, type TestApp } from '../../test/harness.js';

/** The smallest PNG: a 1×1 transparent pixel. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

let t: TestApp;
let connectionId: number;
let files: http.Server;
let filesUrl: string;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on', ALLOW_PRIVATE_MEDIA_URLS: 'on' });
  connectionId = (await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Links', channel: 'simulator' } })).json<{ id: number }>().id;
  expect((await t.request({ method: 'POST', url: `/api/simulator/${connectionId}/scan`, token: t.adminToken })).statusCode).toBe(200);
  files = http.createServer((req, res) => {
    // The server claims text: the type is read from the bytes.
    if (req.url === '/catalogo/foto.png') return res.writeHead(200, { 'content-type': 'text/plain' }).end(PNG);
    if (req.url === '/vazio') return res.writeHead(200).end();
    return res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  const address = files.address();
  if (typeof address !== 'object' || address === null) throw new Error('no address');
  filesUrl = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await t.close();
  files.close();
});

async function openTicket(): Promise<number> {
  const ticket = await t.inboundTicket(connectionId, 'Me manda a foto do produto?');
  expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open' } })).statusCode).toBe(200);
  return ticket.id;
}
const send = (ticketId: number, payload: Record<string, unknown>) => t.request({ method: 'POST', url: `/api/messages/${ticketId}`, token: t.adminToken, payload });
const outbox = async () => (await t.request({ method: 'GET', url: `/api/simulator/${connectionId}/outbox`, token: t.adminToken })).json<TSimulatorOutboxItem[]>();
const messages = async (ticketId: number) => (await t.request({ method: 'GET', url: `/api/messages/${ticketId}`, token: t.adminToken })).json<{ messages: TMessage[] }>().messages;

describe('POST /api/messages/{ticketId} with mediaUrl', () => {
  it('fetches the file, stores it, and sends it as media with the body as caption', async () => {
    const ticketId = await openTicket();
    const res = await send(ticketId, { body: 'Segue a foto', mediaUrl: `${filesUrl}/catalogo/foto.png`, fromMe: true, read: 1 });
    expect(res.statusCode).toBe(201);
    const [message] = res.json<TMessage[]>();
    expect(message).toMatchObject({ fromMe: true, mediaType: 'image', body: 'Segue a foto', mediaName: 'foto.png', mediaSize: PNG.length });
    expect(message?.mediaUrl).toBeTruthy();
    const served = await t.request({ method: 'GET', url: message?.mediaUrl ?? '' });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    await expect.poll(async () => (await outbox()).find((m) => m.kind === 'media' && m.filename === 'foto.png')).toMatchObject({ mimetype: 'image/png', body: 'Segue a foto' });
  });

  it('sends a file without a caption when the body is empty, and still needs a body without mediaUrl', async () => {
    const ticketId = await openTicket();
    const res = await send(ticketId, { mediaUrl: `${filesUrl}/catalogo/foto.png` });
    expect(res.statusCode).toBe(201);
    expect(res.json<TMessage[]>()[0]).toMatchObject({ mediaType: 'image', body: '' });
    expect((await send(ticketId, { body: '  ', mediaUrl: '' })).json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { body: 'REQUIRED' } });
    expect((await send(ticketId, {})).json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { body: 'REQUIRED' } });
  });

  it('refuses an address it cannot use with its ERR_ code, storing and sending nothing', async () => {
    const ticketId = await openTicket();
    const before = (await messages(ticketId)).length;
    const sentBefore = (await outbox()).length;
    const cases: [string, string][] = [
      ['ftp://example.com/a.png', 'ERR_MEDIA_URL_INVALID'],
      ['não é um endereço', 'ERR_MEDIA_URL_INVALID'],
      [`${filesUrl}/nao-existe.png`, 'ERR_MEDIA_URL_FAILED'],
      [`${filesUrl}/vazio`, 'ERR_MEDIA_URL_FAILED'],
      // A cloud metadata address stays refused even with ALLOW_PRIVATE_MEDIA_URLS.
      ['http://169.254.169.254/latest/meta-data', 'ERR_MEDIA_URL_FORBIDDEN'],
    ];
    for (const [mediaUrl, error] of cases) {
      const res = await send(ticketId, { body: 'legenda', mediaUrl });
      expect(res.statusCode, mediaUrl).toBe(400);
      expect(res.json(), mediaUrl).toMatchObject({ error });
    }
    expect((await send(ticketId, { mediaUrl: `http://x/${'a'.repeat(2000)}` })).json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { mediaUrl: 'TOO_LONG' } });
    expect((await messages(ticketId)).length).toBe(before);
    expect((await outbox()).length).toBe(sentBefore);
  });

  it('refuses on a ticket that is not open before fetching anything', async () => {
    const ticket = await t.inboundTicket(connectionId, 'Olá');
    expect((await send(ticket.id, { mediaUrl: `${filesUrl}/catalogo/foto.png` })).json()).toMatchObject({ error: 'ERR_TICKET_NOT_OPEN' });
  });
});
