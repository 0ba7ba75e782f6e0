/**
 * whaticket's integration API, POST /api/messages/send, called as whaticket documents it: a
 * table of calls (shape sent, expected status and answer) run on this test's database, then what
 * each accepted call did (contact, ticket, stored message, the simulated phone's outbox), the
 * throttle of wrong tokens, the audit rows, and POST /api/messages/:ticketId left as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TApiTokenCreated } from '@zapdesk/shared/api-tokens';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import { API_TOKEN_FAILURES_PER_MINUTE } from '../features/campaigns/tool-auth.js';
import { createTestApp, type TestApp } from '../test/harness.js';

/** The smallest PNG: a 1×1 transparent pixel. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

let t: TestApp;
let phone: number;
let userApiToken: string;
let sendToken: string;
let groupsToken: string;
let n = 0;
const nextNumber = () => `55119${String((n += 1)).padStart(8, '0')}`;

function multipart(fields: Record<string, string>, files: { field?: string; name: string; type: string; data: Buffer }[]) {
  const boundary = 'whaticketintegrationboundary';
  const parts = [
    ...Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)),
    ...files.flatMap((file) => [
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'medias'}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`),
      file.data,
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${boundary}--\r\n`),
  ];
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function outbox(): Promise<TSimulatorOutboxItem[]> {
  return (await t.request({ method: 'GET', url: `/api/simulator/${phone}/outbox`, token: t.adminToken })).json();
}

async function ticketsOf(number: string): Promise<TTicket[]> {
  const contact = await t.ctx.db.selectFrom('contacts').select('id').where('number', '=', number).executeTakeFirst();
  if (!contact) return [];
  const rows = await t.ctx.db.selectFrom('tickets').select('id').where('contactId', '=', contact.id).orderBy('id').execute();
  return Promise.all(rows.map(async (r) => (await t.request({ method: 'GET', url: `/api/tickets/${r.id}`, token: t.adminToken })).json<TTicket>()));
}

async function messagesOf(ticketId: number): Promise<TMessage[]> {
  return (await t.request({ method: 'GET', url: `/api/messages/${ticketId}`, token: t.adminToken })).json<{ messages: TMessage[] }>().messages;
}

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Padrão', channel: 'simulator', isDefault: true } });
  phone = created.json<{ id: number }>().id;
  await t.request({ method: 'POST', url: `/api/simulator/${phone}/scan`, token: t.adminToken });
  const settings = (await t.request({ method: 'GET', url: '/api/settings', token: t.adminToken })).json<{ key: string; value: string }[]>();
  userApiToken = settings.find((s) => s.key === 'userApiToken')?.value ?? '';
  const named = async (permissions: string[]) =>
    (await t.request({ method: 'POST', url: '/api/api-tokens', token: t.adminToken, payload: { name: `CRM ${permissions.join()}`, permissions } })).json<TApiTokenCreated>().token;
  sendToken = await named(['campaigns']);
  groupsToken = await named(['groups']);
});
afterAll(async () => {
  await t.close();
});

type Row = {
  case: string;
  /** Who calls: a token name, a raw Authorization header, or nobody. */
  auth: 'userApiToken' | 'named' | 'namedWithoutSend' | 'session' | { header: string } | null;
  send: () => { payload?: unknown; headers?: Record<string, string> };
  status: number;
  /** The answer's JSON for errors; whaticket's empty body for 200. */
  answer?: Record<string, unknown>;
  /** What reaches the phone for the number, for 200s. */
  delivered?: { kind: 'text' | 'media'; body: string; filename?: string }[];
};

const numbers = new Map<string, string>();
const numberFor = (key: string) => numbers.get(key) ?? (numbers.set(key, nextNumber()), numbers.get(key) ?? '');

