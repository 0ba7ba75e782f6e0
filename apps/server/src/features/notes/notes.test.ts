/**
 * Private notes and mentions through the API, with the device simulator as the phone. Cast: `ana`,
 * agent of queue Sales, works the ticket; `bruno`, agent of queue Support only, is mentioned.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { TMention } from '@zapdesk/shared/notes';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import type { TQueue, TWhatsapp } from '@zapdesk/shared/schemas';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';

type Person = { id: number; token: string };
let t: TestApp;
let sales: TQueue;
let w: TWhatsapp;
let ana: Person;
let bruno: Person;

const get = (url: string, token: string) => t.request({ method: 'GET', url, token });
const put = (url: string, token: string, payload?: object) => t.request({ method: 'PUT', url, token, ...(payload ? { payload } : {}) });
const post = (url: string, token: string, payload: object) => t.request({ method: 'POST', url, token, payload });
const note = (ticketId: number, token: string, body: string, mentionUserIds: number[] = []) => post(`/api/tickets/${ticketId}/notes`, token, { body, mentionUserIds });
const outbox = async (): Promise<TSimulatorOutboxItem[]> => (await get(`/api/simulator/${w.id}/outbox`, t.adminToken)).json();
const mentionsOf = async (who: Person, state: 'open' | 'done' = 'open') => (await get(`/api/mentions?state=${state}`, who.token)).json<{ mentions: TMention[]; count: number; unread: number }>();

/** A contact writes in; Ana accepts the ticket (open, hers, in Sales). */
async function anasTicket(body: string): Promise<TTicket> {
  const ticket = await t.inboundTicket(w.id, body);
  await waitFor(
    async () => (await get(`/api/tickets/${ticket.id}`, t.adminToken)).json<TTicket>(),
    (x) => x.queueId === sales.id,
  );
  const accepted = await put(`/api/tickets/${ticket.id}`, ana.token, { status: 'open' });
  expect(accepted.json()).toMatchObject({ status: 'open', userId: ana.id });
  return accepted.json();
}

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  sales = await t.createQueue({ name: 'Sales' });
  const support = await t.createQueue({ name: 'Support' });
  const person = async (queueIds: number[], name: string) => t.createUser({ queueIds, name }).then((u) => ({ id: u.user.id, token: u.token }));
  ana = await person([sales.id], 'Ana');
  bruno = await person([support.id], 'Bruno');
  w = (await post('/api/whatsapp', t.adminToken, { name: 'Sales line', channel: 'simulator', queueIds: [sales.id] })).json();
  await post(`/api/simulator/${w.id}/scan`, t.adminToken, {});
});
afterAll(async () => {
  await t.close();
});

describe('a private note', () => {
  it('never reaches the phone, is never the last message nor unread, and shows in the chat marked as a note', async () => {
    const ticket = await anasTicket('quero um orçamento');
    const created = await note(ticket.id, ana.token, 'Cliente VIP: dar 10% de desconto');
    expect(created.statusCode).toBe(201);
    const saved = created.json<TMessage>();
    expect(saved).toMatchObject({ isNote: true, fromMe: true, noteAuthor: { id: ana.id, name: 'Ana' }, body: 'Cliente VIP: dar 10% de desconto' });

    // A reply after the note reaches the phone; by then the note would have too, had it been sent.
    expect((await post(`/api/messages/${ticket.id}`, ana.token, { body: 'Olá! Segue o orçamento.' })).statusCode).toBe(201);
    const phone = await waitFor(outbox, (items) => items.some((i) => i.body === 'Olá! Segue o orçamento.'));
    expect(phone.map((i) => i.body).join('\n')).not.toContain('desconto');
    const jobs = await t.ctx.db.selectFrom('outbox').select('messageId').where('messageId', '=', saved.id).execute();
    expect(jobs).toEqual([]);

    const after = (await get(`/api/tickets/${ticket.id}`, ana.token)).json<TTicket>();
    expect(after.lastMessage).toBe('Olá! Segue o orçamento.');
    expect(after.unreadMessages).toBe(0);

    // A note as the newest message: the ticket's line keeps the last real message, nothing unread.
    await note(ticket.id, ana.token, 'Aguardando aprovação do gerente');
    const latest = (await get(`/api/tickets/${ticket.id}`, ana.token)).json<TTicket & { preview?: string }>();
    expect(latest.lastMessage).toBe('Olá! Segue o orçamento.');
    expect(latest.unreadMessages).toBe(0);
    const listed = (await get('/api/tickets?status=open', ana.token)).json<{ tickets: TTicket[] }>().tickets.find((x) => x.id === ticket.id);
    expect(listed?.lastMessage).toBe('Olá! Segue o orçamento.');

    // Our app asks for the notes; whaticket's frontend (no `notes`) never gets them.
    const withNotes = (await get(`/api/messages/${ticket.id}?notes=true`, ana.token)).json<{ messages: TMessage[]; count: number }>();
    expect(withNotes.messages.filter((m) => m.isNote).map((m) => m.body)).toEqual(['Cliente VIP: dar 10% de desconto', 'Aguardando aprovação do gerente']);
    const plain = (await get(`/api/messages/${ticket.id}`, ana.token)).json<{ messages: TMessage[]; count: number }>();
    expect(plain.messages.some((m) => m.isNote || m.body.includes('desconto'))).toBe(false);
    expect(plain.count).toBe(withNotes.count - 2);

    // Quoting a note in a reply would put its text on the phone: refused.
    const quoting = await post(`/api/messages/${ticket.id}`, ana.token, { body: 'veja acima', quotedMsg: { id: saved.id } });
    expect(quoting.statusCode).toBe(400);
    expect(quoting.json()).toMatchObject({ error: 'ERR_QUOTED_NOT_IN_TICKET' });

    // Deleting one's note deletes it here only: nothing goes to the phone.
    const before = (await outbox()).length;
    expect((await t.request({ method: 'DELETE', url: `/api/messages/${saved.id}`, token: ana.token })).statusCode).toBe(204);
    expect((await outbox()).length).toBe(before);
    expect((await outbox()).some((i) => i.kind === 'delete')).toBe(false);

    // Not a first response in the dashboard's figures either: the reply is.
    const firstAnswer = await t.ctx.db.selectFrom('messages').select('body').where('ticketId', '=', ticket.id).where('fromMe', '=', 1).where('isNote', '=', 0).orderBy('id').executeTakeFirst();
    expect(firstAnswer?.body).toBe('Olá! Segue o orçamento.');
  });

  it('refuses an empty note, an unknown colleague, and a ticket one may not read', async () => {
    const ticket = await anasTicket('oi');
    const empty = await note(ticket.id, ana.token, '   ');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    const unknown = await note(ticket.id, ana.token, 'veja isso', [999999]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    const outsider = await note(ticket.id, bruno.token, 'posso ajudar?');
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json()).toMatchObject({ error: 'ERR_NO_TICKET_FOUND' });
    const missing = await put('/api/mentions/999999/done', bruno.token);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: 'ERR_NO_MENTION_FOUND' });
  });
});

