import type { TReport } from '@zapdesk/shared/reports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { nearestRanks } from './nearest-ranks.js';
import { DURATIONS, durationPercentiles } from './report-ranks.repository.js';
import type { ReportScope } from './reports.repository.js';

/**
 * The durations the database keeps beside each ticket's moments (migration 043) and what the
 * reports read from them: the columns follow every change of the moments; the walk of a
 * duration's index gives the same nearest ranks as sorting the durations; the counts per slot
 * give the same days and hours as reading each ticket, across a clock change (New York, 2026-03-08).
 */
let t: TestApp;
const NY = 'America/New_York';
const S = 1000;

beforeAll(async () => {
  t = await createTestApp({ REPORTS_TIME_ZONE: NY, SIMULATOR: 'on' });
});
afterAll(async () => {
  await t.close();
});

const durationsOf = (id: number) =>
  t.ctx.db.selectFrom('tickets').select(['createdAt', 'firstResponseAt', 'closedAt', 'firstResponseMs', 'resolutionMs', 'queueId', 'userId']).where('id', '=', id).executeTakeFirstOrThrow();

function expectFollowing(row: Awaited<ReturnType<typeof durationsOf>>) {
  expect(row.firstResponseMs).toBe(row.firstResponseAt === null ? null : Date.parse(row.firstResponseAt) - Date.parse(row.createdAt));
  expect(row.resolutionMs).toBe(row.closedAt === null ? null : Date.parse(row.closedAt) - Date.parse(row.createdAt));
}

describe('durations kept beside the moments', () => {
  it('follow accept, messages, transfer, resolve, reopen and a second resolve', async () => {
    const w = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Simulado', channel: 'simulator' } });
    expect(w.statusCode, w.body).toBe(201);
    const connectionId = w.json<{ id: number }>().id;
    await t.request({ method: 'POST', url: `/api/simulator/${connectionId}/scan`, token: t.adminToken });
    const queue = await t.createQueue({ name: 'Suporte' });
    const { user } = await t.createUser({ name: 'Bia', queueIds: [queue.id] });
    const ticket = await t.inboundTicket(connectionId, 'Bom dia');
    const put = async (payload: object) => expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload })).statusCode).toBe(200);
    let row = await durationsOf(ticket.id);
    expect(row).toMatchObject({ firstResponseMs: null, resolutionMs: null });
    await put({ status: 'open' });
    expectFollowing(await durationsOf(ticket.id));
    expect((await t.request({ method: 'POST', url: `/api/messages/${ticket.id}`, token: t.adminToken, payload: { body: 'Olá!' } })).statusCode).toBe(201);
    row = await durationsOf(ticket.id);
    expect(row.firstResponseMs).not.toBeNull();
    expectFollowing(row);
    const firstResponseMs = row.firstResponseMs;
    await put({ queueId: queue.id, userId: user.id });
    row = await durationsOf(ticket.id);
    expect(row).toMatchObject({ queueId: queue.id, userId: user.id, firstResponseMs, resolutionMs: null });
    await put({ status: 'closed' });
    row = await durationsOf(ticket.id);
    expect(row.resolutionMs).not.toBeNull();
    expectFollowing(row);
    await put({ status: 'open' });
    row = await durationsOf(ticket.id);
    expect(row).toMatchObject({ resolutionMs: null, firstResponseMs });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await put({ status: 'closed' });
    row = await durationsOf(ticket.id);
    expectFollowing(row);
    // The second close's duration, read back by the report of its day, queue and agent (the one who closed it).
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: NY }).format(new Date(row.closedAt ?? 0));
    const reportOf = (query: string) => t.request({ method: 'GET', url: `/api/reports?from=${day}&to=${day}${query}`, token: t.adminToken });
    const body = (await reportOf(`&queueId=${queue.id}&userId=${row.userId ?? 0}`)).json<TReport>();
    expect(body.resolution).toEqual({ count: 1, medianMs: row.resolutionMs, p90Ms: row.resolutionMs });
  });
});

