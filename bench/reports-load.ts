/**
 * The Reports page's queries on the seed (bench/load.ts runs this): each report asked one request
 * at a time, after one warm-up, several times; its median and slowest time against the 500 ms
 * target, and its figures checked against a plain count of the same tickets. The dashboard's
 * ranges too. Given `put` (an admin's PUT), the reports again with opening hours counted
 * (`businessHoursInFigures` on: a default 09:00–18:00 on weekdays with a holiday, one queue on
 * 08:00–12:00 every day), then the setting off again. Results go to
 * bench/results/reports-<db>[-<tag>].json.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { TReport } from '@zapdesk/shared/reports';

export const REPORT_TARGET_MS = 500;
const RUNS = 5;

type Inject = (url: string) => Promise<{ statusCode: number; body: string; ms: number }>;
type Query = <T>(text: string) => Promise<T[]>;
type Put = (url: string, payload: object) => Promise<number>;

function day(offset: number): string {
  const d = new Date(Date.now() + offset * 86_400_000);
  return d.toISOString().slice(0, 10);
}

export async function measureReports(options: { kind: 'sqlite' | 'postgres'; inject: Inject; query: Query; write: boolean; put?: Put; tag?: string }): Promise<boolean> {
  const { inject, query, kind } = options;
  const [queue] = await query<{ id: number }>(`select id from queues order by id limit 1`);
  const [agent] = await query<{ id: number }>(`select "userId" as id from tickets where "userId" is not null group by "userId" order by count(*) desc limit 1`);
  const [label] = await query<{ id: number }>(`select id from labels order by id limit 1`);
  // The seed's closed tickets span the last 90 days: 91 days hold them all.
  const range90 = `from=${day(-91)}&to=${day(1)}`;
  const cases = [
    { name: 'report: last 7 days', url: `/api/reports?from=${day(-6)}&to=${day(0)}` },
    { name: 'report: last 30 days', url: `/api/reports?from=${day(-29)}&to=${day(0)}` },
    { name: 'report: 93 days (every seeded ticket)', url: `/api/reports?${range90}` },
    { name: 'report: 93 days, one queue', url: `/api/reports?${range90}&queueId=${queue?.id ?? 1}` },
    { name: 'report: 93 days, one agent', url: `/api/reports?${range90}&userId=${agent?.id ?? 2}` },
    { name: 'report: 93 days, one connection', url: `/api/reports?${range90}&whatsappId=1` },
    { name: 'report: 93 days, one label', url: `/api/reports?${range90}&labelId=${label?.id ?? 1}` },
    { name: 'report: a year', url: `/api/reports?from=${day(-364)}&to=${day(0)}` },
    { name: 'report CSV: 93 days', url: `/api/reports/export?${range90}` },
  ];
  const dashboards = [
    { name: 'dashboard: today', url: '/api/dashboard' },
    { name: 'dashboard: today with its figures', url: '/api/dashboard?range=today' },
    { name: 'dashboard: 7 days', url: '/api/dashboard?range=7d' },
    { name: 'dashboard: 30 days', url: '/api/dashboard?range=30d' },
  ];
  const results = await measureCases([...cases, ...dashboards], inject);
  if (options.put) {
    const { put } = options;
    const weekdays = [0, 1, 2, 3, 4, 5, 6].map((d) => (d === 0 || d === 6 ? [] : [{ from: '09:00', to: '18:00' }]));
    const everyMorning = Array.from({ length: 7 }, () => [{ from: '08:00', to: '12:00' }]);
    const zone = 'America/Sao_Paulo';
    const statuses = [
      await put('/api/business-hours/default', { timezone: zone, week: weekdays, holidays: [day(-20)] }),
      await put(`/api/business-hours/queues/${queue?.id ?? 1}`, { timezone: zone, week: everyMorning, holidays: [] }),
      await put('/api/settings/businessHoursInFigures', { value: 'enabled' }),
    ];
    if (statuses.some((status) => status !== 200)) throw new Error(`opening hours not set: ${statuses.join(', ')}`);
    if (!(JSON.parse((await inject(`/api/reports?${range90}`)).body) as TReport).businessHoursOnly) throw new Error('the report does not count opening hours');
    results.push(
      ...(await measureCases(
        [...cases, ...dashboards].map((c) => ({ ...c, name: `${c.name} (opening hours)` })),
        inject,
      )),
    );
    await put('/api/settings/businessHoursInFigures', { value: 'disabled' });
  }
  // The figures of the 93-day report against plain counts of the same tickets.
  const report = JSON.parse((await inject(`/api/reports?${range90}`)).body) as TReport;
  const [counts] = await query<{ opened: number; resolved: number; answered: number; ratings: number }>(
    `select (select count(*) from tickets) as opened, (select count(*) from tickets where status = 'closed') as resolved,
            (select count(*) from tickets where "firstResponseAt" is not null) as answered, (select count(*) from "ticketRatings" where score is not null) as ratings`,
  );
  const check = {
    name: 'the 93-day report counts every seeded ticket',
    pass:
      report.opened === Number(counts?.opened) &&
      report.resolved === Number(counts?.resolved) &&
      report.firstResponse.count === Number(counts?.answered) &&
      report.csat.count === Number(counts?.ratings) &&
      report.firstResponse.medianMs !== null &&
      report.resolution.p90Ms !== null,
    detail: `opened ${report.opened} of ${counts?.opened}, resolved ${report.resolved} of ${counts?.resolved}, first responses ${report.firstResponse.count} of ${counts?.answered} (median ${report.firstResponse.medianMs} ms, p90 ${report.firstResponse.p90Ms} ms), resolution median ${report.resolution.medianMs} ms p90 ${report.resolution.p90Ms} ms, CSAT ${report.csat.count} of ${counts?.ratings} (average ${report.csat.average})`,
  };
  console.log(`${check.pass ? 'pass' : 'FAIL'}  ${check.name}: ${check.detail}`);
  const allPass = results.every((r) => r.pass) && check.pass;
  if (options.write) {
    const output = {
      date: new Date().toISOString(),
      db: kind,
      targetMs: REPORT_TARGET_MS,
      note: 'Each report asked one at a time through the HTTP layer (inject) after one warm-up; the time includes the route, the SQL and the JSON.',
      results,
      check,
      allTargetsMet: allPass,
    };
    fs.mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
    fs.writeFileSync(path.join(import.meta.dirname, 'results', `reports-${kind}${options.tag ? `-${options.tag}` : ''}.json`), JSON.stringify(output, null, 2) + '\n');
  }
  return allPass;
}

async function measureCases(cases: { name: string; url: string }[], inject: Inject) {
  const results = [];
  for (const c of cases) {
    const warm = await inject(c.url);
    if (warm.statusCode !== 200) throw new Error(`${c.url}: ${warm.statusCode} ${warm.body}`);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i += 1) times.push((await inject(c.url)).ms);
    times.sort((a, b) => a - b);
    const medianMs = Number((times[Math.floor(RUNS / 2)] ?? 0).toFixed(1));
    const maxMs = Number((times.at(-1) ?? 0).toFixed(1));
    const pass = maxMs < REPORT_TARGET_MS;
    console.log(`${pass ? 'pass' : 'FAIL'}  ${c.name}: median ${medianMs} ms, slowest ${maxMs} ms (target < ${REPORT_TARGET_MS} ms)`);
    results.push({ case: c.name, url: c.url, runs: RUNS, medianMs, maxMs, pass });
  }
  return results;
}