const TABLE: Row[] = [
  {
    case: 'JSON {number, body}, userApiToken',
    auth: 'userApiToken',
    send: () => ({ payload: { number: numberFor('a'), body: 'Pedido 1 enviado' } }),
    status: 200,
    delivered: [{ kind: 'text', body: 'Pedido 1 enviado' }],
  },
  {
    case: 'number with dashes and spaces, as whaticket strips them',
    auth: 'userApiToken',
    send: () => ({ payload: { number: numberFor('b').replace(/^(\d{2})(\d{2})(\d+)$/, '$1 $2 $3-'), body: 'Com traço' } }),
    status: 200,
    delivered: [{ kind: 'text', body: 'Com traço' }],
  },
  {
    case: 'JSON with whatsappId',
    auth: 'named',
    send: () => ({ payload: { number: numberFor('c'), body: 'Pela conexão', whatsappId: phone } }),
    status: 200,
    delivered: [{ kind: 'text', body: 'Pela conexão' }],
  },
  {
    case: 'multipart medias + body as caption, named token',
    auth: 'named',
    send: () => multipart({ number: numberFor('d'), body: 'Sua nota' }, [{ name: 'nota.png', type: 'image/png', data: PNG }]),
    status: 200,
    delivered: [{ kind: 'media', body: 'Sua nota', filename: 'nota.png' }],
  },
  {
    case: 'multipart two files, no body',
    auth: 'userApiToken',
    send: () =>
      multipart({ number: numberFor('e') }, [
        { name: 'a.png', type: 'image/png', data: PNG },
        { name: 'b.txt', type: 'text/plain', data: Buffer.from('texto') },
      ]),
    status: 200,
    delivered: [
      { kind: 'media', body: '', filename: 'a.png' },
      { kind: 'media', body: '', filename: 'b.txt' },
    ],
  },
  { case: 'no Authorization header', auth: null, send: () => ({ payload: { number: numberFor('x'), body: 'x' } }), status: 401, answer: { error: 'ERR_SESSION_EXPIRED' } },
  { case: 'wrong token', auth: { header: 'Bearer not-the-token' }, send: () => ({ payload: { number: numberFor('x'), body: 'x' } }), status: 401, answer: { error: 'ERR_SESSION_EXPIRED' } },
  { case: 'token without Bearer', auth: { header: 'Basic abc' }, send: () => ({ payload: { number: numberFor('x'), body: 'x' } }), status: 401, answer: { error: 'ERR_SESSION_EXPIRED' } },
  { case: "a user's session is not an API token", auth: 'session', send: () => ({ payload: { number: numberFor('x'), body: 'x' } }), status: 401, answer: { error: 'ERR_SESSION_EXPIRED' } },
  { case: "named token without 'campaigns'", auth: 'namedWithoutSend', send: () => ({ payload: { number: numberFor('x'), body: 'x' } }), status: 403, answer: { error: 'ERR_NO_PERMISSION' } },
  {
    case: 'number with letters',
    auth: 'userApiToken',
    send: () => ({ payload: { number: '55abc11999', body: 'x' } }),
    status: 400,
    answer: { error: 'ERR_VALIDATION', fields: { number: 'DIGITS_ONLY' } },
  },
  {
    case: 'number with +',
    auth: 'userApiToken',
    send: () => ({ payload: { number: '+5511999990000', body: 'x' } }),
    status: 400,
    answer: { error: 'ERR_VALIDATION', fields: { number: 'DIGITS_ONLY' } },
  },
  { case: 'number missing', auth: 'userApiToken', send: () => ({ payload: { body: 'x' } }), status: 400, answer: { error: 'ERR_VALIDATION', fields: { number: 'REQUIRED' } } },
  {
    case: 'number as a JSON number',
    auth: 'userApiToken',
    send: () => ({ payload: { number: 5511999990000, body: 'x' } }),
    status: 400,
    answer: { error: 'ERR_VALIDATION', fields: { number: 'INVALID' } },
  },
  { case: 'empty body', auth: 'userApiToken', send: () => ({ payload: { number: numberFor('x'), body: '  ' } }), status: 400, answer: { error: 'ERR_VALIDATION', fields: { body: 'REQUIRED' } } },
  { case: 'no JSON body at all', auth: 'userApiToken', send: () => ({}), status: 400, answer: { error: 'ERR_VALIDATION' } },
  {
    case: 'unknown field',
    auth: 'userApiToken',
    send: () => ({ payload: { number: numberFor('x'), body: 'x', quotedMsg: { id: 1 } } }),
    status: 400,
    answer: { error: 'ERR_VALIDATION', fields: { body: 'UNKNOWN' } },
  },
  {
    case: 'whatsappId that does not exist',
    auth: 'userApiToken',
    send: () => ({ payload: { number: numberFor('x'), body: 'x', whatsappId: 99999 } }),
    status: 404,
    answer: { error: 'ERR_NO_WAPP_FOUND' },
  },
  { case: 'number without a WhatsApp account', auth: 'userApiToken', send: () => ({ payload: { number: '00011999990000', body: 'x' } }), status: 400, answer: { error: 'ERR_WAPP_INVALID_CONTACT' } },
  {
    case: 'multipart, file in another field',
    auth: 'userApiToken',
    send: () => multipart({ number: numberFor('x') }, [{ field: 'file', name: 'a.png', type: 'image/png', data: PNG }]),
    status: 400,
    answer: { error: 'ERR_VALIDATION' },
  },
  {
    case: 'multipart, neither body nor files',
    auth: 'userApiToken',
    send: () => multipart({ number: numberFor('x') }, []),
    status: 400,
    answer: { error: 'ERR_VALIDATION', fields: { body: 'REQUIRED' } },
  },
  { case: 'multipart, bad number', auth: 'userApiToken', send: () => multipart({ number: 'abc', body: 'x' }, []), status: 400, answer: { error: 'ERR_VALIDATION', fields: { number: 'DIGITS_ONLY' } } },
];

