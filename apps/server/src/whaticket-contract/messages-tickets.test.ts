/**
 * The request shapes whaticket-community's web frontend sends for messages, tickets, contacts
 * and its dashboard (read from its MessageInput, MessagesList, ModalImageCors, TicketListItem,
 * TicketActionButtons, TransferTicketModal, NewTicketModal, ContactModal, VcardPreview, the
 * Contacts and Dashboard pages and useTickets), each next to our own web app's shape and the
 * near-misses that stay refused. One TABLE: route, shape sent, expected status and answer, and
 * the HTTP-visible effect where there is one (the simulated phone's outbox, the stored rows).
 * Rows run in order against one app on this test's database (SQLite, or PostgreSQL with
 * TEST_DB=postgres).
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TContact } from '@zapdesk/shared/schemas';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import { ADMIN, createTestApp, type TestApp } from '../test/harness.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const MP3 = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(12_000)]);

let t: TestApp;
/** What the rows share: ids made in beforeAll and by earlier rows. */
const s = {
  phone: 0,
  adminId: 0,
  agent: { id: 0, token: '' },
  queueId: 0,
  ticket: undefined as unknown as TTicket,
  other: undefined as unknown as TTicket,
  contact: undefined as unknown as TContact,
  lastMessage: undefined as unknown as TMessage,
  mediaMessage: undefined as unknown as TMessage,
  outboxBefore: 0,
};

function multipart(fields: [string, string][], files: { name: string; type: string; data: Buffer }[]) {
  const boundary = 'whaticketfrontendboundary';
  const parts = [
    ...fields.map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)),
    ...files.flatMap((file) => [
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`),
      file.data,
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${boundary}--\r\n`),
  ];
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function outbox(): Promise<TSimulatorOutboxItem[]> {
  return (await t.request({ method: 'GET', url: `/api/simulator/${s.phone}/outbox`, token: t.adminToken })).json();
}
/** What reached the phone since the row started. */
const newOnPhone = async () => (await outbox()).slice(s.outboxBefore);
const today = new Date();
const yesterday = new Date(today.getTime() - 36 * 3600_000);

type Row = {
  who: 'whaticket' | 'ours' | 'refused';
  route: string;
  shape: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: () => string;
  send?: () => { payload?: unknown; headers?: Record<string, string> };
  token?: () => string;
  status: number;
  answer?: Record<string, unknown>;
  effect?: (res: LightMyRequestResponse) => Promise<void>;
};