describe('percentiles and counts from the indexes', () => {
  const queues = { a: 0, b: 0 };
  const created: { at: number; queue: 'a' | 'b'; firstResponseMs: number | null; resolutionMs: number | null }[] = [];
  // From Friday 2026-03-06 to Tuesday 2026-03-10 in New York: the clock moves on Sunday the 8th at 02:00 (EST to EDT).
  const start = Date.parse('2026-03-06T05:00:00Z');

  beforeAll(async () => {
    queues.a = (await t.createQueue({ name: 'Fila A' })).id;
    queues.b = (await t.createQueue({ name: 'Fila B' })).id;
    const w = await t.insertWhatsapp({ name: 'Loja' });
    const label = (
      await t.ctx.db
        .insertInto('labels')
        .values({ name: 'Todos', color: '#00796B', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    // 240 tickets every 29 minutes and 17 seconds (every hour of those days, both sides of the change); durations
    // with ties (multiples of 7 minutes), some never answered or not closed (each of those its own contact).
    const shared = (await t.createContact()).id;
    const rows = [];
    for (let i = 0; i < 240; i += 1) {
      const at = start + i * (29 * 60 + 17) * S;
      const firstResponseMs = i % 5 === 0 ? null : ((i * 37) % 11) * 7 * 60 * S + (i % 3);
      const resolutionMs = i % 4 === 0 ? null : ((i * 53) % 17) * 7 * 60 * S + 1000;
      const queue = i % 3 === 0 ? 'b' : 'a';
      created.push({ at, queue, firstResponseMs, resolutionMs });
      rows.push({
        status: resolutionMs === null ? 'open' : 'closed',
        contactId: resolutionMs === null ? (await t.createContact()).id : shared,
        whatsappId: w.id,
        userId: null,
        queueId: queues[queue],
        lastMessage: '',
        unreadMessages: 0,
        isGroup: 0,
        createdAt: new Date(at).toISOString(),
        updatedAt: new Date(at).toISOString(),
        firstResponseAt: firstResponseMs === null ? null : new Date(at + firstResponseMs).toISOString(),
        closedAt: resolutionMs === null ? null : new Date(at + resolutionMs).toISOString(),
      });
    }
    const ids = await t.ctx.db.insertInto('tickets').values(rows).returning('id').execute();
    await t.ctx.db
      .insertInto('ticketLabels')
      .values(ids.map((row) => ({ ticketId: row.id, labelId: label })))
      .execute();
    labelId = label;
  }, 120_000);
  let labelId = 0;

  it('the walk of the duration index gives the nearest ranks of the sorted durations, from either end, with a filter', async () => {
    const from = start + 3 * 3600 * S;
    const before = start + 90 * 3600 * S;
    const percents = [1, 25, 50, 51, 90, 99, 100];
    for (const queue of [undefined, 'a', 'b'] as const) {
      const scope: ReportScope = { kind: t.ctx.dbKind, from: new Date(from).toISOString(), before: new Date(before).toISOString(), filters: { queueId: queue && queues[queue] } };
      const mine = created.filter((c) => c.at >= from && c.at < before && (queue === undefined || c.queue === queue));
      const durations = mine.flatMap((c) => (c.firstResponseMs === null ? [] : [c.firstResponseMs]));
      const expected = nearestRanks(durations, percents);
      expect(expected.count).toBeGreaterThan(20);
      const walked = await durationPercentiles(t.ctx.db, scope, 'tickets.createdAt', DURATIONS.firstResponse, durations.length, percents, 0);
      const listed = await durationPercentiles(t.ctx.db, scope, 'tickets.createdAt', DURATIONS.firstResponse, durations.length, percents, Infinity);
      expect(walked).toEqual(expected);
      expect(listed).toEqual(expected);
    }
  });

  it('counts per local day and hour as reading each ticket does, across the clock change', async () => {
    const get = async (query: string) => {
      const res = await t.request({ method: 'GET', url: `/api/reports?from=2026-03-06&to=2026-03-10${query}`, token: t.adminToken });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<TReport>();
    };
    // Every ticket holds the label: with it the report reads each ticket; without it, the counts per slot.
    const bySlots = await get('');
    const byTickets = await get(`&labelId=${labelId}`);
    expect(bySlots.opened).toBe(240);
    expect(bySlots).toEqual(byTickets);
    // The 8th lasts 23 hours: 02:00 local never happens, and no ticket is counted at it.
    expect(bySlots.busiest.some((cell) => cell.weekday === 0 && cell.hour === 2)).toBe(false);
    expect(bySlots.days.map((d) => d.opened)).toEqual(byTickets.days.map((d) => d.opened));
  });
});
