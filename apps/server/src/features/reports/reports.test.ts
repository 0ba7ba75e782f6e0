import { csvRows } from '@zapdesk/shared/csv';
import type { TReport } from '@zapdesk/shared/reports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';

/**
 * A hand-computed fixture in São Paulo time (UTC-3, no clock change): the range 2026-03-02 (a
 * Monday) to 2026-03-03, i.e. 2026-03-02T03:00Z to 2026-03-04T03:00Z.
 */
let t: TestApp;
const ids = { queueA: 0, queueB: 0, agent1: 0, agent2: 0, w1: 0, w2: 0, vip: 0 };
const ticketIds = new Map<string, number>();

const S = 1000;
const MIN = 60 * S;

type Fixture = { created: string; queue: 'queueA' | 'queueB'; agent: 'agent1' | 'agent2'; conn: 'w1' | 'w2'; firstResponseMs?: number; closedMs?: number };

// Local times (-03:00). Expected values below are worked out from these by hand.
const FIXTURE: Record<string, Fixture> = {
  t1: { created: '2026-03-02T09:00:00-03:00', queue: 'queueA', agent: 'agent1', conn: 'w1', firstResponseMs: 60 * S, closedMs: 10 * MIN },
  t2: { created: '2026-03-02T09:30:00-03:00', queue: 'queueA', agent: 'agent1', conn: 'w1', firstResponseMs: 120 * S, closedMs: 60 * MIN },
  t3: { created: '2026-03-02T14:00:00-03:00', queue: 'queueB', agent: 'agent2', conn: 'w2', firstResponseMs: 30 * S },
  t4: { created: '2026-03-03T10:00:00-03:00', queue: 'queueA', agent: 'agent2', conn: 'w1', firstResponseMs: 300 * S, closedMs: 30 * MIN },
  // Late on the last day: still in the range (02:30Z on the 4th), closed 15 minutes later, never answered.
  t5: { created: '2026-03-03T23:30:00-03:00', queue: 'queueB', agent: 'agent1', conn: 'w2', closedMs: 15 * MIN },
  // Opened the evening before the range, resolved in it (08:00 on the 2nd): a resolution of 10 h, no opening, its answer not counted.
  t6: { created: '2026-03-01T22:00:00-03:00', queue: 'queueA', agent: 'agent1', conn: 'w1', firstResponseMs: 2 * 3600 * S, closedMs: 10 * 3600 * S },
  // Just after the range.
  t7: { created: '2026-03-04T00:30:00-03:00', queue: 'queueA', agent: 'agent1', conn: 'w1', firstResponseMs: 5 * S, closedMs: 5 * MIN },
  // Answered within half a second: milliseconds count.
  t8: { created: '2026-03-02T09:45:00-03:00', queue: 'queueA', agent: 'agent1', conn: 'w1', firstResponseMs: 500 },
};

const iso = (ms: number) => new Date(ms).toISOString();

async function get(query: string, token = t.adminToken) {
  return t.request({ method: 'GET', url: `/api/reports?from=2026-03-02&to=2026-03-03${query}`, token });
}

