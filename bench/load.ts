/**
 * Inbox load benchmark (issue 4): the real server on the seed of bench/seed.ts (100,000 tickets,
 * 1,000,000 messages), 10 concurrent connections (autocannon, in its own process) against each
 * tab's ticket list for an agent and an admin, a search, a long ticket's messages and the
 * contact search. Also checks correctness at that size. Results, with whaticket's reference and
 * the issue's targets, go to bench/results/load-<db>.json; a failed correctness check exits 1.
 *
 *   npx tsx --conditions=source bench/load.ts [--db sqlite|postgres] [--duration 5] [--reseed]
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '@zapdesk/server/app';
import { SimulatorDriver } from '@zapdesk/server/channels/simulator/simulator.driver';
import { loadConfig } from '@zapdesk/server/core/config';
import type { DriveOutput } from './drive.js';
import { measureReports } from './reports-load.js';
import { agentEmail, DEFAULT_PG_SEED, DEFAULT_SQLITE_SEED, SEED, seedExists, seedPostgres, seedSqlite, seedVocabulary } from './seed.js';

const run = promisify(execFile);
const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    reseed: { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
const SEED_TICKETS = SEED.tickets.closed + SEED.tickets.open + SEED.tickets.pending;
const kind = values.db === 'postgres' ? 'postgres' : 'sqlite';
const duration = Number(values.duration);
const connections = Number(values.connections);

/** whaticket on MariaDB, same machine and data (the issue's reference), and our targets. */
const REFERENCE = {
  ticketList: { requestsPerSecond: 45, p99Ms: 300 },
  search: { requestsPerSecond: 1, p50Ms: 12000 },
  messages: { requestsPerSecond: 230 },
  contacts: { requestsPerSecond: 40 },
  baseline: {},
  ingesting: {},
};
const TARGETS =
  kind === 'postgres'
    ? // PostgreSQL as fast as the embedded default (the scale-out issue).
      {
        ticketList: { minRequestsPerSecond: 1500, maxP99Ms: 25 },
        search: { maxP99Ms: 50 },
        messages: { minRequestsPerSecond: 2000 },
        contacts: { minRequestsPerSecond: 1000 },
        baseline: {},
        ingesting: { minRequestsPerSecond: 1000, maxP99Ms: 25 },
      }
    : {
        ticketList: { minRequestsPerSecond: 45 * 30, maxP99Ms: 25 },
        search: { maxP99Ms: 50 },
        messages: { minRequestsPerSecond: 230 * 10 },
        contacts: { minRequestsPerSecond: 40 * 10 },
        baseline: {},
        ingesting: { minRequestsPerSecond: 1000, maxP99Ms: 25 },
      };

type Kind = keyof typeof REFERENCE;
type Case = { name: string; kind: Kind; user: 'agent' | 'admin'; path: string };

