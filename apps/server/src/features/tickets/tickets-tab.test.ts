/**
 * The ticket tabs read range by range (tickets-tab.repository.ts) give exactly what the rule
 * says: for every viewer, status, group choice, unread filter, queue filter and page, the same
 * tickets in the same order as the visibility predicate applied to every ticket, the count
 * exact up to its cap (then the cap), and `hasMore` right; and after each of many writes made
 * while the lists are being read, the next list is the new state (the read memo is never stale).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, type TicketStatus } from '@zapdesk/shared/domain';
import type { TTicket } from '@zapdesk/shared/messaging';
import { canSeeTicket } from '@zapdesk/shared/visibility';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { TAB_COUNT_CAP } from './tickets-tab.repository.js';

type Row = { id: number; status: TicketStatus; userId: number | null; queueId: number | null; isGroup: number; unreadMessages: number; updatedAt: string };
type Viewer = { name: string; id: number; token: string; admin: boolean; queueIds: number[] };

let t: TestApp;
let whatsappId = 0;
const queues: number[] = [];
const viewers: Viewer[] = [];
let contactSerial = 0;

/** A deterministic sequence, so a failure repeats. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), a | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** Tickets in bulk, each with its own contact (one active ticket per contact and connection). */
async function insertTickets(shapes: Omit<Row, 'id'>[]): Promise<void> {
  const now = new Date().toISOString();
  for (let start = 0; start < shapes.length; start += 200) {
    const chunk = shapes.slice(start, start + 200);
    const contacts = await t.ctx.db
      .insertInto('contacts')
      .values(
        chunk.map(() => {
          contactSerial += 1;
          const number = `5511970${String(contactSerial).padStart(6, '0')}`;
          return { name: `Aba ${contactSerial}`, number, email: '', profilePicUrl: '', isGroup: 0, searchText: `aba ${contactSerial} ${number}`, createdAt: now, updatedAt: now };
        }),
      )
      .returning('id')
      .execute();
    await t.ctx.db
      .insertInto('tickets')
      .values(chunk.map((s, i) => ({ ...s, contactId: contacts[i]?.id ?? 0, whatsappId, lastMessage: '', createdAt: now })))
      .execute();
  }
}

async function allRows(): Promise<Row[]> {
  const rows = await t.ctx.db.selectFrom('tickets').select(['id', 'status', 'userId', 'queueId', 'isGroup', 'unreadMessages', 'updatedAt']).execute();
  return rows.map((r) => ({ ...r, status: r.status as TicketStatus, isGroup: Number(r.isGroup) }));
}

type Tab = { status: TicketStatus; isGroup?: boolean; unread?: boolean; queueIds?: number[]; showAll: boolean };

/** What a tab must hold, from every ticket and the shared predicate: the expectation, not the code under test. */
function expected(rows: Row[], viewer: Viewer, tab: Tab): number[] {
  return rows
    .filter((r) => r.status === tab.status)
    .filter((r) => canSeeTicket({ id: viewer.id, admin: viewer.admin, allQueues: viewer.admin, queueIds: viewer.queueIds }, r, { all: tab.showAll }))
    .filter((r) => !tab.queueIds || r.queueId === null || r.userId === viewer.id || tab.queueIds.includes(r.queueId))
    .filter((r) => tab.isGroup === undefined || r.isGroup === (tab.isGroup ? 1 : 0))
    .filter((r) => !tab.unread || r.unreadMessages > 0)
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id)
    .map((r) => r.id);
}

