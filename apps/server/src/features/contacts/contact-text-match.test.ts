/**
 * The contact search through SQLite's trigram table (migration 046) answers exactly what reading
 * every contact's text answers: after creates, renames and deletes, for terms of every length,
 * accents and case, LIKE wildcards typed as text, and in the ticket search's contact side. Runs on
 * both databases (PostgreSQL's trigram index, migration 017, answers the same contract).
 */
import { foldText } from '@zapdesk/shared/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
});
afterAll(async () => {
  await t.close();
});

const PEOPLE = [
  { name: 'Maria Silva', number: '5511999990001', email: 'maria@loja.com.br' },
  { name: 'Mariana Conceição', number: '5511999990002', email: '' },
  { name: 'João Marçal', number: '5521988880003', email: 'joao_m@exemplo.com' },
  { name: 'Ana 100% Atendida', number: '5531977770004', email: '' },
  { name: 'Zé do Mar', number: '5541966660005', email: 'ze@mar.com' },
  { name: 'Ânderson Ávila', number: '5551955550006', email: 'anderson@avila.net' },
  { name: 'Bia', number: '5561944440007', email: '' },
];
const TERMS = [
  'mar',
  'MAR',
  'Mari',
  'ria si',
  'conceicao',
  'CONCEIÇÃO',
  'marçal',
  '5511',
  '99999000',
  '0004',
  'loja.com',
  '100%',
  '0%',
  'joao_m',
  'o_m',
  '_',
  '%',
  'a',
  'ma',
  'bi',
  'bia',
  'avila',
  'ÁVILA',
  'xyz',
  'ze@',
  '@',
];

async function found(term: string): Promise<number[]> {
  const res = await t.request({ method: 'GET', url: `/api/contacts?searchParam=${encodeURIComponent(term)}&pageNumber=1`, token: t.adminToken });
  expect(res.statusCode).toBe(200);
  const body = res.json<{ contacts: { id: number }[]; count: number; hasMore: boolean }>();
  expect(body.hasMore).toBe(false);
  expect(body.count).toBe(body.contacts.length);
  return body.contacts.map((c) => c.id).sort((a, b) => a - b);
}

/** The answer of reading every contact: its stored folded text contains the folded term. */
async function scanned(term: string): Promise<number[]> {
  const rows = await t.ctx.db.selectFrom('contacts').select(['id', 'searchText']).execute();
  const folded = foldText(term).trim();
  return rows
    .filter((r) => r.searchText.includes(folded))
    .map((r) => r.id)
    .sort((a, b) => a - b);
}

async function expectSameAsScan(): Promise<void> {
  for (const term of TERMS) {
    const expected = await scanned(term);
    expect({ term, ids: await found(term) }).toEqual({ term, ids: expected });
  }
}

describe('contact search by any part of the text', () => {
  it('finds what a scan of every contact finds, for every kind of term', async () => {
    for (const person of PEOPLE) expect((await t.request({ method: 'POST', url: '/api/contacts', token: t.adminToken, payload: person })).statusCode).toBe(201);
    expect(await found('mar')).toHaveLength(4);
    expect(await found('xyz')).toEqual([]);
    await expectSameAsScan();
  });

  it('follows a rename and a delete at once', async () => {
    const [maria] = await found('maria silva');
    const [bia] = await found('bia');
    expect(maria && bia).toBeTruthy();
    const renamed = await t.request({ method: 'PUT', url: `/api/contacts/${maria}`, token: t.adminToken, payload: { name: 'Helena Prado', number: '5511999990001', email: '' } });
    expect(renamed.statusCode).toBe(200);
    expect(await found('maria silva')).toEqual([]);
    expect(await found('helena pr')).toEqual([maria]);
    expect((await t.request({ method: 'DELETE', url: `/api/contacts/${bia}`, token: t.adminToken })).statusCode).toBe(204);
    expect(await found('bia')).toEqual([]);
    await expectSameAsScan();
  });

  it("finds a ticket by its contact's name in the ticket search", async () => {
    const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Loja', channel: 'simulator', isDefault: true } });
    const phone = created.json<{ id: number }>().id;
    await t.request({ method: 'POST', url: `/api/simulator/${phone}/scan`, token: t.adminToken });
    const ticket = await t.inboundTicket(phone, 'Bom dia');
    const contact = await t.ctx.db.selectFrom('contacts').select('name').where('id', '=', ticket.contactId).executeTakeFirstOrThrow();
    const part = contact.name.slice(2, 9);
    const res = await t.request({ method: 'GET', url: `/api/tickets?searchParam=${encodeURIComponent(part)}&showAll=true&pageNumber=1`, token: t.adminToken });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ tickets: { id: number }[] }>().tickets.map((x) => x.id)).toContain(ticket.id);
  });
});