const TABLE: Row[] = [
  // ---------- messages ----------
  {
    who: 'whaticket',
    route: 'GET /messages/:ticketId',
    shape: '{ params: { pageNumber } } (MessagesList)',
    method: 'GET',
    url: () => `/api/messages/${s.ticket.id}?pageNumber=1`,
    status: 200,
    effect: async (res) => {
      const page = res.json<{ messages: TMessage[]; ticket: TTicket; count: number; hasMore: boolean }>();
      expect(page).toMatchObject({ count: 1, hasMore: false, ticket: { id: s.ticket.id } });
      s.lastMessage = page.messages[0] as TMessage;
    },
  },
  {
    who: 'whaticket',
    route: 'POST /messages/:ticketId',
    shape: '{ read: 1, fromMe: true, mediaUrl: "", body, quotedMsg: null } (MessageInput)',
    method: 'POST',
    url: () => `/api/messages/${s.ticket.id}`,
    send: () => ({ payload: { read: 1, fromMe: true, mediaUrl: '', body: 'Bom dia, em que posso ajudar?', quotedMsg: null } }),
    status: 201,
    effect: async (res) => {
      expect(res.json<TMessage[]>()[0]).toMatchObject({ body: 'Bom dia, em que posso ajudar?', fromMe: true, quotedMsg: null });
      expect((await newOnPhone()).map((m) => [m.to, m.body])).toEqual([[s.ticket.contact.number, 'Bom dia, em que posso ajudar?']]);
    },
  },
  {
    who: 'whaticket',
    route: 'POST /messages/:ticketId',
    shape: 'quotedMsg: the whole message object (a reply)',
    method: 'POST',
    url: () => `/api/messages/${s.ticket.id}`,
    send: () => ({ payload: { read: 1, fromMe: true, mediaUrl: '', body: 'Respondendo', quotedMsg: s.lastMessage } }),
    status: 201,
    effect: async (res) => {
      expect(res.json<TMessage[]>()[0]?.quotedMsg).toMatchObject({ id: s.lastMessage.id, body: s.lastMessage.body });
      expect((await newOnPhone())[0]?.quotedId).not.toBeNull();
    },
  },
  {
    who: 'whaticket',
    route: 'POST /messages/:ticketId',
    shape: 'multipart: fromMe=true, medias=<file>, body=<file name> (sent without caption, as whaticket does)',
    method: 'POST',
    url: () => `/api/messages/${s.ticket.id}`,
    send: () =>
      multipart(
        [
          ['fromMe', 'true'],
          ['body', 'foto.png'],
        ],
        [{ name: 'foto.png', type: 'image/png', data: PNG }],
      ),
    status: 201,
    effect: async (res) => {
      const [message] = res.json<TMessage[]>();
      expect(message).toMatchObject({ body: '', mediaType: 'image', mediaName: 'foto.png' });
      // whaticket's chat draws a picture only when the address matches this (MessagesList), else a download button.
      expect(message?.mediaUrl).toMatch(/^.*\.(jpe?g|png|gif)?$/i);
      s.mediaMessage = message as TMessage;
      expect((await newOnPhone()).map((m) => [m.kind, m.body, m.filename])).toEqual([['media', '', 'foto.png']]);
    },
  },
  {
    who: 'whaticket',
    route: 'POST /messages/:ticketId',
    shape: 'multipart voice: medias=<ts>.mp3 (audio/mpeg), body=<ts>.mp3, fromMe=true',
    method: 'POST',
    url: () => `/api/messages/${s.ticket.id}`,
    send: () =>
      multipart(
        [
          ['medias-name', 'x'],
          ['body', '1732600000000.mp3'],
          ['fromMe', 'true'],
        ],
        [{ name: '1732600000000.mp3', type: 'audio/mpeg', data: MP3 }],
      ),
    status: 201,
    effect: async (res) => {
      expect(res.json<TMessage[]>()[0]).toMatchObject({ mediaType: 'audio', body: '' });
      expect((await newOnPhone()).map((m) => m.mimetype)).toEqual(['audio/mpeg']);
    },
  },
  {
    who: 'whaticket',
    route: 'GET <mediaUrl> (Audio, <video>, Download: same origin)',
    shape: 'the relative mediaUrl as given',
    method: 'GET',
    url: () => s.mediaMessage.mediaUrl ?? '',
    status: 200,
    effect: async (res) => {
      expect(res.rawPayload.equals(PNG)).toBe(true);
    },
  },
  {
    who: 'whaticket',
    route: 'GET /api + mediaUrl (ModalImageCors: api.get(mediaUrl), base URL <origin>/api)',
    shape: '/api/api/media/:id?expires&signature',
    method: 'GET',
    url: () => `/api${s.mediaMessage.mediaUrl ?? ''}`,
    status: 200,
    effect: async (res) => {
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.rawPayload.equals(PNG)).toBe(true);
    },
  },
  {
    who: 'whaticket',
    route: 'GET /messages/:ticketId from FRONTEND_URL (whaticket served on another origin)',
    shape: 'Origin: http://atendimento.example (= FRONTEND_URL): media addresses come absolute, on the address this server was reached at',
    method: 'GET',
    url: () => `/api/messages/${s.ticket.id}`,
    send: () => ({ headers: { origin: 'http://atendimento.example', host: 'desk.example:8080' } }),
    status: 200,
    effect: async (res) => {
      const media = res.json<{ messages: TMessage[] }>().messages.find((m) => m.id === s.mediaMessage.id);
      expect(media?.mediaUrl).toMatch(/^http:\/\/desk\.example:8080\/api\/media\/\d+\?expires=\d+&signature=[^&]+&name=foto\.png$/);
      const path = new URL(media?.mediaUrl ?? '').pathname + new URL(media?.mediaUrl ?? '').search;
      expect((await t.request({ method: 'GET', url: path })).rawPayload.equals(PNG)).toBe(true);
    },
  },
  {
    who: 'refused',
    route: 'GET /messages/:ticketId from an origin other than FRONTEND_URL',
    shape: 'Origin: http://outro.example: relative media addresses (nothing made for it)',
    method: 'GET',
    url: () => `/api/messages/${s.ticket.id}`,
    send: () => ({ headers: { origin: 'http://outro.example', host: 'desk.example:8080' } }),
    status: 200,
    effect: async (res) => {
      const media = res.json<{ messages: TMessage[] }>().messages.find((m) => m.id === s.mediaMessage.id);
      expect(media?.mediaUrl).toMatch(/^\/api\/media\/\d+\?/);
    },
  },
  {
    who: 'ours',
    route: 'GET /messages/:ticketId from this origin',
    shape: 'Origin equal to the server’s own: relative media addresses, as the spec gives them',
    method: 'GET',
    url: () => `/api/messages/${s.ticket.id}`,
    send: () => ({ headers: { origin: 'http://desk.example:8080', host: 'desk.example:8080' } }),
    status: 200,
    effect: async (res) => {
      const media = res.json<{ messages: TMessage[] }>().messages.find((m) => m.id === s.mediaMessage.id);
      expect(media?.mediaUrl).toMatch(/^\/api\/media\/\d+\?/);
    },
  },
  {
    who: 'refused',
    route: 'GET /api/api/media/:id',
    shape: 'a wrong signature',
    method: 'GET',
    url: () => `/api/api/media/${s.mediaMessage.id}?expires=9999999999&signature=forged`,
    status: 403,
    answer: { error: 'ERR_NO_PERMISSION' },
  },
  {
    who: 'ours',
    route: 'POST /messages/:ticketId',
    shape: '{ body, quotedMsg: { id } } (our chat)',
    method: 'POST',
    url: () => `/api/messages/${s.ticket.id}`,
    send: () => ({ payload: { body: 'Do nosso app', quotedMsg: { id: s.lastMessage.id } } }),
    status: 201,
    effect: async () => expect((await newOnPhone()).map((m) => m.body)).toEqual(['Do nosso app']),
  },
  {
    who: 'ours',
    route: 'POST /messages/:ticketId',
    shape: 'multipart: body (caption) + medias (our chat)',
    method: 'POST',
    url: () => `/api/messages/${s.ticket.id}`,
    send: () => multipart([['body', 'Segue a nota']], [{ name: 'nota.png', type: 'image/png', data: PNG }]),
    status: 201,
    effect: async () => expect((await newOnPhone()).map((m) => [m.body, m.filename])).toEqual([['Segue a nota', 'nota.png']]),
  },
  ...(
    [
      ['read: 2', { read: 2, body: 'x' }, 'read'],
      ["read: '1'", { read: '1', body: 'x' }, 'read'],
      ['fromMe: false', { fromMe: false, body: 'x' }, 'fromMe'],
      ['mediaUrl not a string', { mediaUrl: 5, body: 'x' }, 'mediaUrl'],
      ['quotedMsg without a numeric id', { body: 'x', quotedMsg: { id: 'ABCDEF' } }, 'quotedMsg.id'],
    ] as const
  ).map(([shape, payload, field]): Row => ({
    who: 'refused',
    route: 'POST /messages/:ticketId',
    shape,
    method: 'POST',
    url: () => `/api/messages/${s.ticket.id}`,
    send: () => ({ payload }),
    status: 400,
    answer: { error: 'ERR_VALIDATION', fields: { [field]: 'INVALID' } },
    effect: async () => expect(await newOnPhone()).toEqual([]),
  })),
  {
    who: 'refused',
    route: 'POST /messages/:ticketId',
    shape: 'multipart fromMe=false',
    method: 'POST',
    url: () => `/api/messages/${s.ticket.id}`,
    send: () => multipart([['fromMe', 'false']], [{ name: 'a.png', type: 'image/png', data: PNG }]),
    status: 400,
    answer: { error: 'ERR_VALIDATION', fields: { fromMe: 'INVALID' } },
  },
  {
    who: 'whaticket',
    route: 'DELETE /messages/:messageId',
    shape: 'no body (MessageOptionsMenu)',
    method: 'DELETE',
    url: () => `/api/messages/${s.mediaMessage.id}`,
    status: 204,
    effect: async () => expect((await newOnPhone()).map((m) => m.kind)).toEqual(['delete']),
  },
  // ---------- tickets ----------
  {
    who: 'whaticket',
    route: 'GET /tickets',
    shape: '{ pageNumber, searchParam, status, showAll: "true", queueIds: "[…]" } (TicketsList)',
    method: 'GET',
    url: () => `/api/tickets?pageNumber=1&searchParam=&status=open&showAll=true&queueIds=${encodeURIComponent(JSON.stringify([s.queueId]))}`,
    status: 200,
    effect: async (res) => expect(res.json<{ tickets: TTicket[] }>().tickets.map((x) => x.id)).toContain(s.ticket.id),
  },
  {
    who: 'whaticket',
    route: 'GET /tickets',
    shape: 'Dashboard: { status: "pending", showAll: "true", withUnreadMessages: "false", queueIds: "[…]" } by an agent',
    method: 'GET',
    url: () => `/api/tickets?status=pending&showAll=true&withUnreadMessages=false&queueIds=${encodeURIComponent(JSON.stringify([s.queueId]))}`,
    token: () => s.agent.token,
    status: 200,
    effect: async (res) => expect(res.json()).toMatchObject({ tickets: expect.any(Array), count: expect.any(Number) }),
  },
  {
    who: 'whaticket',
    route: 'GET /tickets',
    shape: 'Dashboard chart: { date: new Date().toISOString() }',
    method: 'GET',
    url: () => `/api/tickets?showAll=true&date=${encodeURIComponent(today.toISOString())}`,
    status: 200,
    effect: async (res) => expect(res.json<{ tickets: TTicket[] }>().tickets.map((x) => x.id)).toContain(s.ticket.id),
  },
  {
    who: 'whaticket',
    route: 'GET /tickets',
    shape: '{ date: <an ISO date-time of another day> }: none of today’s',
    method: 'GET',
    url: () => `/api/tickets?showAll=true&date=${encodeURIComponent(yesterday.toISOString())}`,
    status: 200,
    effect: async (res) => expect(res.json<{ tickets: TTicket[] }>().tickets.map((x) => x.id)).not.toContain(s.ticket.id),
  },
  {
    who: 'ours',
    route: 'GET /tickets',
    shape: '{ date: YYYY-MM-DD }',
    method: 'GET',
    url: () => `/api/tickets?showAll=true&date=${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`,
    status: 200,
    effect: async (res) => expect(res.json<{ tickets: TTicket[] }>().tickets.map((x) => x.id)).toContain(s.ticket.id),
  },
  ...['2026-13-01T10:00:00.000Z', '2026-11-26T10:00', 'yesterday', '2026-02-30'].map((date): Row => ({
    who: 'refused',
    route: 'GET /tickets',
    shape: `date=${date}`,
    method: 'GET',
    url: () => `/api/tickets?date=${date}`,
    status: 400,
    answer: { error: 'ERR_VALIDATION', fields: { date: 'INVALID' } },
  })),
  { who: 'refused', route: 'GET /tickets', shape: 'showAll=1', method: 'GET', url: () => '/api/tickets?showAll=1', status: 400, answer: { error: 'ERR_VALIDATION' } },
  {
    who: 'whaticket',
    route: 'GET /tickets/:id',
    shape: 'no params (Ticket)',
    method: 'GET',
    url: () => `/api/tickets/${s.ticket.id}`,
    status: 200,
    effect: async (res) => expect(res.json()).toMatchObject({ contact: { number: s.ticket.contact.number }, whatsapp: { id: s.phone } }),
  },
  {
    who: 'whaticket',
    route: 'PUT /tickets/:id',
    shape: '{ userId, queueId, whatsappId: false } (a fork’s TransferTicketModal: no connection chosen)',
    method: 'PUT',
    url: () => `/api/tickets/${s.ticket.id}`,
    send: () => ({ payload: { userId: s.agent.id, queueId: s.queueId, whatsappId: false } }),
    status: 200,
    effect: async (res) => expect(res.json()).toMatchObject({ userId: s.agent.id, queueId: s.queueId, whatsappId: s.phone }),
  },
  {
    who: 'whaticket',
    route: 'PUT /tickets/:id',
    shape: "{ queueId, status: 'pending', userId: null, whatsappId: '' } (TransferTicketModal to a queue)",
    method: 'PUT',
    url: () => `/api/tickets/${s.ticket.id}`,
    send: () => ({ payload: { queueId: s.queueId, status: 'pending', userId: null, whatsappId: '' } }),
    status: 200,
    effect: async (res) => expect(res.json()).toMatchObject({ status: 'pending', userId: null, whatsappId: s.phone }),
  },
  {
    who: 'whaticket',
    route: 'PUT /tickets/:id',
    shape: "{ status: 'open', userId } (TicketListItem / TicketActionButtons accept)",
    method: 'PUT',
    url: () => `/api/tickets/${s.ticket.id}`,
    send: () => ({ payload: { status: 'open', userId: s.adminId } }),
    status: 200,
    effect: async (res) => expect(res.json()).toMatchObject({ status: 'open', userId: s.adminId }),
  },
  {
    who: 'refused',
    route: 'PUT /tickets/:id',
    shape: 'whatsappId: true',
    method: 'PUT',
    url: () => `/api/tickets/${s.ticket.id}`,
    send: () => ({ payload: { whatsappId: true } }),
    status: 400,
    answer: { error: 'ERR_VALIDATION', fields: { whatsappId: 'INVALID' } },
  },
  {
    who: 'refused',
    route: 'PUT /tickets/:id',
    shape: "whatsappId: '2' (a string id)",
    method: 'PUT',
    url: () => `/api/tickets/${s.ticket.id}`,
    send: () => ({ payload: { whatsappId: '2' } }),
    status: 400,
    answer: { error: 'ERR_VALIDATION', fields: { whatsappId: 'INVALID' } },
  },
  {
    who: 'whaticket',
    route: 'PUT /tickets/:id',
    shape: "{ status: 'closed', userId: null } (TicketActionButtons resolve; useTickets auto-close)",
    method: 'PUT',
    url: () => `/api/tickets/${s.ticket.id}`,
    send: () => ({ payload: { status: 'closed', userId: null } }),
    status: 200,
    effect: async (res) => expect(res.json()).toMatchObject({ status: 'closed' }),
  },
  {
    who: 'whaticket',
    route: 'POST /tickets',
    shape: "{ contactId, userId, status: 'open' } (NewTicketModal, Contacts, VcardPreview)",
    method: 'POST',
    url: () => '/api/tickets',
    send: () => ({ payload: { contactId: s.ticket.contactId, userId: s.adminId, status: 'open' } }),
    status: 201,
    effect: async (res) => expect(res.json()).toMatchObject({ contactId: s.ticket.contactId, status: 'open', userId: s.adminId }),
  },
  {
    who: 'whaticket',
    route: 'DELETE /tickets/:id',
    shape: 'no body (TicketOptionsMenu)',
    method: 'DELETE',
    url: () => `/api/tickets/${s.other.id}`,
    status: 204,
    effect: async () => expect((await t.request({ method: 'GET', url: `/api/tickets/${s.other.id}`, token: t.adminToken })).statusCode).toBe(404),
  },
  // ---------- contacts ----------
  {
    who: 'whaticket',
    route: 'GET /contacts/',
    shape: 'trailing slash, { searchParam, pageNumber } (Contacts page)',
    method: 'GET',
    url: () => '/api/contacts/?searchParam=&pageNumber=1',
    status: 200,
    effect: async (res) => expect(res.json<{ contacts: TContact[] }>().contacts.map((c) => c.id)).toContain(s.ticket.contactId),
  },
  {
    who: 'whaticket',
    route: 'GET /contacts',
    shape: '{ searchParam } (NewTicketModal)',
    method: 'GET',
    url: () => `/api/contacts?searchParam=${s.ticket.contact.number}`,
    status: 200,
    effect: async (res) => expect(res.json<{ contacts: TContact[] }>().contacts.map((c) => c.id)).toEqual([s.ticket.contactId]),
  },
  { who: 'refused', route: 'GET /contacts//', shape: 'two trailing slashes', method: 'GET', url: () => '/api/contacts//', status: 404, answer: { error: 'ERR_NOT_FOUND' } },
  {
    who: 'whaticket',
    route: 'POST /contacts',
    shape: '{ name, number, email: "", extraInfo: [{ name, value }] } (ContactModal)',
    method: 'POST',
    url: () => '/api/contacts',
    send: () => ({ payload: { name: 'Loja Centro', number: '5511987650001', email: '', extraInfo: [{ name: 'CPF', value: '123.456.789-00' }] } }),
    status: 201,
    effect: async (res) => {
      s.contact = res.json<TContact>();
      expect(s.contact).toMatchObject({ name: 'Loja Centro', extraInfo: [{ name: 'CPF', value: '123.456.789-00' }] });
    },
  },
  {
    who: 'whaticket',
    route: 'PUT /contacts/:id',
    shape: 'extraInfo with a row added and left blank ({ name: "", value: "" }): the blank row is dropped',
    method: 'PUT',
    url: () => `/api/contacts/${s.contact.id}`,
    send: () => ({ payload: { name: s.contact.name, number: s.contact.number, email: '', extraInfo: [...s.contact.extraInfo, { name: '', value: '' }] } }),
    status: 200,
    effect: async (res) => expect(res.json<TContact>().extraInfo).toMatchObject([{ name: 'CPF', value: '123.456.789-00' }]),
  },
  {
    who: 'refused',
    route: 'PUT /contacts/:id',
    shape: 'an extraInfo row with a value and no name',
    method: 'PUT',
    url: () => `/api/contacts/${s.contact.id}`,
    send: () => ({ payload: { name: s.contact.name, number: s.contact.number, extraInfo: [{ name: '', value: 'sem nome' }] } }),
    status: 400,
    answer: { error: 'ERR_VALIDATION' },
  },
  {
    who: 'whaticket',
    route: 'GET /contacts/:id',
    shape: 'no params (ContactModal, ContactDrawer)',
    method: 'GET',
    url: () => `/api/contacts/${s.contact.id}`,
    status: 200,
    effect: async (res) => expect(res.json<TContact>().extraInfo).toMatchObject([{ id: expect.any(Number), name: 'CPF' }]),
  },
  {
    who: 'whaticket',
    route: 'PUT /contacts/:id',
    shape: 'the contact as read back, edited (ids, dates and profilePicUrl ride along)',
    method: 'PUT',
    url: () => `/api/contacts/${s.contact.id}`,
    send: () => ({ payload: { ...s.contact, name: 'Loja Centro SP', extraInfo: [...s.contact.extraInfo, { name: 'Cidade', value: 'São Paulo' }] } }),
    status: 200,
    effect: async (res) => expect(res.json<TContact>()).toMatchObject({ name: 'Loja Centro SP', extraInfo: [{ name: 'CPF' }, { name: 'Cidade', value: 'São Paulo' }] }),
  },
  {
    who: 'whaticket',
    route: 'POST /contact',
    shape: '{ name, number, email: "" } (VcardPreview: a shared contact card)',
    method: 'POST',
    url: () => '/api/contact',
    send: () => ({ payload: { name: 'Cartão', number: '5511987650002', email: '' } }),
    status: 200,
    effect: async (res) => expect(res.json()).toMatchObject({ name: 'Cartão', number: '5511987650002' }),
  },
  {
    who: 'refused',
    route: 'POST /contact',
    shape: 'number: false (VcardPreview with a card without a number)',
    method: 'POST',
    url: () => '/api/contact',
    send: () => ({ payload: { name: 'Sem número', number: false, email: '' } }),
    status: 400,
    answer: { error: 'ERR_VALIDATION' },
  },
  {
    who: 'whaticket',
    route: 'POST /contacts/import',
    shape: "no body (Contacts page 'Import from phone')",
    method: 'POST',
    url: () => '/api/contacts/import',
    status: 400,
    answer: { error: 'ERR_INVALID_CSV', message: expect.stringContaining('not imported from the phone') },
  },
  {
    who: 'ours',
    route: 'POST /contacts/import',
    shape: 'multipart file=<CSV>',
    method: 'POST',
    url: () => '/api/contacts/import',
    send: () => {
      const body = Buffer.from('--b\r\nContent-Disposition: form-data; name="file"; filename="c.csv"\r\nContent-Type: text/csv\r\n\r\nname,number\r\nImportado,5511987650003\r\n\r\n--b--\r\n');
      return { payload: body, headers: { 'content-type': 'multipart/form-data; boundary=b' } };
    },
    status: 200,
    answer: { created: 1 },
  },
  {
    who: 'whaticket',
    route: 'DELETE /contacts/:id',
    shape: 'no body (Contacts page)',
    method: 'DELETE',
    url: () => `/api/contacts/${s.contact.id}`,
    status: 204,
  },
];

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on', FRONTEND_URL: 'http://atendimento.example' });
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Loja', channel: 'simulator', isDefault: true } });
  s.phone = created.json<{ id: number }>().id;
  await t.request({ method: 'POST', url: `/api/simulator/${s.phone}/scan`, token: t.adminToken });
  s.adminId = (await t.login(ADMIN.email, ADMIN.password)).user.id;
  s.queueId = (await t.createQueue({ name: 'Vendas' })).id;
  const agent = await t.createUser({ queueIds: [s.queueId] });
  s.agent = { id: agent.user.id, token: agent.token };
  s.ticket = await t.inboundTicket(s.phone, 'Olá, quero um orçamento');
  s.other = await t.inboundTicket(s.phone, 'Outro cliente');
  await t.request({ method: 'PUT', url: `/api/tickets/${s.ticket.id}`, token: t.adminToken, payload: { status: 'open', userId: s.adminId } });
});
afterAll(async () => {
  await t.close();
});

describe('whaticket frontend: messages, tickets, contacts, dashboard', () => {
  it.each(TABLE.map((row, i) => [`${i + 1}. [${row.who}] ${row.method} ${row.route}: ${row.shape}`, row] as const))('%s', async (_, row) => {
    s.outboxBefore = (await outbox()).length;
    const { payload, headers } = row.send?.() ?? {};
    const res = await t.request({
      method: row.method,
      url: row.url(),
      token: row.token?.() ?? t.adminToken,
      ...(headers ? { headers } : {}),
      ...(payload === undefined ? {} : { payload: payload as string }),
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(row.status);
    if (row.answer) expect(res.json()).toMatchObject(row.answer);
    await row.effect?.(res);
  });
});
