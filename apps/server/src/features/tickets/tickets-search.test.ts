/** Ticket list filters: search through the full-text index, queues, unread and groups. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TQueue, TWhatsapp } from '@zapdesk/shared/schemas';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let sales: TQueue;
let support: TQueue;
let supportAgent: string;
const ids: Record<string, number> = {};

async function connection(name: string, queueIds: number[]): Promise<TWhatsapp> {
  const w = (await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name, channel: 'simulator', queueIds } })).json<TWhatsapp>();
  await t.request({ method: 'POST', url: `/api/simulator/${w.id}/scan`, token: t.adminToken });
  return w;
}

async function write(w: TWhatsapp, payload: Record<string, unknown>): Promise<void> {
  await t.request({ method: 'POST', url: `/api/simulator/${w.id}/inbound`, token: t.adminToken, payload });
}

async function list(query: string, token = t.adminToken): Promise<TTicket[]> {
  const res = await t.request({ method: 'GET', url: `/api/tickets?showAll=true&${query}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().tickets;
}

async function settle(count: number): Promise<void> {
  const until = Date.now() + 5000;
  while ((await list('')).filter((x) => x.lastMessage !== '').length < count) {
    if (Date.now() > until) throw new Error('tickets did not arrive');
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  await t.request({ method: 'PUT', url: '/api/settings/CheckMsgIsGroup', token: t.adminToken, payload: { value: 'disabled' } });
  sales = await t.createQueue({ name: 'Sales' });
  support = await t.createQueue({ name: 'Support' });
  supportAgent = (await t.createUser({ queueIds: [support.id] })).token;
  const salesLine = await connection('Sales line', [sales.id]);
  const supportLine = await connection('Support line', [support.id]);
  const plainLine = await connection('Plain line', []);
  await write(salesLine, { from: '5511911110001', name: 'Maria Souza', body: 'João comprou o carro ontem' });
  await write(supportLine, { from: '5511911110002', name: 'Pedro', body: 'o boleto não chegou' });
  await write(plainLine, { from: '5511911110003', name: 'Ana', body: 'bom dia' });
  await write(plainLine, { from: '5511911110004', name: 'Tia', body: 'carro no grupo', group: { id: 'family-group', subject: 'Família' } });
  await settle(4);
  for (const x of await list('')) ids[x.contact.number] = x.id;
});
afterAll(async () => {
  await t.close();
});

const numbers = (tickets: TTicket[]) => tickets.map((x) => x.contact.number).sort();

describe('search', () => {
  it('finds message words ignoring accents and case, by prefix, all words together', async () => {
    expect(numbers(await list('searchParam=joao'))).toEqual(['5511911110001']);
    expect(numbers(await list('searchParam=JOÃO%20carr'))).toEqual(['5511911110001']);
    expect(numbers(await list('searchParam=carro'))).toEqual(['5511911110001', 'family-group']);
    expect(numbers(await list('searchParam=boleto%20carro'))).toEqual([]);
    expect(numbers(await list('searchParam=xyzzy'))).toEqual([]);
  });

  it('finds contact names and parts of numbers', async () => {
    expect(numbers(await list('searchParam=souza'))).toEqual(['5511911110001']);
    expect(numbers(await list('searchParam=1110003'))).toEqual(['5511911110003']);
  });

  it("keeps the user's queue rules", async () => {
    expect(numbers(await list('searchParam=carro', supportAgent))).toEqual(['family-group']);
    expect(numbers(await list('searchParam=boleto', supportAgent))).toEqual(['5511911110002']);
  });

  it('leaves deleted messages out', async () => {
    await t.ctx.db
      .updateTable('messages')
      .set({ isDeleted: 1 })
      .where('ticketId', '=', ids['5511911110002'] ?? 0)
      .execute();
    expect(numbers(await list('searchParam=boleto'))).toEqual([]);
  });

  it('follows edited, restored and removed messages', async () => {
    const ana = ids['5511911110003'] ?? 0;
    await t.ctx.db.updateTable('messages').set({ body: 'fatura vencida', searchText: 'fatura vencida' }).where('ticketId', '=', ana).execute();
    expect(numbers(await list('searchParam=fatura'))).toEqual(['5511911110003']);
    expect(numbers(await list('searchParam=bom%20dia'))).toEqual([]);
    await t.ctx.db
      .updateTable('messages')
      .set({ isDeleted: 0 })
      .where('ticketId', '=', ids['5511911110002'] ?? 0)
      .execute();
    expect(numbers(await list('searchParam=boleto'))).toEqual(['5511911110002']);
    await t.ctx.db.deleteFrom('messages').where('ticketId', '=', ana).execute();
    expect(numbers(await list('searchParam=fatura'))).toEqual([]);
  });
});

describe('filters', () => {
  it('narrows to the queues asked for, keeping tickets without a queue', async () => {
    expect(numbers(await list(`queueIds=${encodeURIComponent(JSON.stringify([sales.id]))}`))).toEqual(['5511911110001', '5511911110003', 'family-group']);
    expect(numbers(await list('queueIds=%5B%5D'))).toEqual(['5511911110003', 'family-group']);
  });

  it('narrows to the tickets created on a day (date=YYYY-MM-DD, the server’s time zone), and refuses a date that is not one', async () => {
    const pad = (n: number) => String(n).padStart(2, '0');
    const day = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
    const today = new Date();
    expect(numbers(await list(`date=${day(today)}`))).toEqual(numbers(await list('')));
    // One ticket created yesterday: only it is listed for yesterday, and no longer for today.
    const yesterday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1, 12);
    await t.ctx.db
      .updateTable('tickets')
      .set({ createdAt: yesterday.toISOString() })
      .where('id', '=', ids['5511911110001'] ?? 0)
      .execute();
    expect(numbers(await list(`date=${day(yesterday)}`))).toEqual(['5511911110001']);
    expect(numbers(await list(`date=${day(today)}`))).not.toContain('5511911110001');
    for (const bad of ['2026-02-30', '25/11/2026', 'today']) {
      const res = await t.request({ method: 'GET', url: `/api/tickets?date=${encodeURIComponent(bad)}`, token: t.adminToken });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { date: 'INVALID' } });
    }
  });

  it('refuses a queueIds that is not a JSON list of ids', async () => {
    for (const bad of ['nope', '%5B%22a%22%5D', '%7B%7D']) {
      const res = await t.request({ method: 'GET', url: `/api/tickets?queueIds=${bad}`, token: t.adminToken });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { queueIds: 'INVALID' } });
    }
  });

  it('shows only tickets with unread messages, and only group or private ones', async () => {
    // Only the agent working on a ticket reads it: taking it, then opening its chat.
    await t.request({ method: 'PUT', url: `/api/tickets/${ids['5511911110003']}`, token: t.adminToken, payload: { status: 'open' } });
    await t.request({ method: 'GET', url: `/api/messages/${ids['5511911110003']}`, token: t.adminToken });
    expect(numbers(await list('withUnreadMessages=true'))).not.toContain('5511911110003');
    expect(numbers(await list('isGroup=true'))).toEqual(['family-group']);
    expect(numbers(await list('isGroup=false'))).not.toContain('family-group');
  });
});
