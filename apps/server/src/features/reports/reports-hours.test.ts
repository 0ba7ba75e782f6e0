import type { TReport } from '@zapdesk/shared/reports';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';

/**
 * Report durations within opening hours, on a hand-computed fixture in São Paulo time (UTC-3, no
 * clock change). Vendas is open Monday to Friday 09:00–18:00 with Wednesday 2026-03-04 a holiday;
 * Suporte has no hours of its own and uses the default, 08:00–12:00 every day. The report covers
 * Monday 2026-03-02 to Friday 2026-03-06.
 */
let t: TestApp;
const SP = 'America/Sao_Paulo';
const MIN = 60_000;
const HOUR = 60 * MIN;
const queues = { vendas: 0, suporte: 0 };

type Fixture = { queue: keyof typeof queues; created: string; answered?: string; closed?: string };

// Local times; the open time of each is worked out by hand in the comments.
const FIXTURE: Fixture[] = [
  // Thursday 17:00 before the range, closed Monday 09:30: 1 h + Friday 9 h + 30 min = 10 h 30 (resolution only).
  { queue: 'vendas', created: '2026-02-26T17:00', answered: '2026-02-26T17:10', closed: '2026-03-02T09:30' },
  // Monday 17:30, answered Tuesday 09:15 (a night): 30 + 15 = 45 min; closed Tuesday 10:00: 30 + 60 = 90 min.
  { queue: 'vendas', created: '2026-03-02T17:30', answered: '2026-03-03T09:15', closed: '2026-03-03T10:00' },
  // Tuesday 17:00, answered Thursday 09:10 over the holiday: 60 + 0 + 10 = 70 min; closed Thursday 12:00: 60 + 180 = 240 min.
  { queue: 'vendas', created: '2026-03-03T17:00', answered: '2026-03-05T09:10', closed: '2026-03-05T12:00' },
  // On the holiday, answered the same day: 0; closed Thursday 09:30: 30 min.
  { queue: 'vendas', created: '2026-03-04T10:00', answered: '2026-03-04T11:00', closed: '2026-03-05T09:30' },
  // Friday 20:00, answered Monday 09:05 after the range (a weekend): 5 min; never closed.
  { queue: 'vendas', created: '2026-03-06T20:00', answered: '2026-03-09T09:05' },
  // Monday 10:00, answered within half a second: 500 ms; closed 10:20: 20 min.
  { queue: 'vendas', created: '2026-03-02T10:00', answered: '2026-03-02T10:00:00.500', closed: '2026-03-02T10:20' },
  // Default hours 08:00–12:00. Monday 11:00, answered 14:00: 60 min; closed Tuesday 09:00: 60 + 60 = 120 min.
  { queue: 'suporte', created: '2026-03-02T11:00', answered: '2026-03-02T14:00', closed: '2026-03-03T09:00' },
  // Thursday 07:00 before opening, answered 08:30: 30 min; never closed.
  { queue: 'suporte', created: '2026-03-05T07:00', answered: '2026-03-05T08:30' },
];

const at = (local: string) => new Date(`${local}${local.length === 16 ? ':00' : ''}-03:00`).toISOString();

async function report(query = ''): Promise<TReport> {
  const res = await t.request({ method: 'GET', url: `/api/reports?from=2026-03-02&to=2026-03-06${query}`, token: t.adminToken });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TReport>();
}

beforeAll(async () => {
  t = await createTestApp({ REPORTS_TIME_ZONE: SP });
  queues.vendas = (await t.createQueue({ name: 'Vendas' })).id;
  queues.suporte = (await t.createQueue({ name: 'Suporte' })).id;
  const w = await t.insertWhatsapp({ name: 'Loja' });
  for (const f of FIXTURE) {
    const contact = await t.createContact();
    await t.ctx.db
      .insertInto('tickets')
      .values({
        status: f.closed ? 'closed' : 'open',
        contactId: contact.id,
        whatsappId: w.id,
        userId: null,
        queueId: queues[f.queue],
        lastMessage: '',
        unreadMessages: 0,
        isGroup: 0,
        createdAt: at(f.created),
        updatedAt: at(f.closed ?? f.created),
        firstResponseAt: f.answered ? at(f.answered) : null,
        closedAt: f.closed ? at(f.closed) : null,
      })
      .execute();
  }
  const weekdays = [0, 1, 2, 3, 4, 5, 6].map((d) => (d === 0 || d === 6 ? [] : [{ from: '09:00', to: '18:00' }]));
  const put = (url: string, payload: object) => t.request({ method: 'PUT', url, token: t.adminToken, payload });
  expect((await put(`/api/business-hours/queues/${queues.vendas}`, { timezone: SP, week: weekdays, holidays: ['2026-03-04'] })).statusCode).toBe(200);
  const everyMorning = Array.from({ length: 7 }, () => [{ from: '08:00', to: '12:00' }]);
  expect((await put('/api/business-hours/default', { timezone: SP, week: everyMorning, holidays: [] })).statusCode).toBe(200);
});
afterAll(async () => {
  await t.close();
});

it('counts first response and resolution times around the clock while the setting is off', async () => {
  const body = await report();
  expect(body.businessHoursOnly).toBe(false);
  // Wall clock: 500 ms, 1 h, 1 h 30, 3 h, 15 h 45, 40 h 10, 61 h 05; n=7: median at 4, p90 at ceil(6.3)=7.
  expect(body.firstResponse).toEqual({ count: 7, medianMs: 3 * HOUR, p90Ms: 61 * HOUR + 5 * MIN });
});

it('counts only the opening hours of each ticket’s queue when the setting is on: nights, weekends and holidays left out', async () => {
  const put = await t.request({ method: 'PUT', url: '/api/settings/businessHoursInFigures', token: t.adminToken, payload: { value: 'enabled' } });
  expect(put.statusCode).toBe(200);
  const body = await report();
  expect(body.businessHoursOnly).toBe(true);
  // First responses in open time: 0, 500 ms, 5, 30, 45, 60, 70 min; n=7: median at 4 (30 min), p90 at 7 (70 min).
  expect(body.firstResponse).toEqual({ count: 7, medianMs: 30 * MIN, p90Ms: 70 * MIN });
  // Resolutions closed in the range: 20, 30, 90, 120, 240 min and 10 h 30; n=6: median at 3 (90 min), p90 at ceil(5.4)=6.
  expect(body.resolution).toEqual({ count: 6, medianMs: 90 * MIN, p90Ms: 10.5 * HOUR });
  // Suporte alone, on the default hours: answers 30 and 60 min, one resolution of 120 min.
  const suporte = await report(`&queueId=${queues.suporte}`);
  expect(suporte).toMatchObject({ firstResponse: { count: 2, medianMs: 30 * MIN, p90Ms: 60 * MIN }, resolution: { count: 1, medianMs: 120 * MIN, p90Ms: 120 * MIN } });
});

it('counts around the clock again once no hours are set (always open)', async () => {
  for (const url of [`/api/business-hours/queues/${queues.vendas}`, '/api/business-hours/default']) expect((await t.request({ method: 'DELETE', url, token: t.adminToken })).statusCode).toBe(204);
  const body = await report();
  expect(body.businessHoursOnly).toBe(false);
  expect(body.firstResponse).toEqual({ count: 7, medianMs: 3 * HOUR, p90Ms: 61 * HOUR + 5 * MIN });
});
