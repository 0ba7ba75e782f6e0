/**
 * Tickets read with their contacts (what a list page, a live event and the inbound pipeline's
 * announcements carry): each with its contact, the contact's extra info and labels and the
 * ticket's own labels, in the order asked, in two statements whatever their number.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import type { TLabel } from '@zapdesk/shared/labels';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TContact } from '@zapdesk/shared/schemas';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { loadTicketsByIds } from './tickets.repository.js';

let t: TestApp;
let connectionId = 0;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Leitura', channel: 'simulator', isDefault: true } });
  connectionId = created.json<{ id: number }>().id;
  await t.request({ method: 'POST', url: `/api/simulator/${connectionId}/scan`, token: t.adminToken });
});
afterAll(async () => {
  await t.close();
});

const label = async (name: string): Promise<TLabel> => (await t.request({ method: 'POST', url: '/api/labels', token: t.adminToken, payload: { name, color: '#123456' } })).json();
const tag = async (route: string, labelId: number) => expect((await t.request({ method: 'POST', url: route, token: t.adminToken, payload: { labelId } })).statusCode).toBe(200);

describe('tickets read with their contacts', () => {
  it('carry the contact, its extra info and labels and the ticket’s labels, in the order asked, in two statements', async () => {
    const [first, second, third] = [await t.inboundTicket(connectionId, 'um'), await t.inboundTicket(connectionId, 'dois'), await t.inboundTicket(connectionId, 'três')] as [TTicket, TTicket, TTicket];
    const [cliente, atacado, bronze] = [await label('Cliente'), await label('Atacado'), await label('Bronze')];
    await tag(`/api/tickets/${first.id}/labels`, cliente.id);
    await tag(`/api/tickets/${first.id}/labels`, atacado.id);
    await tag(`/api/tickets/${third.id}/labels`, bronze.id);
    await tag(`/api/contacts/${first.contactId}/labels`, bronze.id);
    const edited = await t.request({
      method: 'PUT',
      url: `/api/contacts/${first.contactId}`,
      token: t.adminToken,
      payload: {
        name: first.contact.name,
        number: first.contact.number,
        extraInfo: [
          { name: 'Plano', value: 'Ouro' },
          { name: 'CPF', value: '123.456.789-00' },
        ],
      },
    });
    expect(edited.statusCode).toBe(200);

    let statements = 0;
    const counter: KyselyPlugin = {
      // Once per statement run (transformQuery also sees each subquery as it is built).
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        statements += 1;
        return args.result;
      },
    };
    const read = await loadTicketsByIds(t.ctx.db.withPlugin(counter), [third.id, first.id, second.id, 999_999]);
    expect(statements).toBe(2);

    expect(read.map((ticket) => ticket.id)).toEqual([third.id, first.id, second.id]);
    const [readThird, readFirst, readSecond] = read as [TTicket, TTicket, TTicket];
    expect(readFirst.labels.map((l) => l.name)).toEqual(['Atacado', 'Cliente']);
    expect(readThird.labels).toEqual([{ id: bronze.id, name: 'Bronze', color: '#123456' }]);
    expect(readSecond.labels).toEqual([]);
    // The contact as its own page reads it: extra info in the order written, its labels.
    const contact = (await t.request({ method: 'GET', url: `/api/contacts/${first.contactId}`, token: t.adminToken })).json<TContact>();
    expect(readFirst.contact).toEqual(contact);
    expect(readFirst.contact.extraInfo.map((e) => [e.name, e.value])).toEqual([
      ['Plano', 'Ouro'],
      ['CPF', '123.456.789-00'],
    ]);
    expect(readFirst.contact.labels.map((l) => l.name)).toEqual(['Bronze']);
    expect(readSecond.contact).toMatchObject({ id: second.contactId, extraInfo: [], labels: [] });
    // The same tickets through the API, which lists and events use.
    const viaApi = (await t.request({ method: 'GET', url: `/api/tickets/${first.id}`, token: t.adminToken })).json<TTicket>();
    expect(viaApi.contact).toEqual(contact);
    expect(viaApi.labels.map((l) => l.name)).toEqual(['Atacado', 'Cliente']);
  });

  it('reads nothing for no ticket, and one statement for tickets that do not exist', async () => {
    let statements = 0;
    const db = t.ctx.db.withPlugin({
      // Once per statement run (transformQuery also sees each subquery as it is built).
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        statements += 1;
        return args.result;
      },
    });
    expect(await loadTicketsByIds(db, [])).toEqual([]);
    expect(statements).toBe(0);
    expect(await loadTicketsByIds(db, [999_998])).toEqual([]);
    expect(statements).toBe(1);
  });
});
