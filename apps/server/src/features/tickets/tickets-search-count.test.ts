/**
 * The ticket search's two ways (walking the user's tickets in the page's order, or gathering the
 * words' candidates) answer the same pages, and its count is exact up to the cap and 'at least'
 * past it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TQueue, TWhatsapp } from '@zapdesk/shared/schemas';
import { createTestApp, type TestApp } from '../../test/harness.js';
import type { TicketScope } from './tickets-list.repository.js';
import { searchTickets, type SearchOptions } from './tickets-search.repository.js';

let t: TestApp;
let sales: TQueue;
let support: TQueue;
let agentId: number;
let adminId: number;
const PER_LINE = { sales: 24, support: 8 };

async function connection(name: string, queueIds: number[]): Promise<TWhatsapp> {
  const w = (await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name, channel: 'simulator', queueIds } })).json<TWhatsapp>();
  await t.request({ method: 'POST', url: `/api/simulator/${w.id}/scan`, token: t.adminToken });
  return w;
}

async function ticketCount(): Promise<number> {
  const row = await t.ctx.db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  await t.request({ method: 'PUT', url: '/api/settings/CheckMsgIsGroup', token: t.adminToken, payload: { value: 'disabled' } });
  sales = await t.createQueue({ name: 'Sales' });
  support = await t.createQueue({ name: 'Support' });
  agentId = (await t.createUser({ queueIds: [sales.id] })).user.id;
  adminId = (await t.ctx.db.selectFrom('users').select('id').where('profile', '=', 'admin').executeTakeFirstOrThrow()).id;
  const lines = { sales: await connection('Sales line', [sales.id]), support: await connection('Support line', [support.id]) };
  let n = 0;
  for (const [line, many] of Object.entries(PER_LINE) as [keyof typeof PER_LINE, number][]) {
    for (let i = 0; i < many; i++) {
      n++;
      // Every ticket holds 'pedido'; one in eight also 'devolução'; contact names hold 'Zélia' for three.
      const body = `Olá, sobre o pedido ${n}${n % 8 === 0 ? ' e a devolução' : ''}`;
      await t.request({
        method: 'POST',
        url: `/api/simulator/${lines[line].id}/inbound`,
        token: t.adminToken,
        payload: { from: `55119222${String(n).padStart(5, '0')}`, name: n % 11 === 0 ? `Zélia ${n}` : `Cliente ${n}`, body },
      });
    }
  }
  const until = Date.now() + 15_000;
  while ((await ticketCount()) < n) {
    if (Date.now() > until) throw new Error('messages did not arrive');
    await new Promise((r) => setTimeout(r, 25));
  }
});
afterAll(async () => {
  await t.close();
});

const admin = (): TicketScope => ({ userId: adminId, admin: true, allQueues: true, showAll: true, queueIds: [] });
const agent = (): TicketScope => ({ userId: agentId, admin: false, allQueues: false, showAll: false, queueIds: [sales.id] });
const search = (scope: TicketScope, word: string, extra: Partial<SearchOptions> = {}) => searchTickets(t.ctx.db, t.ctx.dbKind, { scope, filters: { searchParam: word }, pageNumber: 1, ...extra });
const shape = (page: { tickets: TTicket[]; count: number; countIsAtLeast?: true; hasMore: boolean }) => ({
  ids: page.tickets.map((x) => x.id),
  match: page.tickets.map((x) => x.match),
  count: page.count,
  countIsAtLeast: page.countIsAtLeast ?? false,
  hasMore: page.hasMore,
});

describe('ticket search: walking or gathering candidates', () => {
  it('answers the same pages, in the same order, with the same counts, for common and rare words', async () => {
    for (const scope of [admin(), agent()]) {
      for (const word of ['pedido', 'ped', 'devolucao', 'zelia', 'pedido devol', 'nada']) {
        for (const pageNumber of [1, 2]) {
          const walked = shape(await search(scope, word, { pageNumber, path: 'walk' }));
          const gathered = shape(await search(scope, word, { pageNumber, path: 'candidates' }));
          const chosen = shape(await search(scope, word, { pageNumber }));
          expect(walked, `${word} page ${pageNumber}`).toEqual(gathered);
          expect(chosen, `${word} page ${pageNumber}`).toEqual(gathered);
        }
      }
    }
    // The pages themselves: newest change first, 20 then the rest.
    const first = await search(admin(), 'pedido', { path: 'walk' });
    const second = await search(admin(), 'pedido', { path: 'walk', pageNumber: 2 });
    expect(first.tickets).toHaveLength(20);
    expect(second.tickets).toHaveLength(PER_LINE.sales + PER_LINE.support - 20);
    const all = [...first.tickets, ...second.tickets];
    const sorted = [...all].sort((a, b) => (a.updatedAt === b.updatedAt ? b.id - a.id : b.updatedAt.localeCompare(a.updatedAt)));
    expect(all.map((x) => x.id)).toEqual(sorted.map((x) => x.id));
    expect(first.tickets[0]?.match).toContain('pedido');
  });

  it("keeps the user's queue rules on both ways", async () => {
    for (const path of ['walk', 'candidates'] as const) {
      const first = await search(agent(), 'pedido', { path });
      const second = await search(agent(), 'pedido', { path, pageNumber: 2 });
      const seen = [...first.tickets, ...second.tickets];
      expect(seen.length, path).toBe(PER_LINE.sales);
      expect(
        seen.every((x) => x.queueId === sales.id),
        path,
      ).toBe(true);
      expect(first.count, path).toBe(PER_LINE.sales);
    }
  });

  it('counts exactly up to the cap, and says "at least" one past it', async () => {
    const total = PER_LINE.sales + PER_LINE.support;
    for (const path of ['walk', 'candidates'] as const) {
      const at = await search(admin(), 'pedido', { path, countCap: total });
      expect({ count: at.count, atLeast: at.countIsAtLeast, hasMore: at.hasMore }, path).toEqual({ count: total, atLeast: undefined, hasMore: true });
      const below = await search(admin(), 'pedido', { path, countCap: total - 1 });
      expect({ count: below.count, atLeast: below.countIsAtLeast, hasMore: below.hasMore }, path).toEqual({ count: total - 1, atLeast: true, hasMore: true });
      // The page is the same whatever the cap.
      expect(
        below.tickets.map((x) => x.id),
        path,
      ).toEqual(at.tickets.map((x) => x.id));
      // Never less than the pages already hold.
      const deep = await search(admin(), 'pedido', { path, countCap: 5, pageNumber: 2 });
      expect(deep.count, path).toBeGreaterThanOrEqual(total);
      expect(deep.countIsAtLeast, path).toBe(path === 'walk' ? undefined : true);
    }
  });

  it('answers the HTTP list with the count and no "at least" under the cap', async () => {
    const res = await t.request({ method: 'GET', url: '/api/tickets?showAll=true&searchParam=pedido', token: t.adminToken });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ tickets: TTicket[]; count: number; countIsAtLeast?: boolean; hasMore: boolean }>();
    expect(body.count).toBe(PER_LINE.sales + PER_LINE.support);
    expect(body).not.toHaveProperty('countIsAtLeast');
    expect(body.hasMore).toBe(true);
  });
});
