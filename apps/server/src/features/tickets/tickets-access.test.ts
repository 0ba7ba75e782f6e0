/** Bad input and permissions on the ticket, message, media and simulator routes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { TQueue, TWhatsapp } from '@zapdesk/shared/schemas';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let sales: TQueue;
let w: TWhatsapp;
let ticket: TTicket;
let salesAgent: string;
let supportAgent: string;

async function waitForTicket(number: string, ready: (x: TTicket) => boolean = () => true): Promise<TTicket> {
  const until = Date.now() + 5000;
  for (;;) {
    const list = (await t.request({ method: 'GET', url: '/api/tickets?showAll=true', token: t.adminToken })).json().tickets as TTicket[];
    const found = list.find((x) => x.contact.number === number && x.lastMessage !== '' && ready(x));
    if (found) return found;
    if (Date.now() > until) throw new Error('no ticket');
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  sales = await t.createQueue({ name: 'Sales' });
  const support = await t.createQueue({ name: 'Support' });
  salesAgent = (await t.createUser({ queueIds: [sales.id] })).token;
  supportAgent = (await t.createUser({ queueIds: [support.id] })).token;
  w = (await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Sales line', channel: 'simulator', queueIds: [sales.id] } })).json();
  await t.request({ method: 'POST', url: `/api/simulator/${w.id}/scan`, token: t.adminToken });
  await t.request({ method: 'POST', url: `/api/simulator/${w.id}/inbound`, token: t.adminToken, payload: { from: '5511955550000', name: 'Cliente', body: 'quero comprar' } });
  ticket = await waitForTicket('5511955550000', (x) => x.queueId !== null);
});
afterAll(async () => {
  await t.close();
});

describe('ticket visibility', () => {
  it('shows a queued ticket to its queue agents and admins; to the others it does not exist', async () => {
    expect(ticket.queueId).toBe(sales.id);
    expect((await t.request({ method: 'GET', url: `/api/tickets/${ticket.id}`, token: salesAgent })).statusCode).toBe(200);
    for (const [method, url, payload] of [
      ['GET', `/api/tickets/${ticket.id}`, undefined],
      ['GET', `/api/messages/${ticket.id}`, undefined],
      ['PUT', `/api/tickets/${ticket.id}`, { status: 'open' }],
      ['POST', `/api/messages/${ticket.id}`, { body: 'not mine' }],
    ] as const) {
      const res = await t.request({ method, url, token: supportAgent, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toMatchObject({ error: 'ERR_NO_TICKET_FOUND' });
    }
    const supportList = (await t.request({ method: 'GET', url: '/api/tickets', token: supportAgent })).json().tickets as TTicket[];
    expect(supportList.map((x) => x.id)).not.toContain(ticket.id);
    const salesList = (await t.request({ method: 'GET', url: '/api/tickets', token: salesAgent })).json().tickets as TTicket[];
    expect(salesList.map((x) => x.id)).toContain(ticket.id);
  });

  it('hides a ticket another agent accepted, even from the same queue, unless one is admin', async () => {
    const other = (await t.createUser({ queueIds: [sales.id] })).token;
    await t.request({ method: 'POST', url: `/api/simulator/${w.id}/inbound`, token: t.adminToken, payload: { from: '5511955551111', body: 'oi' } });
    const mine = await waitForTicket('5511955551111', (x) => x.queueId !== null);
    expect((await t.request({ method: 'PUT', url: `/api/tickets/${mine.id}`, token: salesAgent, payload: { status: 'open' } })).json()).toMatchObject({ status: 'open' });
    expect((await t.request({ method: 'GET', url: `/api/tickets/${mine.id}`, token: other })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/tickets/${mine.id}`, token: t.adminToken })).statusCode).toBe(200);
  });

  it('shows a user in no queue (a fresh sign-up) no ticket at all, not even one without a queue; admins see it', async () => {
    const loose = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Queue-less line', channel: 'simulator' } });
    const looseId = loose.json<{ id: number }>().id;
    await t.request({ method: 'POST', url: `/api/simulator/${looseId}/scan`, token: t.adminToken });
    const free = await t.inboundTicket(looseId, 'sem fila');
    expect(free).toMatchObject({ queueId: null, userId: null, status: 'pending' });
    await t.request({ method: 'PUT', url: '/api/settings/userCreation', token: t.adminToken, payload: { value: 'enabled' } });
    const signup = await t.request({ method: 'POST', url: '/api/auth/signup', payload: { name: 'Newcomer', email: 'newcomer@test.local', password: 'pass-1234' } });
    expect(signup.json()).toMatchObject({ queues: [] });
    await t.request({ method: 'PUT', url: '/api/settings/userCreation', token: t.adminToken, payload: { value: 'disabled' } });
    const newcomer = (await t.login('newcomer@test.local', 'pass-1234')).token;

    for (const status of ['pending', 'open', 'closed']) {
      const list = (await t.request({ method: 'GET', url: `/api/tickets?status=${status}`, token: newcomer })).json<{ tickets: TTicket[]; count: number }>();
      expect(list, status).toMatchObject({ tickets: [], count: 0 });
    }
    for (const url of [`/api/tickets/${free.id}`, `/api/messages/${free.id}`, `/api/tickets/${ticket.id}`]) {
      expect((await t.request({ method: 'GET', url, token: newcomer })).statusCode, url).toBe(404);
    }
    // Agents of a queue see the queue-less ticket; admins see everything.
    expect((await t.request({ method: 'GET', url: `/api/tickets/${free.id}`, token: salesAgent })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/api/tickets/${free.id}`, token: t.adminToken })).statusCode).toBe(200);
    // An admin in no queue, with 'All' off, still has the inbox of tickets without a queue.
    const adminList = (await t.request({ method: 'GET', url: '/api/tickets?status=pending', token: t.adminToken })).json<{ tickets: TTicket[] }>().tickets;
    expect(adminList.map((x) => x.id)).toContain(free.id);
    const salesList = (await t.request({ method: 'GET', url: '/api/tickets?status=pending', token: salesAgent })).json<{ tickets: TTicket[] }>().tickets;
    expect(salesList.map((x) => x.id)).toContain(free.id);

    // Once an admin gives the newcomer a ticket, it is theirs to see, whatever the queues.
    const me = (await t.request({ method: 'GET', url: '/api/users?searchParam=newcomer', token: t.adminToken })).json<{ users: { id: number }[] }>().users[0];
    expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { userId: me?.id } })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/api/tickets/${ticket.id}`, token: newcomer })).statusCode).toBe(200);
    const mine = (await t.request({ method: 'GET', url: '/api/tickets?status=open', token: newcomer })).json<{ tickets: TTicket[] }>().tickets;
    expect(mine.map((x) => x.id)).toEqual([ticket.id]);
    // The queue filter of the lists never hides one's own tickets.
    const filtered = (await t.request({ method: 'GET', url: '/api/tickets?status=open&queueIds=[]', token: newcomer })).json<{ tickets: TTicket[] }>().tickets;
    expect(filtered.map((x) => x.id)).toEqual([ticket.id]);
    // Back to the sales queue's waiting list for the tests that follow.
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'pending' } });
  });
});

describe('connection of a ticket', () => {
  it('tells the connection id to those who may see the ticket', async () => {
    expect((await t.request({ method: 'POST', url: '/api/zdgGetWppId', token: salesAgent, payload: { ticketid: ticket.id } })).json()).toEqual({ whatsappId: w.id });
    expect((await t.request({ method: 'POST', url: '/api/zdgGetWppId', token: supportAgent, payload: { ticketid: ticket.id } })).json()).toMatchObject({ error: 'ERR_NO_TICKET_FOUND' });
    expect((await t.request({ method: 'POST', url: '/api/zdgGetWppId', token: salesAgent, payload: { ticketid: 'x' } })).json()).toMatchObject({ error: 'ERR_VALIDATION' });
  });
});

describe('what lies beyond what one may see answers like what does not exist', () => {
  const answer = async (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, token: string, payload?: Record<string, unknown>) => {
    const res = await t.request({ method, url, token, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
  };

  it('refuses a ticket on a contact one may not see exactly as on a contact that does not exist, whatever the connection: no ticket, no reading, no message', async () => {
    const other = (await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Second line', channel: 'simulator' } })).json<TWhatsapp>();
    await t.request({ method: 'POST', url: `/api/simulator/${other.id}/scan`, token: t.adminToken });
    const ticketsOf = async () =>
      (await t.request({ method: 'GET', url: `/api/tickets?showAll=true&searchParam=${ticket.contact.number}`, token: t.adminToken })).json<{ tickets: TTicket[] }>().tickets.map((x) => x.id);
    const before = await ticketsOf();
    const missing = await answer('POST', '/api/tickets', supportAgent, { contactId: 999999 });
    expect(missing).toMatchObject({ status: 404, body: { error: 'ERR_NO_CONTACT_FOUND' } });
    // Another connection (where it opened today), the default one (with the contact's waiting ticket), an unknown one.
    for (const extra of [{ whatsappId: other.id }, {}, { whatsappId: w.id }, { whatsappId: 999999 }]) {
      expect(await answer('POST', '/api/tickets', supportAgent, { contactId: ticket.contactId, status: 'open', ...extra }), JSON.stringify(extra)).toEqual(missing);
      expect(await answer('POST', '/api/tickets', supportAgent, { contactId: 999999, status: 'open', ...extra }), JSON.stringify(extra)).toEqual(missing);
    }
    expect(await ticketsOf()).toEqual(before);
    expect(await answer('GET', `/api/contacts/${ticket.contactId}`, supportAgent)).toEqual(await answer('GET', '/api/contacts/999999', supportAgent));
    const outbox = (await t.request({ method: 'GET', url: `/api/simulator/${other.id}/outbox`, token: t.adminToken })).json<unknown[]>();
    expect(outbox).toEqual([]);
    // Those who may see the contact open a ticket on the other connection as before.
    const opened = await answer('POST', '/api/tickets', salesAgent, { contactId: ticket.contactId, status: 'open', whatsappId: other.id });
    expect(opened).toMatchObject({ status: 201, body: { contactId: ticket.contactId, whatsappId: other.id, status: 'open' } });
    await t.request({ method: 'DELETE', url: `/api/tickets/${String(opened.body.id)}`, token: t.adminToken });
  });

  it('answers a ticket one may not see, on every route that takes one, exactly as a ticket that does not exist', async () => {
    for (const [method, url, payload] of [
      ['GET', '/api/tickets/{id}', undefined],
      ['PUT', '/api/tickets/{id}', { status: 'open' }],
      ['POST', '/api/tickets/{id}/protocol', undefined],
      ['GET', '/api/messages/{id}', undefined],
      ['POST', '/api/messages/{id}', { body: 'not mine' }],
      ['GET', '/api/chatbot/tickets/{id}', undefined],
    ] as const) {
      const hidden = await answer(method, url.replace('{id}', String(ticket.id)), supportAgent, payload);
      const missing = await answer(method, url.replace('{id}', '999999'), supportAgent, payload);
      expect(missing, `${method} ${url}`).toMatchObject({ status: 404, body: { error: 'ERR_NO_TICKET_FOUND' } });
      expect(hidden, `${method} ${url}`).toEqual(missing);
    }
    expect(await answer('POST', '/api/zdgGetWppId', supportAgent, { ticketid: ticket.id })).toEqual(await answer('POST', '/api/zdgGetWppId', supportAgent, { ticketid: 999999 }));
  });

  it('answers a message of a ticket one may not see exactly as a message that does not exist', async () => {
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open' } });
    const sent = await t.request({ method: 'POST', url: `/api/messages/${ticket.id}`, token: t.adminToken, payload: { body: 'só do admin' } });
    const message = sent.json<TMessage[]>()[0];
    if (!message) throw new Error('no message');
    for (const [method, url] of [
      ['DELETE', '/api/messages/{id}'],
      ['POST', '/api/messages/{id}/retry'],
    ] as const) {
      const missing = await answer(method, url.replace('{id}', '999999'), supportAgent);
      expect(missing, `${method} ${url}`).toMatchObject({ status: 404, body: { error: 'ERR_NO_MESSAGE_FOUND' } });
      expect(await answer(method, url.replace('{id}', String(message.id)), supportAgent), `${method} ${url}`).toEqual(missing);
    }
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'pending' } });
  });

  it('tells one who may see the contact that it already has an active ticket, naming no ticket', async () => {
    const again = await answer('POST', '/api/tickets', salesAgent, { contactId: ticket.contactId, status: 'open', whatsappId: w.id });
    expect(again).toEqual({ status: 409, body: { error: 'ERR_OTHER_OPEN_TICKET' } });
  });
});

describe('bad input', () => {
  it('answers 400 or 404 with an ERR_ code, never 500', async () => {
    const cases: [string, string, unknown, number, string][] = [
      ['GET', '/api/tickets?status=archived', undefined, 400, 'ERR_VALIDATION'],
      ['GET', '/api/tickets/abc', undefined, 400, 'ERR_VALIDATION'],
      ['GET', '/api/tickets/999999', undefined, 404, 'ERR_NO_TICKET_FOUND'],
      ['PUT', `/api/tickets/${ticket.id}`, { status: 'done' }, 400, 'ERR_VALIDATION'],
      ['GET', '/api/messages/abc', undefined, 400, 'ERR_VALIDATION'],
      ['GET', '/api/messages/999999', undefined, 404, 'ERR_NO_TICKET_FOUND'],
      ['POST', `/api/messages/${ticket.id}`, { body: 42 }, 400, 'ERR_VALIDATION'],
      ['DELETE', '/api/messages/999999', undefined, 404, 'ERR_NO_MESSAGE_FOUND'],
      ['POST', `/api/simulator/${w.id}/inbound`, { from: '55-11' }, 400, 'ERR_VALIDATION'],
      ['POST', `/api/simulator/${w.id}/inbound`, { from: '5511955550000', media: { base64: '', mimetype: 'image/png' } }, 400, 'ERR_VALIDATION'],
      ['POST', '/api/simulator/999999/inbound', { from: '5511955550000', body: 'x' }, 404, 'ERR_NO_WAPP_FOUND'],
      ['POST', `/api/whatsappsession/${w.id}/pairing-code`, { phoneNumber: 'abc' }, 400, 'ERR_VALIDATION'],
    ];
    for (const [method, url, payload, status, error] of cases) {
      const res = await t.request({ method: method, url, token: t.adminToken, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
      expect(res.statusCode, `${method} ${url}`).toBe(status);
      expect(res.json(), `${method} ${url}`).toMatchObject({ error });
    }
  });

  it('refuses a multipart message without files', async () => {
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open' } });
    const boundary = 'zapdeskboundary';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\nhello\r\n--${boundary}--\r\n`;
    const res = await t.request({ method: 'POST', url: `/api/messages/${ticket.id}`, token: t.adminToken, payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { medias: 'REQUIRED' } });
  });

  it('answers a truncated, unterminated or garbage multipart body with 400 and an ERR_ code, and stores nothing', async () => {
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open' } });
    const before = (await t.request({ method: 'GET', url: `/api/messages/${ticket.id}`, token: t.adminToken })).json<{ count: number }>().count;
    const boundary = 'zapdeskboundary';
    const type = { 'content-type': `multipart/form-data; boundary=${boundary}` };
    const filePart = `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 tiny`;
    const bodies: [string, string | Buffer, Record<string, string>][] = [
      ['truncated inside a file', filePart.slice(0, -5), type],
      ['never terminated', `${filePart}\r\n`, type],
      ['cut in the headers', `--${boundary}\r\nContent-Disposition: form-da`, type],
      ['garbage', Buffer.from([0xff, 0x00, 0x13, 0x37, 0x42]), type],
      ['no boundary in the header', `${filePart}\r\n--${boundary}--\r\n`, { 'content-type': 'multipart/form-data' }],
      ['empty', '', type],
    ];
    for (const [name, payload, headers] of bodies) {
      const res = await t.request({ method: 'POST', url: `/api/messages/${ticket.id}`, token: t.adminToken, payload, headers });
      expect(res.statusCode, name).toBe(400);
      expect(res.json<{ error: string }>().error, name).toMatch(/^ERR_/);
    }
    expect((await t.request({ method: 'GET', url: `/api/messages/${ticket.id}`, token: t.adminToken })).json<{ count: number }>().count).toBe(before);
  });

  it("validates a multipart message's caption like a text message's body", async () => {
    const boundary = 'zapdeskboundary';
    const send = (caption: string) =>
      t.request({
        method: 'POST',
        url: `/api/messages/${ticket.id}`,
        token: t.adminToken,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\n${caption}\r\n--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\r\n--${boundary}--\r\n`,
      });
    for (const [caption, code] of [
      ['x'.repeat(30001), 'TOO_LONG'],
      ['nul \u0000 inside', 'INVALID'],
    ] as const) {
      const res = await send(caption);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { body: code } });
    }
  });

  it('sends a file by multipart and serves it back at its signed address', async () => {
    const boundary = 'zapdeskboundary';
    const file = Buffer.from('%PDF-1.4 tiny');
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\nthe invoice\r\n--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="invoice.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.request({ method: 'POST', url: `/api/messages/${ticket.id}`, token: t.adminToken, payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(res.statusCode).toBe(201);
    const [message] = res.json<TMessage[]>();
    expect(message).toMatchObject({ mediaType: 'other', body: 'the invoice', fromMe: true });
    const served = await t.request({ method: 'GET', url: message?.mediaUrl ?? '' });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toContain('application/pdf');
    expect(served.rawPayload.equals(file)).toBe(true);
    const expired = (message?.mediaUrl ?? '').replace(/expires=\d+/, 'expires=1000');
    expect((await t.request({ method: 'GET', url: expired })).statusCode).toBe(403);
  });
});