describe('a mention', () => {
  /** What Bruno (outside the ticket's queue) gets on the ticket's routes. */
  const brunoSees = async (ticketId: number) => ({
    ticket: (await get(`/api/tickets/${ticketId}`, bruno.token)).statusCode,
    messages: (await get(`/api/messages/${ticketId}?notes=true`, bruno.token)).statusCode,
  });

  it('lets the colleague read the ticket and answer with notes until they mark it done', async () => {
    const ticket = await anasTicket('preciso de ajuda técnica');
    expect(await brunoSees(ticket.id)).toEqual({ ticket: 404, messages: 404 });
    expect((await mentionsOf(bruno)).unread).toBe(0);

    await note(ticket.id, ana.token, '@Bruno pode ver o erro do cliente?', [bruno.id]);
    const open = await mentionsOf(bruno);
    expect(open).toMatchObject({ count: 1, unread: 1 });
    expect(open.mentions[0]).toMatchObject({ ticketId: ticket.id, open: true, readAt: null, by: { id: ana.id, name: 'Ana' }, body: '@Bruno pode ver o erro do cliente?' });
    expect((await mentionsOf(ana)).count).toBe(0);

    expect(await brunoSees(ticket.id)).toEqual({ ticket: 200, messages: 200 });
    const chat = (await get(`/api/messages/${ticket.id}?notes=true`, bruno.token)).json<{ messages: TMessage[] }>();
    expect(chat.messages.map((m) => m.body)).toContain('preciso de ajuda técnica');
    const answer = await note(ticket.id, bruno.token, 'É o certificado vencido.');
    expect(answer.statusCode).toBe(201);
    // Reading is not working the ticket: no reply to the contact, no status change.
    expect((await post(`/api/messages/${ticket.id}`, bruno.token, { body: 'oi' })).statusCode).toBe(404);
    expect((await put(`/api/tickets/${ticket.id}`, bruno.token, { status: 'closed' })).statusCode).toBe(404);

    const [mention] = open.mentions;
    if (!mention) throw new Error('no mention');
    expect((await put(`/api/mentions/${mention.id}/read`, bruno.token)).json()).toMatchObject({ open: true });
    expect((await mentionsOf(bruno)).unread).toBe(0);
    // Only one's own mentions.
    expect((await put(`/api/mentions/${mention.id}/done`, ana.token)).statusCode).toBe(404);

    expect((await put(`/api/mentions/${mention.id}/done`, bruno.token)).json()).toMatchObject({ open: false });
    expect(await brunoSees(ticket.id)).toEqual({ ticket: 404, messages: 404 });
    expect((await note(ticket.id, bruno.token, 'mais uma')).statusCode).toBe(404);
    expect((await mentionsOf(bruno)).count).toBe(0);
    expect((await mentionsOf(bruno, 'done')).mentions.map((m) => m.id)).toContain(mention.id);
  });

  it('ends when the ticket is resolved, and stays ended if it is reopened', async () => {
    const ticket = await anasTicket('meu pedido não chegou');
    await note(ticket.id, ana.token, '@Bruno confere o rastreio?', [bruno.id]);
    expect(await brunoSees(ticket.id)).toEqual({ ticket: 200, messages: 200 });
    expect((await put(`/api/tickets/${ticket.id}`, ana.token, { status: 'closed' })).json()).toMatchObject({ status: 'closed' });
    expect(await brunoSees(ticket.id)).toEqual({ ticket: 404, messages: 404 });
    const ended = await waitFor(
      () => mentionsOf(bruno, 'done'),
      (list) => list.mentions.some((m) => m.ticketId === ticket.id && m.closedAt !== null),
    );
    expect(ended.mentions.find((m) => m.ticketId === ticket.id)).toMatchObject({ open: false });
    expect((await put(`/api/tickets/${ticket.id}`, ana.token, { status: 'open' })).json()).toMatchObject({ status: 'open' });
    expect(await brunoSees(ticket.id)).toEqual({ ticket: 404, messages: 404 });
    expect((await mentionsOf(bruno)).mentions.some((m) => m.ticketId === ticket.id)).toBe(false);
  });
});
