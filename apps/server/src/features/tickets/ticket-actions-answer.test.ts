/**
 * Every ticket action answers at once with the ticket as it now stands, even while the phone is
 * busy: the farewell and the transfer notice are stored as outbound work and go out after.
 * The list line (`preview`) is the last message a person wrote, and a search result carries the
 * matched words in context (`match`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import type { TQueue, TWhatsapp } from '@zapdesk/shared/schemas';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';

let t: TestApp;
let w: TWhatsapp;
let sales: TQueue;
let support: TQueue;
let agent: { id: number; name: string; token: string };

const put = (id: number, payload: Record<string, unknown>, token = agent.token) => t.request({ method: 'PUT', url: `/api/tickets/${id}`, token, payload });
const getTicket = async (id: number): Promise<TTicket> => (await t.request({ method: 'GET', url: `/api/tickets/${id}`, token: t.adminToken })).json();
const messagesOf = async (id: number): Promise<TMessage[]> => (await t.request({ method: 'GET', url: `/api/messages/${id}`, token: t.adminToken })).json<{ messages: TMessage[] }>().messages;
const outbox = async (): Promise<TSimulatorOutboxItem[]> => (await t.request({ method: 'GET', url: `/api/simulator/${w.id}/outbox`, token: t.adminToken })).json();
const search = async (term: string): Promise<TTicket[]> =>
  (await t.request({ method: 'GET', url: `/api/tickets?showAll=true&searchParam=${encodeURIComponent(term)}`, token: t.adminToken })).json<{ tickets: TTicket[] }>().tickets;

/** Holds the connection's sends (as a long bulk send would) until the returned function is called. */
function holdSends(): () => void {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  void t.sessions.exclusive(w.id, () => held);
  return release;
}

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  sales = await t.createQueue({ name: 'Vendas', greetingMessage: 'Bem-vindo às *Vendas*!' });
  support = await t.createQueue({ name: 'Suporte', greetingMessage: 'Suporte aqui' });
  const created = await t.createUser({ name: 'Ana Agente', queueIds: [sales.id, support.id] });
  agent = { id: created.user.id, name: created.user.name, token: created.token };
  w = (
    await t.request({
      method: 'POST',
      url: '/api/whatsapp',
      token: t.adminToken,
      payload: { name: 'Loja', channel: 'simulator', farewellMessage: 'Obrigado pelo contato, {{name}}!', greetingMessage: 'Olá! Escolha uma opção:', queueIds: [sales.id, support.id] },
    })
  ).json();
  await t.request({ method: 'POST', url: `/api/simulator/${w.id}/scan`, token: t.adminToken });
});
afterAll(async () => {
  await t.close();
});

describe('actions answer at once, the notices follow', () => {
  it('resolve answers closed while the phone is busy; the farewell is queued in the chat and sent after', async () => {
    const ticket = await t.inboundTicket(w.id, 'quero um orçamento');
    expect((await put(ticket.id, { status: 'open' })).json()).toMatchObject({ status: 'open', userId: agent.id });
    const release = holdSends();
    const started = performance.now();
    const res = await put(ticket.id, { status: 'closed' });
    const elapsed = performance.now() - started;
    console.log(`PUT status=closed with a farewell, phone busy: answered in ${elapsed.toFixed(1)} ms`);
    expect(res.statusCode).toBe(200);
    const answer = res.json<TTicket>();
    expect(answer).toMatchObject({ status: 'closed', userId: agent.id });
    // The farewell is in the chat, waiting for the phone; the answer already counts it (newest state).
    const farewell = (await messagesOf(ticket.id)).find((m) => m.body === `Obrigado pelo contato, ${ticket.contact.name}!`);
    expect(farewell).toMatchObject({ fromMe: true, sendStatus: 'queued' });
    expect((await getTicket(ticket.id)).updatedAt).toBe(answer.updatedAt);
    release();
    await waitFor(outbox, (items) => items.some((m) => m.to === ticket.contact.number && m.body === farewell?.body));
    await waitFor(
      () => messagesOf(ticket.id),
      (list) => list.find((m) => m.id === farewell?.id)?.sendStatus === 'sent',
    );
    // Sending it changed nothing the answer said.
    expect(await getTicket(ticket.id)).toMatchObject({ status: 'closed', updatedAt: answer.updatedAt });
  });

  it('accept, return and reopen answer with the new state, the newest the server has', async () => {
    const ticket = await t.inboundTicket(w.id, 'bom dia');
    const release = holdSends();
    try {
      for (const [status, expected] of [
        ['open', { status: 'open', userId: agent.id }],
        ['pending', { status: 'pending', userId: null }],
        ['open', { status: 'open', userId: agent.id }],
        ['closed', { status: 'closed', userId: agent.id }],
        ['open', { status: 'open', userId: agent.id }],
      ] as const) {
        const answer = (await put(ticket.id, { status })).json<TTicket>();
        expect(answer).toMatchObject(expected);
        expect((await getTicket(ticket.id)).updatedAt).toBe(answer.updatedAt);
      }
    } finally {
      release();
    }
  });

  it('a transfer answers while the phone is busy; the contact is told after', async () => {
    const ticket = await t.inboundTicket(w.id, 'preciso de ajuda');
    await put(ticket.id, { status: 'open' });
    const release = holdSends();
    const answer = (await put(ticket.id, { queueId: support.id, userId: null })).json<TTicket>();
    expect(answer).toMatchObject({ status: 'pending', userId: null, queueId: support.id });
    expect((await getTicket(ticket.id)).updatedAt).toBe(answer.updatedAt);
    release();
    await waitFor(outbox, (items) => items.some((m) => m.to === ticket.contact.number && m.body === 'Seu atendimento foi transferido para o setor *Suporte*.'));
  });
});

