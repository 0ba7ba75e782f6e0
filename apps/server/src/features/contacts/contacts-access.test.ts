/**
 * Who may see and change a contact. A plain user sees and edits the contacts without any ticket
 * (the team's address book) and those with a ticket they may see; changing the number of a
 * contact that has tickets, where the agents' replies go, is for admins; deleting is for admins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import type { TContact } from '@zapdesk/shared/schemas';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let connectionId: number;
let ticket: TTicket;
let loose: TContact;
const tokens = { sales: '', support: '', none: '' };

async function listNumbers(token: string, search = ''): Promise<string[]> {
  const res = await t.request({ method: 'GET', url: `/api/contacts?searchParam=${search}`, token });
  expect(res.statusCode).toBe(200);
  return res.json<{ contacts: TContact[] }>().contacts.map((c) => c.number);
}

async function exported(token: string): Promise<string> {
  const res = await t.request({ method: 'GET', url: '/api/contacts/export', token });
  expect(res.statusCode).toBe(200);
  return res.body;
}

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  const sales = await t.createQueue({ name: 'Vendas' });
  const support = await t.createQueue({ name: 'Suporte' });
  tokens.sales = (await t.createUser({ queueIds: [sales.id] })).token;
  tokens.support = (await t.createUser({ queueIds: [support.id] })).token;
  tokens.none = (await t.createUser()).token;
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Loja', channel: 'simulator', isDefault: true, queueIds: [sales.id] } });
  connectionId = created.json<{ id: number }>().id;
  await t.request({ method: 'POST', url: `/api/simulator/${connectionId}/scan`, token: t.adminToken });
  ticket = await t.inboundTicket(connectionId, 'quero comprar');
  expect(ticket.queueId).toBe(sales.id);
  loose = await t.createContact({ name: 'Agenda Solta', number: '5511944443333' });
});
afterAll(async () => {
  await t.close();
});

describe('contacts a plain user may see', () => {
  it("answers a user who cannot see the contact's ticket exactly as for a contact that does not exist: no read, no change of name or number, and replies still go to the stored number", async () => {
    const answer = async (method: 'GET' | 'PUT' | 'POST', url: string, token: string, payload?: Record<string, unknown>) => {
      const res = await t.request({ method, url, token, ...(payload ? { payload } : {}) });
      return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
    };
    for (const token of [tokens.support, tokens.none]) {
      const missing = await answer('GET', '/api/contacts/999999', token);
      expect(missing).toMatchObject({ status: 404, body: { error: 'ERR_NO_CONTACT_FOUND' } });
      expect(await answer('GET', `/api/contacts/${ticket.contactId}`, token)).toEqual(missing);
      expect(await answer('GET', `/api/contacts/${ticket.contactId}/phone-sends`, token)).toEqual(await answer('GET', '/api/contacts/999999/phone-sends', token));
      // A change answers the same, whatever it asks: a new number, the same one, or one already stored.
      for (const payload of [
        { name: 'Golpe', number: '5511900009999', email: '' },
        { name: 'Golpe', number: ticket.contact.number, email: '' },
        { name: 'Golpe', number: loose.number, email: '' },
      ]) {
        const changed = await answer('PUT', `/api/contacts/${ticket.contactId}`, token, payload);
        expect(changed, payload.number).toEqual(await answer('PUT', '/api/contacts/999999', token, payload));
        expect(changed.status).toBe(404);
      }
      // Finding it by number says only what creating it says: the number is taken. Nothing of the contact.
      const found = await answer('POST', '/api/contact', token, { name: 'Sonda', number: ticket.contact.number });
      const created = await t.request({ method: 'POST', url: '/api/contacts', token, payload: { name: 'Sonda', number: ticket.contact.number, email: '' } });
      expect(found).toEqual({ status: 409, body: created.json() });
      expect(found.body).toEqual({ error: 'ERR_DUPLICATED_CONTACT' });
    }
    const stored = (await t.request({ method: 'GET', url: `/api/contacts/${ticket.contactId}`, token: t.adminToken })).json<TContact>();
    expect(stored).toMatchObject({ number: ticket.contact.number, name: ticket.contact.name });

    // The agent of the queue answers: the reply goes to the customer's own number.
    expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: tokens.sales, payload: { status: 'open' } })).statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: `/api/messages/${ticket.id}`, token: tokens.sales, payload: { body: 'Olá! Posso ajudar?' } })).statusCode).toBe(201);
    const outbox = (await t.request({ method: 'GET', url: `/api/simulator/${connectionId}/outbox`, token: t.adminToken })).json<TSimulatorOutboxItem[]>();
    expect(outbox.filter((o) => o.body === 'Olá! Posso ajudar?').map((o) => o.to)).toEqual([expect.stringContaining(ticket.contact.number)]);
  });

  it('lets nobody pick such a contact for a new group: it answers as a contact that does not exist, and nothing reaches the phone', async () => {
    const groupsOnPhone = async () => (await t.request({ method: 'GET', url: `/api/simulator/${connectionId}/groups`, token: t.adminToken })).json<{ groups: unknown[] }>().groups.length;
    const before = await groupsOnPhone();
    const create = async (token: string, contactIds: number[]) => {
      const res = await t.request({ method: 'POST', url: '/api/groups', token, payload: { whatsappId: connectionId, title: 'Clientes', participants: '', contactIds } });
      return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
    };
    for (const token of [tokens.support, tokens.none]) {
      const missing = await create(token, [999999]);
      expect(missing).toMatchObject({ status: 404, body: { error: 'ERR_NO_CONTACT_FOUND' } });
      expect(await create(token, [ticket.contactId])).toEqual(missing);
      expect(await create(token, [loose.id, ticket.contactId])).toEqual(missing);
    }
    expect(await groupsOnPhone()).toBe(before);
    // The queue's agent picks the contact as before.
    const made = await create(tokens.sales, [ticket.contactId]);
    expect(made.status).toBe(201);
    expect(made.body.added).toEqual([ticket.contact.number]);
  });

  it('shows such a contact in nobody’s list, search or export but those who may see its ticket', async () => {
    for (const token of [tokens.support, tokens.none]) {
      expect(await listNumbers(token)).not.toContain(ticket.contact.number);
      expect(await listNumbers(token, ticket.contact.number.slice(-6))).toEqual([]);
      expect(await exported(token)).not.toContain(ticket.contact.number);
      // The address book stays the team's.
      expect(await listNumbers(token)).toContain(loose.number);
      expect(await exported(token)).toContain(loose.number);
    }
    for (const token of [tokens.sales, t.adminToken]) {
      expect(await listNumbers(token)).toEqual(expect.arrayContaining([ticket.contact.number, loose.number]));
      expect(await listNumbers(token, ticket.contact.number.slice(-6))).toEqual([ticket.contact.number]);
      expect(await exported(token)).toContain(ticket.contact.number);
    }
    const count = (await t.request({ method: 'GET', url: '/api/contacts', token: tokens.none })).json<{ count: number }>().count;
    expect(count).toBe(1);
  });

  it("lets the ticket's agent rename the contact but keeps its number for admins", async () => {
    const renamed = await t.request({
      method: 'PUT',
      url: `/api/contacts/${ticket.contactId}`,
      token: tokens.sales,
      payload: { name: 'Cliente Fiel', number: ticket.contact.number, email: 'fiel@example.com' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Cliente Fiel', email: 'fiel@example.com' });
    const moved = await t.request({ method: 'PUT', url: `/api/contacts/${ticket.contactId}`, token: tokens.sales, payload: { name: 'Cliente Fiel', number: '5511900008888', email: '' } });
    expect(moved.statusCode).toBe(403);
    expect(moved.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    expect((await t.request({ method: 'GET', url: `/api/contacts/${ticket.contactId}`, token: tokens.sales })).json()).toMatchObject({ number: ticket.contact.number, email: 'fiel@example.com' });
    const byAdmin = await t.request({ method: 'PUT', url: `/api/contacts/${ticket.contactId}`, token: t.adminToken, payload: { name: 'Cliente Fiel', number: '5511900008888', email: '' } });
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json()).toMatchObject({ number: '5511900008888' });
  });

  it('lets any user create contacts and edit, number included, those without a ticket; deleting stays for admins', async () => {
    const created = await t.request({ method: 'POST', url: '/api/contacts', token: tokens.none, payload: { name: 'Novo Cliente', number: '5511933332222', email: '' } });
    expect(created.statusCode).toBe(201);
    const id = created.json<TContact>().id;
    expect((await t.request({ method: 'GET', url: `/api/contacts/${id}`, token: tokens.none })).statusCode).toBe(200);
    const fixed = await t.request({ method: 'PUT', url: `/api/contacts/${loose.id}`, token: tokens.support, payload: { name: 'Agenda Corrigida', number: '5511944443334', email: '' } });
    expect(fixed.statusCode).toBe(200);
    expect(fixed.json()).toMatchObject({ name: 'Agenda Corrigida', number: '5511944443334' });
    const removed = await t.request({ method: 'DELETE', url: `/api/contacts/${loose.id}`, token: tokens.support });
    expect(removed.statusCode).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `/api/contacts/${loose.id}`, token: t.adminToken })).statusCode).toBe(204);
  });
});
