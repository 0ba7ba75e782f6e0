/** The satisfaction tests' app and helpers: a simulator connection, a customer who writes, a ticket resolved and asked. */
import { afterAll, beforeAll, expect } from 'vitest';
import { CSAT_DEFAULT_QUESTIONS, type TTicketRating } from '@zapdesk/shared/csat';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import type { TWhatsapp } from '@zapdesk/shared/schemas';
import { createTestApp, waitFor, type TestApp } from './harness.js';

export const FAREWELL = 'Até logo!';

/** Registers the app's start and stop around the calling test file; `app()` is the running app. */
export function csatKit() {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SIMULATOR: 'on' });
  });
  afterAll(async () => {
    await t.close();
  });
  let n = 0;
  const number = () => `5511${String(910000000 + (n += 1) * 7919 + Math.floor(Math.random() * 1000))}`;

  async function connection(csat?: { enabled: boolean; question?: string; language?: 'pt' | 'en' | 'es' }): Promise<TWhatsapp> {
    const res = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: `Loja ${(n += 1)}`, channel: 'simulator', farewellMessage: FAREWELL } });
    expect(res.statusCode).toBe(201);
    const w = res.json<TWhatsapp>();
    expect((await t.request({ method: 'POST', url: `/api/simulator/${w.id}/scan`, token: t.adminToken })).statusCode).toBe(200);
    if (csat) {
      const put = await t.request({ method: 'PUT', url: `/api/whatsapp/${w.id}/csat`, token: t.adminToken, payload: { question: '', language: 'pt', ...csat } });
      expect(put.statusCode).toBe(200);
    }
    return w;
  }

  function say(whatsappId: number, from: string, body: string) {
    return t.request({ method: 'POST', url: `/api/simulator/${whatsappId}/inbound`, token: t.adminToken, payload: { from, name: 'Cliente', body } });
  }

  async function ticketsOf(from: string): Promise<TTicket[]> {
    const res = await t.request({ method: 'GET', url: `/api/tickets?showAll=true&searchParam=${from}`, token: t.adminToken });
    const open = res.json<{ tickets: TTicket[] }>().tickets.filter((x) => x.contact.number === from);
    const closed = (await t.request({ method: 'GET', url: `/api/tickets?showAll=true&searchParam=${from}&status=closed`, token: t.adminToken })).json<{ tickets: TTicket[] }>().tickets;
    const all = new Map([...open, ...closed.filter((x) => x.contact.number === from)].map((x) => [x.id, x]));
    return [...all.values()];
  }

  async function phone(whatsappId: number, to: string): Promise<TSimulatorOutboxItem[]> {
    const items = (await t.request({ method: 'GET', url: `/api/simulator/${whatsappId}/outbox`, token: t.adminToken })).json<TSimulatorOutboxItem[]>();
    return items.filter((m) => m.to === to);
  }

  async function ratings(ticketId: number): Promise<TTicketRating[]> {
    const res = await t.request({ method: 'GET', url: `/api/tickets/${ticketId}/ratings`, token: t.adminToken });
    expect(res.statusCode).toBe(200);
    return res.json<TTicketRating[]>();
  }

  async function ticketById(id: number): Promise<TTicket> {
    return (await t.request({ method: 'GET', url: `/api/tickets/${id}`, token: t.adminToken })).json<TTicket>();
  }

  async function messagesOf(ticketId: number): Promise<TMessage[]> {
    return (await t.request({ method: 'GET', url: `/api/messages/${ticketId}`, token: t.adminToken })).json<{ messages: TMessage[] }>().messages;
  }

  /** A customer writes, an agent takes the ticket and resolves it. */
  async function resolvedTicket(w: TWhatsapp): Promise<{ from: string; ticket: TTicket }> {
    const from = number();
    expect((await say(w.id, from, 'Olá, quero saber do meu pedido')).statusCode).toBe(200);
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x.length === 1,
    );
    if (!ticket) throw new Error('no ticket');
    expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open' } })).statusCode).toBe(200);
    const closed = await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'closed' } });
    expect(closed.json()).toMatchObject({ status: 'closed' });
    return { from, ticket };
  }

  /** Resolved, and the question has reached the customer's phone. */
  async function asked(w: TWhatsapp, question = CSAT_DEFAULT_QUESTIONS.pt): Promise<{ from: string; ticket: TTicket }> {
    const resolved = await resolvedTicket(w);
    await waitFor(
      () => phone(w.id, resolved.from),
      (items) => items.some((m) => m.body === question),
    );
    return resolved;
  }

  return { app: () => t, number, connection, say, ticketsOf, phone, ratings, ticketById, messagesOf, resolvedTicket, asked };
}