describe("the list line shows people's words", () => {
  it('is the last message a person wrote, not the greeting, menu or farewell; lastMessage stays the last of all', async () => {
    const ticket = await t.inboundTicket(w.id, 'Oi, tudo bem?');
    // The connection answers with its menu: the list line stays the customer's words.
    const withMenu = await waitFor(
      () => getTicket(ticket.id),
      (x) => x.lastMessage.includes('Escolha uma opção'),
    );
    expect(withMenu.preview).toBe('Oi, tudo bem?');
    await t.request({ method: 'POST', url: `/api/simulator/${w.id}/inbound`, token: t.adminToken, payload: { from: ticket.contact.number, name: ticket.contact.name, body: '1' } });
    await waitFor(
      () => getTicket(ticket.id),
      (x) => x.preview === '1' && x.queueId !== null && x.lastMessage !== '1',
    );
    await put(ticket.id, { status: 'open' });
    // An agent's reply is a person's words: the line shows it.
    await t.request({ method: 'POST', url: `/api/messages/${ticket.id}`, token: agent.token, payload: { body: 'Olá, sou a Ana' } });
    expect(await getTicket(ticket.id)).toMatchObject({ lastMessage: 'Olá, sou a Ana', preview: 'Olá, sou a Ana' });
    // The farewell is the product's own: lastMessage follows it, the line does not.
    await put(ticket.id, { status: 'closed' });
    expect(await getTicket(ticket.id)).toMatchObject({ lastMessage: `Obrigado pelo contato, ${ticket.contact.name}!`, preview: 'Olá, sou a Ana' });
  });

  it('is the last message while nobody has written one', async () => {
    const contact = await t.createContact({ name: 'Bia Nova' });
    const created = (await t.request({ method: 'POST', url: '/api/tickets', token: agent.token, payload: { contactId: contact.id, status: 'open' } })).json<TTicket>();
    expect(created.preview).toBe('');
    await t.request({ method: 'POST', url: `/api/messages/${created.id}`, token: agent.token, payload: { body: 'Oi Bia, *promoção* hoje' } });
    expect(await getTicket(created.id)).toMatchObject({ lastMessage: 'Oi Bia, *promoção* hoje', preview: 'Oi Bia, *promoção* hoje' });
  });
});

describe('search results show the matched words in context', () => {
  it('a message match carries the words around it; a name match carries none', async () => {
    const long = `Bom dia! ${'Estou esperando faz tempo. '.repeat(5)}Preciso da segunda via do boleto de outubro, ${'por favor me ajude. '.repeat(5)}`;
    const ticket = await t.inboundTicket(w.id, long);
    const [found] = (await search('segunda via boleto')).filter((x) => x.id === ticket.id);
    expect(found?.match).toMatch(/^….*segunda via do boleto de outubro.*…$/);
    const byName = (await search(ticket.contact.name)).find((x) => x.id === ticket.id);
    expect(byName).toBeDefined();
    expect(byName?.match).toBeUndefined();
    // Lists without a search carry no match.
    const list = (await t.request({ method: 'GET', url: '/api/tickets?showAll=true&status=pending', token: t.adminToken })).json<{ tickets: TTicket[] }>().tickets;
    expect(list.every((x) => x.match === undefined)).toBe(true);
  });
});