beforeAll(async () => {
  t = await createTestApp({ REPORTS_TIME_ZONE: 'America/Sao_Paulo', SIMULATOR: 'on' });
  ids.queueA = (await t.createQueue({ name: 'Vendas' })).id;
  ids.queueB = (await t.createQueue({ name: 'Suporte' })).id;
  ids.agent1 = (await t.createUser({ name: 'Ana' })).user.id;
  ids.agent2 = (await t.createUser({ name: 'Bruno' })).user.id;
  ids.w1 = (await t.insertWhatsapp({ name: 'Loja' })).id;
  ids.w2 = (await t.insertWhatsapp({ name: 'Oficina' })).id;
  for (const [key, f] of Object.entries(FIXTURE)) {
    const contact = await t.createContact();
    const created = Date.parse(f.created);
    const row = await t.ctx.db
      .insertInto('tickets')
      .values({
        status: f.closedMs === undefined ? 'open' : 'closed',
        contactId: contact.id,
        whatsappId: ids[f.conn],
        userId: ids[f.agent],
        queueId: ids[f.queue],
        lastMessage: '',
        unreadMessages: 0,
        isGroup: 0,
        createdAt: iso(created),
        updatedAt: iso(created + (f.closedMs ?? 0)),
        firstResponseAt: f.firstResponseMs === undefined ? null : iso(created + f.firstResponseMs),
        closedAt: f.closedMs === undefined ? null : iso(created + f.closedMs),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ticketIds.set(key, row.id);
  }
  const ticket = (key: string) => ticketIds.get(key) ?? 0;
  // The label VIP on t1 and t4.
  const now = new Date().toISOString();
  ids.vip = (await t.ctx.db.insertInto('labels').values({ name: 'VIP', color: '#FF0000', createdAt: now, updatedAt: now }).returning('id').executeTakeFirstOrThrow()).id;
  await t.ctx.db
    .insertInto('ticketLabels')
    .values([
      { ticketId: ticket('t1'), labelId: ids.vip },
      { ticketId: ticket('t4'), labelId: ids.vip },
    ])
    .execute();
  // Satisfaction: 5 (t1), 4 (t2) and 2 (t4) answered in the range; t3 asked, never answered; t6 answered the day before.
  const rating = (key: string, agent: 'agent1' | 'agent2', score: number | null, answeredAt: string | null) => {
    const f = FIXTURE[key];
    return {
      ticketId: ticket(key),
      whatsappId: ids[f?.conn ?? 'w1'],
      contactId: 1,
      userId: ids[agent],
      queueId: ids[f?.queue ?? 'queueA'],
      askedAt: iso(Date.parse(f?.created ?? '')),
      score,
      answeredAt,
    };
  };
  const contactId = (await t.ctx.db.selectFrom('tickets').select('contactId').where('id', '=', ticket('t1')).executeTakeFirstOrThrow()).contactId;
  await t.ctx.db
    .insertInto('ticketRatings')
    .values(
      [
        rating('t1', 'agent1', 5, '2026-03-02T10:00:00-03:00'),
        rating('t2', 'agent1', 4, '2026-03-02T11:00:00-03:00'),
        rating('t4', 'agent2', 2, '2026-03-03T11:00:00-03:00'),
        rating('t3', 'agent2', null, null),
        rating('t6', 'agent1', 1, '2026-03-01T23:00:00-03:00'),
      ].map((r) => ({ ...r, contactId, answeredAt: r.answeredAt === null ? null : iso(Date.parse(r.answeredAt)) })),
    )
    .execute();
});
afterAll(async () => {
  await t.close();
});

describe('report figures', () => {
  it('counts opened and resolved tickets, the nearest-rank median and 90th percentile of first responses and resolutions, the busiest hours and the days', async () => {
    const res = await get('');
    expect(res.statusCode).toBe(200);
    const body = res.json<TReport>();
    expect(body).toMatchObject({ from: '2026-03-02', to: '2026-03-03', timeZone: 'America/Sao_Paulo', businessHoursOnly: false });
    // Opened: t1 t2 t3 t4 t5 t8. Resolved: t1 t2 t4 t5 t6.
    expect(body.opened).toBe(6);
    expect(body.resolved).toBe(5);
    // First responses of t1 t2 t3 t4 t8 sorted: 0.5 s, 30 s, 60 s, 120 s, 300 s; n=5: median at ceil(2.5)=3, p90 at ceil(4.5)=5.
    expect(body.firstResponse).toEqual({ count: 5, medianMs: 60_000, p90Ms: 300_000 });
    // Resolutions of t1 t5 t4 t2 t6 sorted: 10, 15, 30, 60 min, 10 h.
    expect(body.resolution).toEqual({ count: 5, medianMs: 1_800_000, p90Ms: 36_000_000 });
    // Monday 09:xx: t1 t2 t8; Monday 14:00 t3; Tuesday 10:00 t4; Tuesday 23:30 t5.
    expect(body.busiest).toEqual([
      { weekday: 1, hour: 9, count: 3 },
      { weekday: 1, hour: 14, count: 1 },
      { weekday: 2, hour: 10, count: 1 },
      { weekday: 2, hour: 23, count: 1 },
    ]);
    // Answers in the range: 5, 4 and 2 (t3 unanswered, t6 the day before): 11 / 3 = 3.67.
    expect(body.csat).toEqual({ count: 3, average: 3.67 });
    expect(body.days).toEqual([
      { day: '2026-03-02', opened: 4, resolved: 3 },
      { day: '2026-03-03', opened: 2, resolved: 2 },
    ]);
  });

  it('filters by queue, agent and connection', async () => {
    // Queue Vendas: first responses 0.5 s, 60 s, 120 s, 300 s (n=4: median at 2, p90 at ceil(3.6)=4); resolutions 10 min, 30 min, 60 min, 10 h.
    const queue = (await get(`&queueId=${ids.queueA}`)).json<TReport>();
    expect(queue).toMatchObject({ opened: 4, resolved: 4, firstResponse: { count: 4, medianMs: 60_000, p90Ms: 300_000 }, resolution: { count: 4, medianMs: 1_800_000, p90Ms: 36_000_000 } });
    // Bruno: t3 and t4 opened, t4 resolved; first responses 30 s and 300 s (median at 1, p90 at ceil(1.8)=2).
    const agent = (await get(`&userId=${ids.agent2}`)).json<TReport>();
    expect(agent).toMatchObject({ opened: 2, resolved: 1, firstResponse: { count: 2, medianMs: 30_000, p90Ms: 300_000 }, resolution: { count: 1, medianMs: 1_800_000, p90Ms: 1_800_000 } });
    // Oficina: t3 and t5; t5 never answered.
    const conn = (await get(`&whatsappId=${ids.w2}`)).json<TReport>();
    expect(conn).toMatchObject({ opened: 2, resolved: 1, firstResponse: { count: 1, medianMs: 30_000, p90Ms: 30_000 }, resolution: { count: 1, medianMs: 900_000, p90Ms: 900_000 } });
    expect(conn.busiest).toEqual([
      { weekday: 1, hour: 14, count: 1 },
      { weekday: 2, hour: 23, count: 1 },
    ]);
    // VIP: t1 and t4; first responses 60 s and 300 s, resolutions 10 and 30 min; ratings 5 and 2.
    const label = (await get(`&labelId=${ids.vip}`)).json<TReport>();
    expect(label).toMatchObject({
      opened: 2,
      resolved: 2,
      firstResponse: { count: 2, medianMs: 60_000, p90Ms: 300_000 },
      resolution: { count: 2, medianMs: 600_000, p90Ms: 1_800_000 },
      csat: { count: 2, average: 3.5 },
    });
    expect(agent.csat).toEqual({ count: 1, average: 2 });
    // Both together: nothing.
    const none = (await get(`&queueId=${ids.queueA}&whatsappId=${ids.w2}`)).json<TReport>();
    expect(none).toMatchObject({ opened: 0, resolved: 0, firstResponse: { count: 0, medianMs: null, p90Ms: null }, resolution: { count: 0, medianMs: null, p90Ms: null }, busiest: [] });
  });

  it('reads the days in the report time zone: one day later, t7 opens and t5 moves', async () => {
    const body = (await t.request({ method: 'GET', url: '/api/reports?from=2026-03-03&to=2026-03-04', token: t.adminToken })).json<TReport>();
    expect(body.opened).toBe(3);
    expect(body.days).toEqual([
      { day: '2026-03-03', opened: 2, resolved: 2 },
      { day: '2026-03-04', opened: 1, resolved: 1 },
    ]);
    expect(body.busiest).toContainEqual({ weekday: 3, hour: 0, count: 1 });
  });

  it('refuses a range backwards, too long or not a day, with ERR_REPORT_RANGE or ERR_VALIDATION', async () => {
    const back = await t.request({ method: 'GET', url: '/api/reports?from=2026-03-03&to=2026-03-02', token: t.adminToken });
    expect(back.statusCode).toBe(400);
    expect(back.json()).toMatchObject({ error: 'ERR_REPORT_RANGE' });
    const long = await t.request({ method: 'GET', url: '/api/reports?from=2025-01-01&to=2026-03-02', token: t.adminToken });
    expect(long.json()).toMatchObject({ error: 'ERR_REPORT_RANGE' });
    const bogus = await t.request({ method: 'GET', url: '/api/reports?from=2026-02-30&to=2026-03-02', token: t.adminToken });
    expect(bogus.json()).toMatchObject({ error: 'ERR_REPORT_RANGE' });
    const text = await t.request({ method: 'GET', url: '/api/reports?from=ontem&to=2026-03-02', token: t.adminToken });
    expect(text.statusCode).toBe(400);
    expect(text.json()).toMatchObject({ error: 'ERR_VALIDATION' });
  });
});

describe('who may read reports', () => {
  it('answers 403 to an agent without the reports permission, and the report to one whose role holds it', async () => {
    const { user, password } = await t.createUser({ name: 'Carla' });
    const before = await t.login(user.email, password);
    expect((await get('', before.token)).statusCode).toBe(403);
    expect((await get('', before.token)).json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    expect((await t.request({ method: 'GET', url: '/api/reports/export?from=2026-03-02&to=2026-03-03', token: before.token })).statusCode).toBe(403);
    expect((await get('', '')).statusCode).toBe(401);
    const role = (await t.request({ method: 'POST', url: '/api/roles', token: t.adminToken, payload: { name: 'Supervisão', permissions: ['reports'] } })).json<{ id: number }>();
    expect((await t.request({ method: 'PUT', url: `/api/users/${user.id}`, token: t.adminToken, payload: { name: user.name, email: user.email, roleId: role.id } })).statusCode).toBe(200);
    const after = await t.login(user.email, password);
    const res = await get('', after.token);
    expect(res.statusCode).toBe(200);
    expect(res.json<TReport>().opened).toBe(6);
  });
});

describe('CSV export', () => {
  it('writes zdg.csv with each figure, day and busy hour, durations in seconds', async () => {
    const res = await t.request({ method: 'GET', url: `/api/reports/export?from=2026-03-02&to=2026-03-03&queueId=${ids.queueA}`, token: t.adminToken });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('zdg.csv');
    const rows = csvRows(res.body);
    expect(rows[0]).toEqual(['figure', 'day', 'weekday', 'hour', 'value']);
    const value = (figure: string) => rows.find((r) => r[0] === figure)?.[4];
    expect(value('opened')).toBe('4');
    expect(value('resolved')).toBe('4');
    expect(value('firstResponseMedianSeconds')).toBe('60');
    expect(value('firstResponseP90Seconds')).toBe('300');
    expect(value('resolutionP90Seconds')).toBe('36000');
    expect(value('timeZone')).toBe('America/Sao_Paulo');
    expect(rows).toContainEqual(['openedOnDay', '2026-03-02', '', '', '3']);
    expect(rows).toContainEqual(['openedAtHour', '', '1', '9', '3']);
  });
});

describe('moments kept on the ticket', () => {
  it("sets firstResponseAt at an agent's first reply only, and closedAt at the close, cleared by a reopen", async () => {
    const w = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Simulado', channel: 'simulator' } });
    const connectionId = w.json<{ id: number }>().id;
    await t.request({ method: 'POST', url: `/api/simulator/${connectionId}/scan`, token: t.adminToken });
    const ticket = await t.inboundTicket(connectionId, 'Bom dia');
    const row = () => t.ctx.db.selectFrom('tickets').select(['firstResponseAt', 'closedAt', 'createdAt']).where('id', '=', ticket.id).executeTakeFirstOrThrow();
    expect(await row()).toMatchObject({ firstResponseAt: null, closedAt: null });
    expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open' } })).statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: `/api/messages/${ticket.id}`, token: t.adminToken, payload: { body: 'Olá! Em que posso ajudar?' } })).statusCode).toBe(201);
    const first = (await row()).firstResponseAt;
    expect(first).not.toBeNull();
    const reply = await t.ctx.db.selectFrom('messages').select('createdAt').where('ticketId', '=', ticket.id).where('body', '=', 'Olá! Em que posso ajudar?').executeTakeFirstOrThrow();
    expect(first).toBe(reply.createdAt);
    expect((await t.request({ method: 'POST', url: `/api/messages/${ticket.id}`, token: t.adminToken, payload: { body: 'Mais alguma coisa?' } })).statusCode).toBe(201);
    expect((await row()).firstResponseAt).toBe(first);
    expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'closed' } })).statusCode).toBe(200);
    expect((await row()).closedAt).not.toBeNull();
    expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open' } })).statusCode).toBe(200);
    expect((await row()).closedAt).toBeNull();
  });
});