function authHeader(auth: Row['auth']): Record<string, string> {
  if (auth === null) return {};
  if (typeof auth === 'object') return { authorization: auth.header };
  const token = { userApiToken, named: sendToken, namedWithoutSend: groupsToken, session: t.adminToken }[auth];
  return { authorization: `Bearer ${token}` };
}

describe('POST /api/messages/send (whaticket integration API)', () => {
  it.each(TABLE.map((row) => [row.case, row] as const))('%s', async (_, row) => {
    const before = (await outbox()).length;
    const { payload, headers } = row.send();
    const res = await t.request({
      method: 'POST',
      url: '/api/messages/send',
      headers: { ...(headers ?? {}), ...authHeader(row.auth) },
      ...(payload === undefined ? {} : { payload: payload as string }),
    });
    expect(res.statusCode, res.body).toBe(row.status);
    if (row.status === 200) {
      // whaticket answers `res.send()`: 200 and nothing else.
      expect(res.body).toBe('');
      const sent = (await outbox()).slice(before);
      expect(sent.map((m) => ({ kind: m.kind, body: m.body, ...(m.filename && m.kind === 'media' ? { filename: m.filename } : {}) }))).toEqual(row.delivered);
      expect(new Set(sent.map((m) => m.to)).size).toBe(1);
      return;
    }
    expect(res.json()).toMatchObject(row.answer ?? {});
    expect((await outbox()).length).toBe(before);
  });

  it('creates the contact named by its number and a pending ticket on the default connection; the message is stored, sent and automatic', async () => {
    const number = nextNumber();
    const res = await t.request({ method: 'POST', url: '/api/messages/send', headers: { authorization: `Bearer ${userApiToken}` }, payload: { number, body: 'Seu pedido saiu' } });
    expect(res.statusCode).toBe(200);
    const [ticket, ...others] = await ticketsOf(number);
    expect(others).toHaveLength(0);
    expect(ticket).toMatchObject({ status: 'pending', userId: null, whatsappId: phone, lastMessage: 'Seu pedido saiu', contact: { name: number, number } });
    const [message] = await messagesOf(ticket?.id ?? 0);
    expect(message).toMatchObject({ body: 'Seu pedido saiu', fromMe: true, sendStatus: 'sent' });
    const row = await t.ctx.db
      .selectFrom('messages')
      .select(['automatic', 'userId'])
      .where('id', '=', message?.id ?? 0)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ userId: null });
    expect(Boolean(row.automatic)).toBe(true);
  });

  it('reuses the open ticket of a known contact (found in either Brazilian form), and reopens one closed within two hours', async () => {
    const ticket = await t.inboundTicket(phone, 'Oi, quero saber do pedido');
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open' } });
    const send = (body: string) => t.request({ method: 'POST', url: '/api/messages/send', headers: { authorization: `Bearer ${userApiToken}` }, payload: { number: ticket.contact.number, body } });
    expect((await send('Está a caminho')).statusCode).toBe(200);
    expect((await ticketsOf(ticket.contact.number)).map((x) => [x.id, x.status])).toEqual([[ticket.id, 'open']]);
    expect((await messagesOf(ticket.id)).map((m) => m.body)).toEqual(['Oi, quero saber do pedido', 'Está a caminho']);
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'closed' } });
    expect((await send('Entregue')).statusCode).toBe(200);
    expect((await ticketsOf(ticket.contact.number)).map((x) => [x.id, x.status, x.userId])).toEqual([[ticket.id, 'pending', null]]);
    // A closed ticket older than two hours stays closed: a new one is opened.
    await t.ctx.db
      .updateTable('tickets')
      .set({ status: 'closed', updatedAt: new Date(Date.now() - 3 * 3600_000).toISOString() })
      .where('id', '=', ticket.id)
      .execute();
    expect((await send('Nova compra')).statusCode).toBe(200);
    const after = await ticketsOf(ticket.contact.number);
    expect(after.map((x) => x.status)).toEqual(['closed', 'pending']);
    expect((await messagesOf(after[1]?.id ?? 0)).map((m) => m.body)).toEqual(['Nova compra']);
  });

  it('keeps POST /api/messages/:ticketId as the inbox send (the static path does not shadow it)', async () => {
    const ticket = await t.inboundTicket(phone, 'Olá');
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open' } });
    const res = await t.request({ method: 'POST', url: `/api/messages/${ticket.id}`, token: t.adminToken, payload: { body: 'Resposta do atendente' } });
    expect(res.statusCode).toBe(201);
    expect(res.json<TMessage[]>()[0]).toMatchObject({ body: 'Resposta do atendente', ticketId: ticket.id });
    // And a session is no key to the integration route, while the inbox route refuses the API token.
    expect((await t.request({ method: 'POST', url: '/api/messages/send', token: t.adminToken, payload: { body: 'x' } })).statusCode).toBe(401);
    expect((await t.request({ method: 'POST', url: `/api/messages/${ticket.id}`, headers: { authorization: `Bearer ${userApiToken}` }, payload: { body: 'x' } })).statusCode).toBe(401);
  });

  it('audits each send and each refusal under the token that made it', async () => {
    const rows = await t.ctx.db.selectFrom('auditEvents').selectAll().where('action', '=', 'apiToken.use').execute();
    const ok = rows.filter((r) => r.outcome === 'ok');
    expect(ok.some((r) => r.actorName === 'userApiToken')).toBe(true);
    expect(ok.some((r) => r.actorName === 'CRM campaigns')).toBe(true);
    const denied = rows.filter((r) => r.outcome === 'denied');
    expect(denied.filter((r) => r.statusCode === 401).length).toBeGreaterThanOrEqual(3);
    expect(denied.some((r) => r.statusCode === 403 && r.actorName === 'CRM groups')).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(userApiToken);
  });

  it('throttles an address that guesses tokens: past the limit even the right token gets 429 (the tool API shares the count)', async () => {
    const ip = '203.0.113.77';
    const call = (token: string, url = '/api/messages/send') =>
      t.request({ method: 'POST', url, remoteAddress: ip, headers: { authorization: `Bearer ${token}` }, payload: { number: nextNumber(), body: 'x' } });
    for (let i = 0; i < API_TOKEN_FAILURES_PER_MINUTE; i += 1) expect((await call(`guess-${i}`)).statusCode).toBe(401);
    const blocked = await call(userApiToken);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ error: 'ERR_TOO_MANY_REQUESTS' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The tool API counts the same guesses: the address is refused there too.
    const tool = await t.request({
      method: 'POST',
      url: '/api/zdg',
      remoteAddress: ip,
      headers: { authorization: `Bearer ${userApiToken}` },
      payload: { number: nextNumber(), message: 'x', ticketwhatsappId: phone },
    });
    expect(tool.statusCode).toBe(429);
    // Another address is not affected.
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/messages/send',
          remoteAddress: '203.0.113.78',
          headers: { authorization: `Bearer ${userApiToken}` },
          payload: { number: nextNumber(), body: 'y' },
        })
      ).statusCode,
    ).toBe(200);
  });
});