async function main(): Promise<void> {
  // ---------- the seeded database ----------
  let databaseUrl: string | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-load-'));
  if (kind === 'postgres') {
    databaseUrl = process.env.BENCH_SEED_URL ?? DEFAULT_PG_SEED;
    if (values.reseed || !(await seedExists('postgres', databaseUrl))) await seedPostgres(databaseUrl);
  } else {
    const seedFile = process.env.BENCH_SEED_FILE ?? DEFAULT_SQLITE_SEED;
    if (values.reseed || !(await seedExists('sqlite', seedFile))) await seedSqlite(seedFile);
    // The cached seed stays untouched: the server works on a copy.
    fs.copyFileSync(seedFile, path.join(dataDir, 'zapdesk.sqlite'));
  }

  // PostgreSQL: the statements the server runs for a request are recorded (text and values)
  // while `recording` is set, to write their plans to the results (EXPLAIN ANALYZE).
  const recorded: { text: string; values: unknown[] }[] = [];
  let recording = false;
  if (kind === 'postgres') {
    const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
    const original = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      const [first, second] = args;
      if (recording && typeof first === 'string') recorded.push({ text: first, values: Array.isArray(second) ? second : [] });
      else if (recording && first && typeof first === 'object' && 'text' in first) {
        const q = first as { text: string; values?: unknown[] };
        recorded.push({ text: q.text, values: q.values ?? [] });
      }
      return original.apply(this, args);
    };
  }

  const built = await buildApp(
    loadConfig({ DATA_DIR: dataDir, ADMIN_EMAIL: SEED.adminEmail, ADMIN_PASSWORD: SEED.password, LOG_LEVEL: 'error', SIMULATOR: 'on', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }),
  );
  const address = await built.app.listen({ port: 0, host: '127.0.0.1' });
  const login = async (email: string) => {
    const res = await built.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: SEED.password } });
    if (res.statusCode !== 200) throw new Error(`login ${email}: ${res.statusCode} ${res.body}`);
    const body = res.json<{ token: string; user: { id: number; queues: { id: number }[] } }>();
    return { token: body.token, id: body.user.id, queueIds: body.user.queues.map((q) => q.id) };
  };
  const agent = await login(agentEmail(1));
  const admin = await login(SEED.adminEmail);
  const tokens = { agent: agent.token, admin: admin.token };
  const get = async <T>(user: 'agent' | 'admin', url: string): Promise<T> => {
    const res = await built.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${tokens[user]}` } });
    if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`);
    return res.json<T>();
  };

  // ---------- a raw view of the database, for picking cases and checking writes ----------
  const raw = kind === 'sqlite' ? new SQLite(path.join(dataDir, 'zapdesk.sqlite')) : undefined;
  // Migrations newer than the cached seed ran at start: fold their writes in before measuring.
  raw?.pragma('wal_checkpoint(TRUNCATE)');
  const pgClient = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : undefined;
  await pgClient?.connect();
  const query = async <T>(text: string): Promise<T[]> => (raw ? (raw.prepare(text).all() as T[]) : ((await pgClient?.query(text))?.rows as T[]));
  const [longTicket] = await query<{ id: number; n: number }>(
    `select "ticketId" as id, count(*) as n from messages where "ticketId" in (select id from tickets where "unreadMessages" = 0) group by "ticketId" having count(*) > 100 order by count(*) desc limit 1`,
  );
  // Opening a ticket reads it only for its own agent: the control is one of the agent's.
  const [unreadTicket] = await query<{ id: number }>(`select id from tickets where "unreadMessages" > 0 and status = 'open' and "userId" = ${agent.id} order by id limit 1`);
  if (!longTicket || !unreadTicket) throw new Error('the seed has no long read ticket or no unread ticket');

  // ---------- cases: the web app's requests ----------
  const list = (user: typeof agent, params: Record<string, string>) =>
    `/api/tickets?${new URLSearchParams({ pageNumber: '1', showAll: user === admin ? 'true' : 'false', queueIds: JSON.stringify(user.queueIds), ...params }).toString()}`;
  // Same-run baselines: the framework alone, then the token check and a tiny query. The cases
  // below are read against these, not against figures from another run or another machine.
  const cases: Case[] = [
    { name: 'baseline: GET /api/health (no token, no database)', kind: 'baseline', user: 'admin', path: '/api/health' },
    { name: 'baseline: GET /api/queue (token check, one tiny query)', kind: 'baseline', user: 'agent', path: '/api/queue' },
  ];
  for (const [who, user] of [
    ['agent', agent],
    ['admin', admin],
  ] as const) {
    cases.push(
      { name: `${who}: Inbox, Working on (open)`, kind: 'ticketList', user: who, path: list(user, { status: 'open', isGroup: 'false' }) },
      { name: `${who}: Inbox, Queue (pending)`, kind: 'ticketList', user: who, path: list(user, { status: 'pending', isGroup: 'false' }) },
      { name: `${who}: Group, Working on (open)`, kind: 'ticketList', user: who, path: list(user, { status: 'open', isGroup: 'true' }) },
      { name: `${who}: Group, Queue (pending)`, kind: 'ticketList', user: who, path: list(user, { status: 'pending', isGroup: 'true' }) },
      { name: `${who}: Resolved (closed)`, kind: 'ticketList', user: who, path: list(user, { status: 'closed' }) },
      { name: `${who}: Search 'maria'`, kind: 'search', user: who, path: list(user, { searchParam: 'maria' }) },
      // The notification bell's lists, as the web app asks for them at every page load.
      {
        name: `${who}: bell, unread pending`,
        kind: 'ticketList',
        user: who,
        path: `/api/tickets?${new URLSearchParams({ showAll: 'false', pageNumber: '1', status: 'pending', withUnreadMessages: 'true' }).toString()}`,
      },
    );
  }
  cases.push(
    { name: `admin: messages of a ticket with ${longTicket.n} messages`, kind: 'messages', user: 'admin', path: `/api/messages/${longTicket.id}?pageNumber=1` },
    { name: `admin: contacts search 'ma'`, kind: 'contacts', user: 'admin', path: `/api/contacts?searchParam=ma&pageNumber=1` },
  );

  // ---------- correctness at this size ----------
  type TicketPage = { tickets: { id: number; userId: number | null; queueId: number | null; contact: { name: string } }[]; count: number; hasMore: boolean };
  const checks: { name: string; pass: boolean; detail: string }[] = [];
  const check = (name: string, pass: boolean, detail: string) => checks.push({ name, pass, detail });

  const [openCount] = await query<{ n: number }>(`select count(*) as n from tickets where status = 'open'`);
  const page1 = await get<TicketPage>('admin', `/api/tickets?status=open&showAll=true&pageNumber=1`);
  const page2 = await get<TicketPage>('admin', `/api/tickets?status=open&showAll=true&pageNumber=2`);
  const overlap = page1.tickets.filter((t) => page2.tickets.some((u) => u.id === t.id)).length;
  check(
    'a page holds exactly its page size',
    page1.tickets.length === 20 && page2.tickets.length === 20 && overlap === 0 && page1.count === Number(openCount?.n) && page1.hasMore,
    `page 1: ${page1.tickets.length} tickets, page 2: ${page2.tickets.length}, overlap ${overlap}, count ${page1.count} of ${openCount?.n} open`,
  );

  const joao = await get<TicketPage>('admin', `/api/tickets?searchParam=joao&showAll=true&pageNumber=1`);
  const joaoContacts = await get<{ contacts: { name: string }[] }>('admin', `/api/contacts?searchParam=joao&pageNumber=1`);
  check(
    "a search for 'joao' finds 'João'",
    joao.tickets.length > 0 && joao.tickets.some((t) => t.contact.name.includes('João')) && joaoContacts.contacts.length > 0 && joaoContacts.contacts.every((c) => /jo[aã]o/i.test(c.name)),
    `tickets: ${joao.count} (first: ${joao.tickets[0]?.contact.name ?? '-'}); contacts: ${joaoContacts.contacts.length} on page 1 (first: ${joaoContacts.contacts[0]?.name ?? '-'})`,
  );

  const leaks: string[] = [];
  let seen = 0;
  for (const showAll of ['false', 'true']) {
    for (let pageNumber = 1; pageNumber <= 3; pageNumber += 1) {
      const page = await get<TicketPage>(
        'agent',
        `/api/tickets?${new URLSearchParams({ searchParam: 'maria', showAll, pageNumber: String(pageNumber), queueIds: JSON.stringify(agent.queueIds) }).toString()}`,
      );
      for (const t of page.tickets) {
        seen += 1;
        if (t.queueId !== null && !agent.queueIds.includes(t.queueId)) leaks.push(`#${t.id} queue ${t.queueId}`);
        if (t.userId !== null && t.userId !== agent.id) leaks.push(`#${t.id} user ${t.userId}`);
      }
    }
  }
  const [agentVisible] = await query<{ n: number }>(
    `select count(*) as n from tickets where ("queueId" is null or "queueId" in (${agent.queueIds.join(',')})) and ("userId" is null or "userId" = ${agent.id})`,
  );
  const agentAll = await get<TicketPage>('agent', `/api/tickets?showAll=true&pageNumber=1`);
  check(
    "a search keeps the user's queue and assignment rules",
    seen > 0 && leaks.length === 0 && agentAll.count === Number(agentVisible?.n),
    `agent in queues ${JSON.stringify(agent.queueIds)}: ${seen} search results checked, ${leaks.length} outside his queues or assigned to others${leaks.length ? ` (${leaks.slice(0, 5).join(', ')})` : ''}; showAll=true as agent lists ${agentAll.count} of the ${agentVisible?.n} he may see`,
  );

  // Writes: SQLite's data_version moves when another connection commits; PostgreSQL's row
  // counters (flushed by the server's connections within a second or so) and the rows' updatedAt.
  const writeMark = async (ticketId: number): Promise<string> => {
    const [rows] = await query<{ t: string; m: string }>(
      `select (select "updatedAt" from tickets where id = ${ticketId}) as t, (select max("updatedAt") from messages where "ticketId" = ${ticketId}) as m`,
    );
    if (raw) return `data_version ${String(raw.pragma('data_version', { simple: true }))}, ticket ${rows?.t}, messages ${rows?.m}`;
    await new Promise((r) => setTimeout(r, 2500));
    // Only the tables a read could write: startup writes elsewhere (migrations, connection state) flush late.
    const [stat] = await query<{ n: string }>(`select sum(n_tup_ins + n_tup_upd + n_tup_del)::text as n from pg_stat_user_tables where relname in ('tickets', 'messages', 'contacts')`);
    return `row writes to tickets, messages and contacts ${stat?.n}, ticket ${rows?.t}, messages ${rows?.m}`;
  };
  const before = await writeMark(longTicket.id);
  for (let i = 0; i < 5; i += 1) await get('admin', `/api/messages/${longTicket.id}?pageNumber=${1 + (i % 3)}`);
  const after = await writeMark(longTicket.id);
  // The control: a ticket with unread messages is written when read, and the marks see it.
  const controlBefore = await writeMark(unreadTicket.id);
  await get('agent', `/api/messages/${unreadTicket.id}?pageNumber=1`);
  const controlAfter = await writeMark(unreadTicket.id);
  check(
    'reading messages does not write when nothing is unread',
    before === after && controlBefore !== controlAfter,
    `5 reads of ticket #${longTicket.id}: before [${before}] after [${after}]; control, reading unread ticket #${unreadTicket.id}: before [${controlBefore}] after [${controlAfter}]`,
  );

  // ---------- the Reports page's queries (bench/reports-load.ts) ----------
  const injectTimed = async (url: string) => {
    const started = performance.now();
    const res = await built.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${tokens.admin}` } });
    return { statusCode: res.statusCode, body: res.body, ms: performance.now() - started };
  };
  const reportsPass = await measureReports({ kind, inject: injectTimed, query, write: !values.only || values.only === 'reports' });
  check('each report under 500 ms, its figures matching plain counts', reportsPass, `see bench/results/reports-${kind}.json`);

  // ---------- load ----------
  const autocannon = path.join(path.dirname(fileURLToPathSafe(import.meta.resolve('autocannon/package.json'))), 'autocannon.js');
  const results = [];
  const measure = async (c: Case, label: string, server = address) => {
    const url = `${server}${c.path}`;
    const args = ['-c', String(connections), '-H', `authorization=Bearer ${tokens[c.user]}`, '-j'];
    // Warm-up (statement caches, page cache), then the measure.
    await run(process.execPath, [autocannon, ...args, '-d', '2', url], { maxBuffer: 1 << 24 });
    const { stdout } = await run(process.execPath, [autocannon, ...args, '-d', String(duration), url], { maxBuffer: 1 << 24 });
    const r = JSON.parse(stdout) as { requests: { average: number; total: number }; latency: { p50: number; p99: number; average: number }; non2xx: number; errors: number };
    const target = TARGETS[c.kind];
    const failures: string[] = [];
    if ('minRequestsPerSecond' in target && r.requests.average < target.minRequestsPerSecond) failures.push(`${Math.round(r.requests.average)} req/s < ${target.minRequestsPerSecond}`);
    if ('maxP99Ms' in target && r.latency.p99 >= target.maxP99Ms) failures.push(`p99 ${r.latency.p99} ms >= ${target.maxP99Ms}`);
    if (r.non2xx || r.errors) failures.push(`${r.non2xx} non-2xx, ${r.errors} errors`);
    const row = {
      case: c.name,
      kind: c.kind,
      request: `GET ${c.path}`,
      requestsPerSecond: Math.round(r.requests.average),
      p50Ms: r.latency.p50,
      p99Ms: r.latency.p99,
      averageMs: r.latency.average,
      requests: r.requests.total,
      errors: r.non2xx + r.errors,
      reference: REFERENCE[c.kind],
      target: TARGETS[c.kind],
      pass: failures.length === 0,
      ...(failures.length ? { failures } : {}),
    };
    console.log(`${row.pass ? 'pass' : 'FAIL'}  ${label}: ${row.requestsPerSecond} req/s, p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms${failures.length ? `  (${failures.join('; ')})` : ''}`);
    return row;
  };
  for (const c of cases) {
    if (values.only && !c.name.includes(values.only)) continue;
    results.push(await measure(c, c.name));
  }

  // A live inbox writes all the time, and every write empties the read cache: the same cases
  // again while another connection commits a write every 100 ms (an inbox receiving ten
  // messages a second), so no result is ever served from the cache for long.
  const live = [];
  {
    const touchText = `update settings set "updatedAt" = $1 where key = 'timeCreateNewTicket'`;
    const touch = raw?.prepare(touchText.replace('$1', '?'));
    const writer = setInterval(() => {
      const now = new Date().toISOString();
      if (touch) touch.run(now);
      else void pgClient?.query(touchText, [now]);
    }, 100);
    try {
      for (const c of cases) {
        if (values.only && !c.name.includes(values.only)) continue;
        if (c.user !== 'agent' && c.kind === 'ticketList') continue;
        live.push(await measure(c, `${c.name}, with 10 writes/s`));
      }
    } finally {
      clearInterval(writer);
    }
  }

  // ---------- the API's own overhead ----------
  // The same ticket page, already in memory, served by a bare Fastify route in this process:
  // what the framework and JSON cost alone. The real lists are read against it.
  const barePage = await get<unknown>('agent', list(agent, { status: 'open', isGroup: 'false' }));
  const bare = Fastify();
  bare.get('/bare', async () => barePage);
  const bareAddress = await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareRow = await measure({ name: "bare Fastify route: the agent's Working on page from memory", kind: 'baseline', user: 'agent', path: '/bare' }, 'bare route', bareAddress);
  await bare.close();
  const listRows = results.filter((r) => r.kind === 'ticketList');
  const overheadTarget = kind === 'sqlite' ? 0.33 : undefined;
  const worstList = listRows.reduce((worst, r) => (r.requestsPerSecond < worst.requestsPerSecond ? r : worst), listRows[0] ?? bareRow);
  const overhead = {
    note: 'The real ticket lists (token check, the user, the memoised page, serialisation, headers) against the same page returned from memory by a bare Fastify route, same run, same connections.',
    bareRoute: { requestsPerSecond: bareRow.requestsPerSecond, p99Ms: bareRow.p99Ms },
    slowestList: { case: worstList.case, requestsPerSecond: worstList.requestsPerSecond },
    lists: listRows.map((r) => ({ case: r.case, requestsPerSecond: r.requestsPerSecond, ofBare: Number((r.requestsPerSecond / bareRow.requestsPerSecond).toFixed(3)) })),
    worstOfBare: Number((worstList.requestsPerSecond / bareRow.requestsPerSecond).toFixed(3)),
    target: overheadTarget === undefined ? 'SQLite only' : { minOfBare: overheadTarget },
    pass: overheadTarget === undefined || worstList.requestsPerSecond / bareRow.requestsPerSecond >= overheadTarget,
  };
  console.log(
    `${overhead.pass ? 'pass' : 'FAIL'}  overhead: slowest list ${worstList.requestsPerSecond} req/s = ${(overhead.worstOfBare * 100).toFixed(0)}% of the bare route's ${bareRow.requestsPerSecond}`,
  );

  // ---------- searches, a different word on every request ----------
  // Every word of the seed's vocabulary (names, cities, message words; common and rare) and
  // tracking codes that are in one message each. Each request asks a word never asked before by
  // that user, so nothing is memoised: once one at a time (what one agent waits for), then the
  // other user's turn with 10 connections at once (what a busy team waits for).
  const codes = (await query<{ body: string }>(`select body from messages where body like 'Seu pedido foi enviado%' order by id limit 40`))
    .map((r) => /BR\d+/.exec(r.body)?.[0]?.toLowerCase())
    .filter((c): c is string => Boolean(c));
  const words = [...seedVocabulary(), ...codes.slice(0, 30)];
  const searchFor = (user: typeof agent, word: string) => ({ path: list(user, { searchParam: word }), token: user.token });
  const distinct = async (label: string, requests: { path: string; token: string }[], conns: number) => {
    const out = await drive({ base: address, connections: conns, requests });
    const sorted = out.results.map((r) => r.ms).sort((a, b) => a - b);
    const failed = out.results.filter((r) => r.status !== 200).length;
    const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
    const target = { maxP99Ms: 50 };
    const row = {
      case: label,
      words: requests.length,
      connections: conns,
      requestsPerSecond: Math.round(requests.length / out.seconds),
      p50Ms: pct(50),
      p99Ms: pct(99),
      maxMs: sorted[sorted.length - 1] ?? 0,
      errors: failed,
      target,
      pass: failed === 0 && pct(99) < target.maxP99Ms,
      // Split by the size of the answer (the tickets this user may see that hold the word): an
      // agent's search still gathers the word's tickets across the inbox before the rule narrows them.
      bySpread: [
        ['searches answering under 10% of the tickets (as the user sees them)', (n: number) => n < SEED_TICKETS / 10],
        ['searches answering 10% of the tickets or more (as the user sees them)', (n: number) => n >= SEED_TICKETS / 10],
      ].map(([name, test]) => {
        const group = out.results
          .filter((r) => (test as (n: number) => boolean)(r.count ?? 0))
          .map((r) => r.ms)
          .sort((a, b) => a - b);
        const at = (p: number) => group[Math.min(group.length - 1, Math.floor((p / 100) * group.length))] ?? 0;
        return { words: name as string, requests: group.length, p50Ms: at(50), p99Ms: at(99), maxMs: group[group.length - 1] ?? 0 };
      }),
      slowest: [...out.results]
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 10)
        .map((r) => ({ word: new URLSearchParams(r.path.split('?')[1]).get('searchParam'), ms: r.ms, tickets: r.count })),
    };
    console.log(
      `${row.pass ? 'pass' : 'FAIL'}  ${label}: p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms, max ${row.maxMs} ms (slowest: ${row.slowest
        .slice(0, 3)
        .map((s) => `${s.word} ${s.ms} ms`)
        .join(', ')})`,
    );
    return row;
  };
  const distinctSearch = [
    await distinct(
      `${words.length} different words, one at a time (agent, admin alternating)`,
      words.map((w, i) => searchFor(i % 2 ? admin : agent, w)),
      1,
    ),
    await distinct(
      `${words.length} different words, 10 connections (the other user for each word)`,
      words.map((w, i) => searchFor(i % 2 ? agent : admin, w)),
      connections,
    ),
  ];

  // ---------- lists while the inbound pipeline ingests ----------
  // The seed's connection goes up on the simulator and its contacts write 200 messages a second
  // into their tickets (the same path as a phone's messages: contact, ticket, message, events),
  // while the agent's lists are measured on the same database.
  await built.sessions.start(1);
  const phone = built.sessions.driver(1);
  if (!(phone instanceof SimulatorDriver)) throw new Error('the seed connection is not on the simulator');
  for (let tries = 0; ; tries += 1) {
    try {
      await phone.scan();
      break;
    } catch (error) {
      if (tries > 50) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const writers = await query<{ number: string; name: string }>(
    `select c.number, c.name from tickets t join contacts c on c.id = t."contactId" where t.status in ('open', 'pending') and t."isGroup" = 0 and t."whatsappId" = 1 order by t.id limit 500`,
  );
  const ingestRate = 200;
  let delivered = 0;
  const ingestStarted = performance.now();
  const ingest = setInterval(() => {
    // Due so far at the rate, sent in one go (timers in a busy process fire late).
    const due = Math.floor(((performance.now() - ingestStarted) / 1000) * ingestRate);
    for (; delivered < due; delivered += 1) {
      const writer = writers[delivered % writers.length];
      if (!writer) break;
      void phone.deliver({
        providerId: `ingest-${delivered}`,
        chat: { kind: 'person', number: writer.number },
        sender: { number: writer.number, name: writer.name },
        fromMe: false,
        body: `Mensagem ${delivered} durante a carga`,
        timestamp: new Date(),
      });
    }
  }, 20);
  const ingesting = [];
  try {
    for (const c of cases) {
      if (values.only && !c.name.includes(values.only)) continue;
      if (c.user !== 'agent' || c.kind !== 'ticketList') continue;
      ingesting.push(await measure({ ...c, kind: 'ingesting' }, `${c.name}, ingesting ${ingestRate} messages/s`));
    }
  } finally {
    clearInterval(ingest);
  }
  const ingestSeconds = (performance.now() - ingestStarted) / 1000;
  await new Promise((r) => setTimeout(r, 1000));
  const [stored] = await query<{ n: number }>(`select count(*) as n from messages where "providerId" like 'ingest-%'`);
  const whileIngesting = {
    note: `The agent's lists while the seed's contacts write ${ingestRate} messages a second through the simulator and the inbound pipeline, on the same database and in the same process`,
    delivered,
    stored: Number(stored?.n),
    messagesPerSecond: Math.round(Number(stored?.n) / ingestSeconds),
    results: ingesting,
  };
  console.log(`info  ingested ${whileIngesting.stored} of ${delivered} messages in ${ingestSeconds.toFixed(1)} s (${whileIngesting.messagesPerSecond}/s)`);
  check(
    'every message ingested during the lists was stored',
    whileIngesting.stored === delivered && whileIngesting.messagesPerSecond >= ingestRate * 0.9,
    `${whileIngesting.stored} stored of ${delivered} delivered, ${whileIngesting.messagesPerSecond} messages/s`,
  );

  // The plans of what the server runs, nothing memoised: a write first empties the memo.
  let plans = '';
  if (pgClient) {
    const planCases: [string, 'agent' | 'admin', string][] = [
      ['agent: Inbox, Working on (open)', 'agent', list(agent, { status: 'open', isGroup: 'false' })],
      ['admin: Resolved (closed)', 'admin', list(admin, { status: 'closed' })],
      ["agent: search 'joao' (the word in the most messages)", 'agent', list(agent, { searchParam: 'joao' })],
      ["admin: search 'paulo'", 'admin', list(admin, { searchParam: 'paulo' })],
      [`admin: messages of ticket #${longTicket.id}`, 'admin', `/api/messages/${longTicket.id}?pageNumber=1`],
      ["admin: contacts search 'maria'", 'admin', `/api/contacts?searchParam=maria&pageNumber=1`],
    ];
    for (const [name, user, url] of planCases) {
      await pgClient.query(`update settings set "updatedAt" = $1 where key = 'timeCreateNewTicket'`, [new Date().toISOString()]);
      recorded.length = 0;
      recording = true;
      await get(user, url);
      recording = false;
      plans += `==== ${name}: GET ${url}\n\n`;
      for (const statement of recorded) {
        if (!/^\s*select/i.test(statement.text)) continue;
        const explained = await pgClient.query(`explain (analyze, buffers) ${statement.text}`, statement.values);
        plans += `-- ${statement.text}\n-- values: ${JSON.stringify(statement.values)}\n${explained.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n')}\n\n`;
      }
    }
  }

  for (const c of checks) console.log(`${c.pass ? 'pass' : 'FAIL'}  check: ${c.name}: ${c.detail}`);
  const output = {
    benchmark: 'inbox-load',
    database: kind,
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? '', node: process.version, loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))) },
    seed: { contacts: SEED.contacts, tickets: SEED.tickets, messages: SEED.messages, longTickets: SEED.longTickets },
    connections,
    durationSeconds: duration,
    reference: { system: 'whaticket backend on MariaDB, same kind of machine and data', ...REFERENCE },
    targets: TARGETS,
    note: 'Lists, counts and message pages are memoised until the next database write (see apps/server/src/core/db/read-cache.ts: SQLite data_version, PostgreSQL pg_current_snapshot()): the load cases repeat one request, so they measure that steady state; whileWriting repeats them under 10 commits a second from another connection, whileIngesting under the inbound pipeline at 200 messages a second. distinctSearch asks a different word on every request (nothing memoised); overhead compares the lists with the same page from a bare Fastify route.',
    results,
    whileWriting: { note: 'The same cases while another connection commits a write every 100 ms, which empties the read cache', results: live },
    overhead,
    distinctSearch,
    whileIngesting,
    correctness: checks,
    allTargetsMet: results.every((r) => r.pass) && overhead.pass && distinctSearch.every((r) => r.pass) && ingesting.every((r) => r.pass),
    allChecksPass: checks.every((c) => c.pass),
  };
  if (!values.only) {
    fs.mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
    fs.writeFileSync(path.join(import.meta.dirname, 'results', `load-${kind}.json`), JSON.stringify(output, null, 2) + '\n');
    if (plans) fs.writeFileSync(path.join(import.meta.dirname, 'results', `load-${kind}-plans.txt`), plans);
  }

  raw?.close();
  await pgClient?.end();
  await built.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (!output.allChecksPass) process.exitCode = 1;
}

/** Sends requests that differ on every call from bench/drive.ts in its own process. */
async function drive(input: { base: string; connections: number; requests: { path: string; token: string }[] }): Promise<DriveOutput> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'drive.ts')], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (out += chunk));
  child.stdin.end(JSON.stringify(input));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`bench/drive.ts exited with ${code}`);
  return JSON.parse(out) as DriveOutput;
}

function fileURLToPathSafe(url: string): string {
  return new URL(url).pathname;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