async function page(viewer: Viewer, tab: Tab, pageNumber: number): Promise<{ tickets: TTicket[]; count: number; hasMore: boolean }> {
  const query = new URLSearchParams({ status: tab.status, showAll: String(tab.showAll), pageNumber: String(pageNumber) });
  if (tab.isGroup !== undefined) query.set('isGroup', String(tab.isGroup));
  if (tab.unread) query.set('withUnreadMessages', 'true');
  if (tab.queueIds) query.set('queueIds', JSON.stringify(tab.queueIds));
  const res = await t.request({ method: 'GET', url: `/api/tickets?${query.toString()}`, token: viewer.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Every page of the tab against the expectation. */
async function checkTab(rows: Row[], viewer: Viewer, tab: Tab): Promise<void> {
  const want = expected(rows, viewer, tab);
  const label = `${viewer.name} ${JSON.stringify(tab)}`;
  const pages = Math.max(1, Math.ceil(want.length / LIMITS.pageSize));
  for (let n = 1; n <= pages; n += 1) {
    const got = await page(viewer, tab, n);
    const offset = (n - 1) * LIMITS.pageSize;
    expect(
      got.tickets.map((x) => x.id),
      `${label} page ${n}`,
    ).toEqual(want.slice(offset, offset + LIMITS.pageSize));
    expect(got.count, `${label} count`).toBe(Math.max(Math.min(want.length, TAB_COUNT_CAP), offset + got.tickets.length));
    expect(got.hasMore, `${label} hasMore page ${n}`).toBe(want.length > offset + LIMITS.pageSize);
  }
}

function tabsOf(viewer: Viewer): Tab[] {
  const tabs: Tab[] = [];
  for (const status of ['open', 'pending', 'closed'] as const)
    for (const isGroup of [undefined, false, true])
      for (const unread of [false, true])
        for (const showAll of viewer.admin ? [false, true] : [false]) {
          // The web app's queue filter (the viewer's queues), none, and (once per status) one queue and the empty filter.
          const filters = isGroup === undefined && !unread ? [undefined, viewer.queueIds, queues.slice(0, 1), []] : [undefined, viewer.queueIds];
          for (const queueIds of filters) tabs.push({ status, isGroup, unread, ...(queueIds ? { queueIds } : {}), showAll });
        }
  return tabs;
}

beforeAll(async () => {
  t = await createTestApp();
  whatsappId = (await t.insertWhatsapp()).id;
  for (const name of ['Fila A', 'Fila B', 'Fila C']) queues.push((await t.createQueue({ name })).id);
  const [qa, qb] = queues as [number, number, number];
  for (const [name, admin, queueIds] of [
    ['agent of A', false, [qa]],
    ['agent of A and B', false, [qa, qb]],
    ['agent in no queue', false, []],
    ['admin of B', true, [qb]],
  ] as const) {
    const { user, token } = await t.createUser({ name, profile: admin ? 'admin' : 'user', queueIds: [...queueIds] });
    viewers.push({ name, id: user.id, token, admin, queueIds: [...queueIds] });
  }
  // 200 tickets over every shape, many sharing an instant (the order then goes by id).
  const random = prng(30);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const base = Date.parse('2026-11-01T12:00:00Z');
  await insertTickets(
    Array.from({ length: 200 }, () => {
      const status = pick(['open', 'pending', 'closed'] as const);
      const userId = status === 'pending' ? null : pick([null, ...viewers.map((v) => v.id)]);
      return {
        status,
        userId,
        queueId: pick([null, ...queues]),
        isGroup: random() < 0.2 ? 1 : 0,
        unreadMessages: random() < 0.4 ? 1 + Math.floor(random() * 3) : 0,
        updatedAt: new Date(base + Math.floor(random() * 40) * 60_000).toISOString(),
      };
    }),
  );
});
afterAll(async () => {
  await t.close();
});

describe('ticket tabs read range by range', () => {
  it('every tab of every viewer, page by page, is what the rule says', async () => {
    const rows = await allRows();
    let checked = 0;
    for (const viewer of viewers) {
      for (const tab of tabsOf(viewer)) {
        await checkTab(rows, viewer, tab);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(150);
  }, 180_000);

  it('a tab of more tickets than the cap counts the cap, and its pages go on to the last ticket', async () => {
    const [admin] = viewers.filter((v) => v.admin) as [Viewer];
    const [queue] = queues as [number];
    const before = Date.parse('2026-10-01T00:00:00Z');
    await insertTickets(
      Array.from({ length: TAB_COUNT_CAP + 30 }, (_, i) => ({
        status: 'closed' as const,
        userId: admin.id,
        queueId: queue,
        isGroup: 0,
        unreadMessages: 0,
        updatedAt: new Date(before - i * 1000).toISOString(),
      })),
    );
    const rows = await allRows();
    for (const showAll of [false, true]) {
      const tab: Tab = { status: 'closed', isGroup: false, showAll };
      const want = expected(rows, admin, tab);
      expect(want.length).toBeGreaterThan(TAB_COUNT_CAP);
      const first = await page(admin, tab, 1);
      expect(first.count).toBe(TAB_COUNT_CAP);
      expect(first.hasMore).toBe(true);
      const lastPage = Math.ceil(want.length / LIMITS.pageSize);
      const last = await page(admin, tab, lastPage);
      expect(last.tickets.map((x) => x.id)).toEqual(want.slice((lastPage - 1) * LIMITS.pageSize));
      expect(last.hasMore).toBe(false);
      expect(last.count).toBe(want.length);
    }
  }, 60_000);

  it('lists read while tickets change are never stale: after each write, the next read is the new state', async () => {
    const [agent] = viewers as [Viewer];
    const random = prng(7);
    const ids = (await allRows()).filter((r) => r.status !== 'closed').map((r) => r.id);
    const tabs: Tab[] = [
      { status: 'open', isGroup: false, queueIds: agent.queueIds, showAll: false },
      { status: 'pending', isGroup: false, queueIds: agent.queueIds, showAll: false },
      { status: 'pending', unread: true, showAll: false },
      { status: 'open', unread: true, showAll: false },
    ];
    for (let round = 0; round < 40; round += 1) {
      const id = ids[Math.floor(random() * ids.length)] as number;
      const open = random() < 0.5;
      // Reads of every tab under way while the write commits, then a read after it.
      const during = tabs.map((tab) => page(agent, tab, 1));
      await t.ctx.db
        .updateTable('tickets')
        .set({ status: open ? 'open' : 'pending', userId: open ? agent.id : null, unreadMessages: round % 3, updatedAt: new Date(Date.parse('2026-12-01T00:00:00Z') + round * 1000).toISOString() })
        .where('id', '=', id)
        .execute();
      await Promise.all(during);
      const rows = await allRows();
      for (const tab of tabs) {
        const got = await page(agent, tab, 1);
        const want = expected(rows, agent, tab);
        expect(
          got.tickets.map((x) => x.id),
          `round ${round} ${JSON.stringify(tab)}`,
        ).toEqual(want.slice(0, LIMITS.pageSize));
        expect(got.count).toBe(Math.min(want.length, TAB_COUNT_CAP));
      }
    }
  }, 120_000);
});
