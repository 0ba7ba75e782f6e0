/**
 * A file message keeps the file's own name and size: sent from the chat, received through the
 * simulated phone, read from a WhatsApp document; and a document's ticket line names it.
 */
import { proto } from '@whiskeysockets/baileys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import { readContent } from '../../channels/whatsapp/whatsapp-message.js';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';
import { storeMedia } from './inbound/media.js';

let t: TestApp;
let connectionId: number;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  connectionId = (await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Files line', channel: 'simulator' } })).json<{ id: number }>().id;
  expect((await t.request({ method: 'POST', url: `/api/simulator/${connectionId}/scan`, token: t.adminToken })).statusCode).toBe(200);
});
afterAll(async () => {
  await t.close();
});

/** A multipart chat message: the caption, then each file under `medias`. */
function multipart(caption: string, files: { name: string; type: string; data: Buffer }[]) {
  const boundary = 'zapdeskfilesboundary';
  const parts = [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\n${caption}\r\n`),
    ...files.flatMap((file) => [
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`),
      file.data,
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${boundary}--\r\n`),
  ];
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function messagesOf(ticketId: number): Promise<{ messages: TMessage[]; ticket: TTicket }> {
  return (await t.request({ method: 'GET', url: `/api/messages/${ticketId}`, token: t.adminToken })).json();
}

describe('a document sent from the chat', () => {
  it('is stored with its name and size, read back in the chat, named in the ticket line and downloaded under its name', async () => {
    const ticket = await t.inboundTicket(connectionId, 'Pode mandar o contrato?');
    expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open' } })).statusCode).toBe(200);
    const pixel = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n');
    const sent = await t.request({
      method: 'POST',
      url: `/api/messages/${ticket.id}`,
      token: t.adminToken,
      ...multipart('Segue o contrato', [
        { name: 'foto.png', type: 'image/png', data: pixel },
        { name: 'contrato.pdf', type: 'application/pdf', data: pdf },
      ]),
    });
    expect(sent.statusCode).toBe(201);
    expect(sent.json<TMessage[]>().map((m) => [m.mediaType, m.mediaName, m.mediaSize, m.body])).toEqual([
      ['image', 'foto.png', pixel.length, 'Segue o contrato'],
      ['other', 'contrato.pdf', pdf.length, ''],
    ]);

    const chat = await messagesOf(ticket.id);
    const document = chat.messages.find((m) => m.mediaType === 'other');
    expect(document).toMatchObject({ mediaName: 'contrato.pdf', mediaSize: pdf.length, fromMe: true });
    expect(chat.messages.find((m) => m.body === 'Pode mandar o contrato?')).toMatchObject({ mediaName: null, mediaSize: null });
    expect(chat.ticket.lastMessage).toBe('📄 contrato.pdf');
    const listed = (await t.request({ method: 'GET', url: `/api/tickets/${ticket.id}`, token: t.adminToken })).json<TTicket>();
    expect(listed.lastMessage).toBe('📄 contrato.pdf');

    const served = await t.request({ method: 'GET', url: document?.mediaUrl ?? '' });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-disposition']).toBe('attachment; filename="contrato.pdf"');
    expect(served.rawPayload.equals(pdf)).toBe(true);
  });

  it('downloads a name beyond ASCII exactly (filename*), with a plain fallback', async () => {
    const ticket = await t.inboundTicket(connectionId, 'E o orçamento?');
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open' } });
    const sent = await t.request({
      method: 'POST',
      url: `/api/messages/${ticket.id}`,
      token: t.adminToken,
      ...multipart('', [{ name: "orçamento (final) d'água.pdf", type: 'application/pdf', data: Buffer.from('%PDF-1.4') }]),
    });
    expect(sent.statusCode).toBe(201);
    const [message] = sent.json<TMessage[]>();
    expect(message?.mediaName).toBe("orçamento (final) d'água.pdf");
    const served = await t.request({ method: 'GET', url: message?.mediaUrl ?? '' });
    expect(served.headers['content-disposition']).toBe(`attachment; filename="or_amento (final) d'_gua.pdf"; filename*=UTF-8''or%C3%A7amento%20%28final%29%20d%27%C3%A1gua.pdf`);
  });
});

describe('a document received', () => {
  it('through the simulated phone keeps its name and size, and the ticket line names it', async () => {
    const from = '5511966660001';
    const pdf = Buffer.from('%PDF-1.4 boleto de março\n%%EOF\n');
    const res = await t.request({
      method: 'POST',
      url: `/api/simulator/${connectionId}/inbound`,
      token: t.adminToken,
      payload: { from, name: 'Dora Documento', media: { base64: pdf.toString('base64'), mimetype: 'application/pdf', filename: 'boleto-março.pdf' } },
    });
    expect(res.statusCode).toBe(200);
    const ticket = await waitFor(
      async () => (await t.request({ method: 'GET', url: `/api/tickets?showAll=true&searchParam=${from}`, token: t.adminToken })).json<{ tickets: TTicket[] }>().tickets[0],
      (found) => found !== undefined,
    );
    expect(ticket?.lastMessage).toBe('📄 boleto-março.pdf');
    const { messages } = await messagesOf(ticket?.id ?? 0);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ mediaType: 'other', mediaName: 'boleto-março.pdf', mediaSize: pdf.length, fromMe: false });
  });

  it('from WhatsApp takes the name and announced size of the document, and keeps them when the download fails', async () => {
    const content = proto.Message.fromObject({ documentMessage: { fileName: 'nota-fiscal.pdf', fileLength: 48213, mimetype: 'application/pdf', caption: 'Segue a nota' } });
    const read = readContent(content, () => Promise.reject(new Error('media expired')));
    expect(read).toMatchObject({ body: 'Segue a nota', media: { mediaType: 'other', filename: 'nota-fiscal.pdf', size: 48213, mimetype: 'application/pdf' } });
    const message = {
      providerId: 'WA-DOC-1',
      chat: { kind: 'person' as const, number: '5511966660002' },
      fromMe: false,
      body: read?.body ?? '',
      timestamp: new Date(),
      ...(read?.media ? { media: read.media } : {}),
    };
    expect(await storeMedia(t.ctx, connectionId, message)).toEqual({ mediaPath: null, mediaName: 'nota-fiscal.pdf', mediaSize: 48213 });
  });
});
