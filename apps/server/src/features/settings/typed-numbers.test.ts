/**
 * Numbers as Brazilians type them, on the server (the authority): the default country code of a
 * Portuguese install, and the same rule at every entry point (bulk sends, contacts and their CSV
 * import, group participants, new tickets, whaticket's integration send).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRecipientList } from '@zapdesk/shared/campaigns';
import type { TGroupCreated } from '@zapdesk/shared/groups';
import type { TContact } from '@zapdesk/shared/schemas';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let phone: number;

async function setting(key: string, value: string) {
  return t.request({ method: 'PUT', url: `/api/settings/${key}`, token: t.adminToken, payload: { value } });
}

async function contactNumber(id: number): Promise<string> {
  return (await t.request({ method: 'GET', url: `/api/contacts/${id}`, token: t.adminToken })).json<TContact>().number;
}

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Loja', channel: 'simulator', isDefault: true } });
  phone = created.json<{ id: number }>().id;
  await t.request({ method: 'POST', url: `/api/simulator/${phone}/scan`, token: t.adminToken });
});
afterAll(async () => {
  await t.close();
});

describe('the default country code setting', () => {
  it('is 55 on a new install in Portuguese, for every signed-in user to read; an admin changes it, and only to a country code', async () => {
    const agent = await t.createUser();
    const read = await t.request({ method: 'GET', url: '/api/settings/phone-numbers', token: agent.token });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ defaultCountryCode: '55' });
    for (const bad of ['+55', '055', '5555', 'br']) {
      const res = await setting('defaultCountryCode', bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { value: 'INVALID' } });
    }
    expect((await t.request({ method: 'PUT', url: '/api/settings/defaultCountryCode', token: agent.token, payload: { value: '1' } })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/settings/phone-numbers', token: agent.token })).json()).toEqual({ defaultCountryCode: '55' });
  });

  it('starts empty on an English install, and as DEFAULT_COUNTRY_CODE says when given', async () => {
    const english = await createTestApp({ DEFAULT_LANGUAGE: 'en' });
    const portugal = await createTestApp({ DEFAULT_LANGUAGE: 'pt', DEFAULT_COUNTRY_CODE: '351' });
    try {
      expect((await english.request({ method: 'GET', url: '/api/settings/phone-numbers', token: english.adminToken })).json()).toEqual({ defaultCountryCode: '' });
      expect((await portugal.request({ method: 'GET', url: '/api/settings/phone-numbers', token: portugal.adminToken })).json()).toEqual({ defaultCountryCode: '351' });
      // Without a default, a number is stored as typed (digits only).
      const typed = await english.request({ method: 'POST', url: '/api/contacts', token: english.adminToken, payload: { name: 'Sem DDI', number: '(11) 97777-6666' } });
      expect(typed.json()).toMatchObject({ number: '11977776666' });
      const lisboa = await portugal.request({ method: 'POST', url: '/api/contacts', token: portugal.adminToken, payload: { name: 'Lisboa', number: '912 345 678' } });
      expect(lisboa.json()).toMatchObject({ number: '351912345678' });
    } finally {
      await english.close();
      await portugal.close();
    }
  });
});

describe('every place a number is typed reads it the same way', () => {
  it('a bulk send: 11977776666 and (11) 98765-1111 go to 5511…, the ninth digit is put in, what stays ambiguous is listed and never sent', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/campaigns',
      token: t.adminToken,
      payload: { kind: 'text', whatsappId: phone, minDelay: 0, maxDelay: 0, message: 'Promoção de sexta', numbers: '11977776666\n(11) 98765-1111\n(11) 8765-1112\n98765-1113\n1234567' },
    });
    expect(res.statusCode).toBe(201);
    const id = res.json<{ campaign: { id: number } }>().campaign.id;
    const list = (await t.request({ method: 'GET', url: `/api/campaigns/${id}/recipients`, token: t.adminToken })).json<TRecipientList>();
    const byInput = Object.fromEntries(list.recipients.map((r) => [r.input, r]));
    expect(byInput['11977776666']).toMatchObject({ number: '5511977776666' });
    expect(byInput['(11) 98765-1111']).toMatchObject({ number: '5511987651111' });
    expect(byInput['(11) 8765-1112']).toMatchObject({ number: '5511987651112' });
    expect(byInput['98765-1113']).toMatchObject({ number: null, status: 'invalid' });
    expect(byInput['1234567']).toMatchObject({ number: null, status: 'invalid' });
  });

  it('a contact created and edited: the number as typed is stored with 55; an ambiguous one is a 400 that stores nothing', async () => {
    const created = await t.request({ method: 'POST', url: '/api/contacts', token: t.adminToken, payload: { name: 'Maria Digitada', number: '(11) 98765-2221' } });
    expect(created.statusCode).toBe(201);
    const contact = created.json<TContact>();
    expect(contact.number).toBe('5511987652221');
    const edited = await t.request({ method: 'PUT', url: `/api/contacts/${contact.id}`, token: t.adminToken, payload: { name: 'Maria Digitada', number: '11 8765-2222' } });
    expect(edited.json()).toMatchObject({ number: '5511987652222' });
    const ambiguous = await t.request({ method: 'PUT', url: `/api/contacts/${contact.id}`, token: t.adminToken, payload: { name: 'Maria Digitada', number: '8765-2222' } });
    expect(ambiguous.statusCode).toBe(400);
    expect(ambiguous.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { number: 'NO_AREA_CODE' } });
    expect(await contactNumber(contact.id)).toBe('5511987652222');
    // The same person typed again, in another form, is the same number.
    const twin = await t.request({ method: 'POST', url: '/api/contacts', token: t.adminToken, payload: { name: 'Maria de Novo', number: '5511987652222' } });
    expect(twin.json()).toMatchObject({ error: 'ERR_DUPLICATED_CONTACT' });
  });

  it('a contacts CSV: numbers without 55 are imported with it, ambiguous lines skipped with their reason', async () => {
    const boundary = 'numbersboundary';
    const csv = 'nome;telefone\nAna CSV;(21) 98765-3331\nBeto CSV;21 8765-3332\nSem DDD;98765-3333\n';
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="c.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
    const res = await t.request({ method: 'POST', url: '/api/contacts/import', token: t.adminToken, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ created: 2, skipped: [{ line: 4, reason: 'number: NO_AREA_CODE' }] });
    const found = (await t.request({ method: 'GET', url: '/api/contacts?searchParam=CSV', token: t.adminToken })).json<{ contacts: TContact[] }>();
    expect(found.contacts.map((c) => c.number).sort()).toEqual(['5521987653331', '5521987653332']);
  });

  it('group participants typed without 55 are added with it', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/groups',
      token: t.adminToken,
      payload: { whatsappId: phone, title: 'Clientes VIP', participants: '11 98765-4441\n(11) 8765-4442\n8765-4443' },
    });
    expect(res.statusCode).toBe(201);
    const created = res.json<TGroupCreated>();
    expect(created.added.sort()).toEqual(['5511987654441', '5511987654442']);
    expect(created.failed).toEqual([{ input: '8765-4443', number: null, error: 'ERR_WAPP_INVALID_CONTACT' }]);
  });

  it("whaticket's integration send: a national number gets 55, a full one is sent as it came", async () => {
    const token = (await t.request({ method: 'GET', url: '/api/settings', token: t.adminToken })).json<{ key: string; value: string }[]>().find((s) => s.key === 'userApiToken')?.value ?? '';
    const national = await t.request({ method: 'POST', url: '/api/messages/send', headers: { authorization: `Bearer ${token}` }, payload: { number: '11977775551', body: 'Seu pedido saiu' } });
    expect(national.statusCode).toBe(200);
    const full = await t.request({ method: 'POST', url: '/api/messages/send', headers: { authorization: `Bearer ${token}` }, payload: { number: '553187655552', body: 'Seu pedido saiu' } });
    expect(full.statusCode).toBe(200);
    const numbers = (await t.request({ method: 'GET', url: '/api/contacts?searchParam=55', token: t.adminToken })).json<{ contacts: TContact[] }>().contacts.map((c) => c.number);
    expect(numbers).toEqual(expect.arrayContaining(['5511977775551', '553187655552']));
  });
});

describe("an agent starts a conversation with another queue's customer", () => {
  it('finds her by the exact number (no name while she is another queue’s), opens a ticket in one of their queues, and sees only that conversation', async () => {
    const sales = await t.createQueue({ name: 'Vendas' });
    const support = await t.createQueue({ name: 'Suporte' });
    const other = await t.createUser({ queueIds: [sales.id], name: 'Vendedora' });
    const agent = await t.createUser({ queueIds: [support.id], name: 'Atendente' });
    // A customer of Sales: her conversation is another agent's, and closed.
    const customer = await t.createContact({ name: 'Cliente Vendas', number: '5511987656661' });
    const old = await t.request({ method: 'POST', url: '/api/tickets', token: other.token, payload: { contactId: customer.id, queueId: sales.id } });
    expect(old.statusCode).toBe(201);
    const oldTicket = old.json<{ id: number; queueId: number }>();
    expect(oldTicket.queueId).toBe(sales.id);
    await t.request({ method: 'PUT', url: `/api/tickets/${oldTicket.id}`, token: other.token, payload: { status: 'closed' } });

    // The usual search does not show her; adding her says she exists.
    const listed = (await t.request({ method: 'GET', url: '/api/contacts?searchParam=Cliente%20Vendas', token: agent.token })).json<{ contacts: TContact[] }>();
    expect(listed.contacts).toEqual([]);
    const add = await t.request({ method: 'POST', url: '/api/contacts', token: agent.token, payload: { name: 'Cliente', number: '(11) 98765-6661' } });
    expect(add.json()).toEqual({ error: 'ERR_DUPLICATED_CONTACT' });

    // The exact number, typed as Brazilians type it, finds her: no name, no id.
    const byNumber = await t.request({ method: 'GET', url: `/api/contacts/by-number?number=${encodeURIComponent('(11) 98765-6661')}`, token: agent.token });
    expect(byNumber.json()).toEqual({ number: '5511987656661', found: true, contact: null });
    const unknown = await t.request({ method: 'GET', url: '/api/contacts/by-number?number=11987650000', token: agent.token });
    expect(unknown.json()).toEqual({ number: '5511987650000', found: false, contact: null });
    const ambiguous = await t.request({ method: 'GET', url: '/api/contacts/by-number?number=8765-0000', token: agent.token });
    expect(ambiguous.statusCode).toBe(400);
    expect(ambiguous.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { number: 'NO_AREA_CODE' } });
    // An admin sees who she is.
    const forAdmin = (await t.request({ method: 'GET', url: '/api/contacts/by-number?number=11987656661', token: t.adminToken })).json<{ contact: TContact }>();
    expect(forAdmin.contact).toMatchObject({ id: customer.id, name: 'Cliente Vendas' });

    // Not in a queue of someone else's, then in their own.
    const wrongQueue = await t.request({ method: 'POST', url: '/api/tickets', token: agent.token, payload: { number: '11987656661', queueId: sales.id } });
    expect(wrongQueue.statusCode).toBe(404);
    expect(wrongQueue.json()).toMatchObject({ error: 'ERR_NO_QUEUE_FOUND' });
    const opened = await t.request({ method: 'POST', url: '/api/tickets', token: agent.token, payload: { number: '(11) 98765-6661', queueId: support.id } });
    expect(opened.statusCode).toBe(201);
    const ticket = opened.json<{ id: number; contactId: number; queueId: number; userId: number; status: string; contact: TContact }>();
    expect(ticket).toMatchObject({ contactId: customer.id, queueId: support.id, userId: agent.user.id, status: 'open' });
    expect(ticket.contact).toMatchObject({ name: 'Cliente Vendas' });

    // What she sees now: the contact (she holds a ticket of hers), her own chat, not the older conversation.
    expect((await t.request({ method: 'GET', url: `/api/contacts/${customer.id}`, token: agent.token })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/api/messages/${ticket.id}`, token: agent.token })).statusCode).toBe(200);
    const oldChat = await t.request({ method: 'GET', url: `/api/messages/${oldTicket.id}`, token: agent.token });
    expect(oldChat.statusCode).toBe(404);
    const hers = (await t.request({ method: 'GET', url: '/api/tickets?status=closed&showAll=true', token: agent.token })).json<{ tickets: { id: number }[] }>();
    expect(hers.tickets.map((x) => x.id)).not.toContain(oldTicket.id);
    // A ticket by id still needs a contact she may see: ids are not numbers she knows.
    const stranger = await t.createContact({ name: 'Outra Cliente', number: '5511987656662' });
    await t.request({ method: 'POST', url: '/api/tickets', token: other.token, payload: { contactId: stranger.id, queueId: sales.id } });
    expect((await t.request({ method: 'POST', url: '/api/tickets', token: agent.token, payload: { contactId: stranger.id } })).json()).toMatchObject({ error: 'ERR_NO_CONTACT_FOUND' });
    // A number nobody has, or neither id nor number: refused.
    expect((await t.request({ method: 'POST', url: '/api/tickets', token: agent.token, payload: { number: '11987650000' } })).json()).toMatchObject({ error: 'ERR_NO_CONTACT_FOUND' });
    expect((await t.request({ method: 'POST', url: '/api/tickets', token: agent.token, payload: {} })).statusCode).toBe(400);
  });
});
