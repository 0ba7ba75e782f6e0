/**
 * Inbox load benchmark (issues 4 and 30): the real server on a copy of the seed of bench/seed.ts
 * at a scale (0.1x: 10,000 tickets; 1x: 100,000 tickets, 1,000,000 messages; 10x: 1,000,000
 * tickets), 10 concurrent connections (autocannon, in its own process) against each tab's ticket
 * list for an agent and an admin, the bell, a search, a chat's page and the contact search, each
 * read against the same-run bare route; a different word on every request across the seed's
 * vocabulary; the lists while the pipeline ingests 200 messages/s; the dashboard and each report;
 * the server's memory after the run. Also checks correctness at that size. Results, with the
 * targets and whether each is met, go to bench/results/load-<db>-<0_1x|1x|10x>.json (the
 * PostgreSQL plans to load-postgres-plans-<tag>.txt); a failed correctness check exits 1.
 * bench/chart.ts draws the cost curves from these files.
 *
 *   npm run bench:load -- [--db sqlite|postgres] [--scale 0.1|1|10] [--duration 5] [--warmup 2] [--reseed] [--only <case>]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '@zapdesk/server/app';
import { loadConfig } from '@zapdesk/server/core/config';
import { buildCases, listPath, REFERENCE, targetsFor, type Case, type User } from './load-cases.js';
import { correctnessChecks } from './load-checks.js';
import { openLoadDatabase, type LoadDatabase } from './load-database.js';
import { whileIngesting } from './load-ingest.js';
import { measureDistinctWords, measureRepeated, timeOneAtATime, type Row } from './load-measure.js';
import { measureMemory, reportName, RESULTS_DIR, resultFile, summarise, type TimedRow } from './load-report.js';
import { measureReports } from './reports-load.js';
import { agentEmail, parseScale, scaleTag, seedShape, seedVocabulary } from './seed.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    scale: { type: 'string', default: '1' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    reseed: { type: 'boolean', default: false },
    'skip-writes': { type: 'boolean', default: false },
    'skip-crowd': { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
const kind = values.db === 'postgres' ? 'postgres' : 'sqlite';
const scale = parseScale(values.scale);
const tag = scaleTag(scale);
const SEED = seedShape(scale);
const SEED_TICKETS = SEED.tickets.closed + SEED.tickets.open + SEED.tickets.pending;
const duration = Number(values.duration);
const warmup = Number(values.warmup);
const connections = Number(values.connections);
const TARGETS = targetsFor(kind);
const INGEST_RATE = 200;
const loadAverage = () => os.loadavg().map((l) => Number(l.toFixed(2)));

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const loadAtStart = loadAverage();
  const database = await openLoadDatabase(kind, scale, values.reseed);
  console.log(
    `info  ${kind} ${tag}: a copy of ${database.seed} in ${database.copiedInMs} ms${database.readInMs === undefined ? '' : `, read through in ${database.readInMs} ms`}; load average ${loadAtStart.join(' ')}`,
  );
  // Interrupted: the copy goes all the same.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void database.drop().finally(() => process.exit(130)));
  try {
    await bench(database, startedAt, loadAtStart);
  } finally {
    await database.drop();
  }
}

async function bench(database: LoadDatabase, startedAt: string, loadAtStart: number[]): Promise<void> {
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
    loadConfig({
      DATA_DIR: database.dataDir,
      ADMIN_EMAIL: SEED.adminEmail,
      ADMIN_PASSWORD: SEED.password,
      LOG_LEVEL: 'error',
      SIMULATOR: 'on',
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    }),
  );
  const address = await built.app.listen({ port: 0, host: '127.0.0.1' });
  const login = async (email: string): Promise<User> => {
    const res = await built.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: SEED.password } });
    if (res.statusCode !== 200) throw new Error(`login ${email}: ${res.statusCode} ${res.body}`);
    const body = res.json<{ token: string; user: { id: number; queues: { id: number }[] } }>();
    return { token: body.token, id: body.user.id, queueIds: body.user.queues.map((q) => q.id) };
  };
  const agent = await login(agentEmail(1));
  const admin = await login(SEED.adminEmail);
  const users = { agent, admin };
  const inject = async (user: 'agent' | 'admin', url: string) => {
    const started = performance.now();
    const res = await built.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${users[user].token}` } });
    return { statusCode: res.statusCode, body: res.body, ms: performance.now() - started };
  };
  const get = async <T>(user: 'agent' | 'admin', url: string): Promise<T> => {
    const res = await inject(user, url);
    if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`);
    return JSON.parse(res.body) as T;
  };

  // ---------- a raw view of the copy, for picking cases and checking writes ----------
  const raw = kind === 'sqlite' ? new SQLite(path.join(database.dataDir, 'zapdesk.sqlite')) : undefined;
  // Migrations newer than the cached seed ran at start: fold their writes in before measuring.
  raw?.pragma('wal_checkpoint(TRUNCATE)');
  const pgClient = database.url ? new pg.Client({ connectionString: database.url }) : undefined;
  await pgClient?.connect();
  const query = async <T>(text: string): Promise<T[]> => (raw ? (raw.prepare(text).all() as T[]) : ((await pgClient?.query(text))?.rows as T[]));
  // A write from another connection: it empties the server's read memo.
  const touchText = `update settings set "updatedAt" = $1 where key = 'timeCreateNewTicket'`;
  const touchStatement = raw?.prepare(touchText.replace('$1', '?'));
  const touch = async () => {
    const now = new Date().toISOString();
    if (touchStatement) touchStatement.run(now);
    else await pgClient?.query(touchText, [now]);
  };
  const [longTicket] = await query<{ id: number; n: number }>(
    `select "ticketId" as id, count(*) as n from messages where "ticketId" in (select id from tickets where "unreadMessages" = 0) group by "ticketId" having count(*) > 100 order by count(*) desc limit 1`,
  );
  // Opening a ticket reads it only for its own agent: the control is one of the agent's.
  const [unreadTicket] = await query<{ id: number }>(`select id from tickets where "unreadMessages" > 0 and status = 'open' and "userId" = ${agent.id} order by id limit 1`);
  if (!longTicket || !unreadTicket) throw new Error('the seed has no long read ticket or no unread ticket');
  const cases = buildCases(agent, admin, longTicket).filter((c) => !values.only || c.name.includes(values.only));

  // ---------- correctness at this size ----------
  const checks = await correctnessChecks({ get, query, raw, agent, longTicket, unreadTicket });

  // ---------- the dashboard and the Reports page (bench/reports-load.ts), one at a time ----------
  const reportCalls: { url: string; ms: number }[] = [];
  const reportsPass = await measureReports({
    kind,
    inject: async (url) => {
      const res = await inject('admin', url);
      reportCalls.push({ url, ms: res.ms });
      return res;
    },
    query,
    // reports-<db>.json is the 1x figure: written by `--only reports` at 1x alone; a full run keeps its reports here.
    write: scale === 1 && values.only === 'reports',
  });
  checks.push({ name: 'each report under 500 ms, its figures matching plain counts', pass: reportsPass, detail: 'see reports in this file' });
  const reports: TimedRow[] = [...new Set(reportCalls.map((c) => c.url))].map((url) => {
    // Each report's calls: a warm-up, then the timed runs (the 93-day one is asked once more for its check).
    const times = reportCalls.filter((c) => c.url === url).map((c) => c.ms);
    const timed = times.slice(1, 6).sort((a, b) => a - b);
    return { case: reportName(url), url, runs: timed.length, medianMs: Number((timed[Math.floor(timed.length / 2)] ?? 0).toFixed(1)), maxMs: Number((timed.at(-1) ?? 0).toFixed(1)) };
  });
  const dashboard: TimedRow[] = [];
  for (const [who, url] of [
    ['admin', '/api/dashboard'],
    ['admin', '/api/dashboard?range=7d'],
    ['admin', '/api/dashboard?range=30d'],
    ['agent', '/api/dashboard'],
  ] as const) {
    // A write before each run: the dashboard is read as a live inbox sees it, nothing memoised.
    const timed = await timeOneAtATime((u) => inject(who, u), url, 5, touch);
    dashboard.push({ case: `${who}: dashboard${url.includes('range') ? `, ${url.split('=')[1]}` : ', today'}`, url, ...timed });
    console.log(`      ${who}: GET ${url}: median ${timed.medianMs} ms, slowest ${timed.maxMs} ms`);
  }

  // ---------- load: the same-run bare route first, then every case ----------
  // The same ticket page, already in memory, served by a bare Fastify route in this process:
  // what the framework and JSON cost alone. Every list, the bell and the chat page are read against it.
  const measure = (c: Case, label: string, base = address) => measureRepeated({ base, c, label, token: users[c.user].token, connections, duration, warmup });
  const barePage = await get<unknown>('agent', listPath(agent, false, { status: 'open', isGroup: 'false' }));
  const bareServer = Fastify();
  bareServer.get('/bare', async () => barePage);
  const bareAddress = await bareServer.listen({ port: 0, host: '127.0.0.1' });
  const bare = await measure({ name: "bare Fastify route: the agent's Working on page from memory", kind: 'baseline', user: 'agent', path: '/bare' }, 'bare route', bareAddress);
  await bareServer.close();
  const results: Row[] = [];
  for (const c of cases) results.push(await measure(c, c.name));

  // A live inbox writes all the time, and every write empties the read cache: the agent's cases
  // again while another connection commits a write every 100 ms (`--skip-writes` leaves it out).
  const whileWriting: Row[] = [];
  if (!values['skip-writes']) {
    const writer = setInterval(() => void touch(), 100);
    try {
      for (const c of cases) if (c.user === 'agent' || c.kind !== 'list') whileWriting.push(await measure(c, `${c.name}, with 10 writes/s`));
    } finally {
      clearInterval(writer);
    }
  }

  // ---------- searches, a different word on every request ----------
  // Every word of the seed's vocabulary (names, cities, message words; common and rare) and
  // tracking codes that are in one message each. Each request asks a word never asked before by
  // that user, so nothing is memoised: once one at a time (what one agent waits for; the target),
  // then the other user's turn with 10 connections at once (what a busy team waits for).
  const codes = (await query<{ body: string }>(`select body from messages where body like 'Seu pedido foi enviado%' order by id limit 40`))
    .map((r) => /BR\d+/.exec(r.body)?.[0]?.toLowerCase())
    .filter((c): c is string => Boolean(c));
  const words = [...seedVocabulary(), ...codes.slice(0, 30)];
  const searchFor = (user: User, word: string) => ({ path: listPath(user, user === admin, { searchParam: word }), token: user.token });
  const distinct = (label: string, requests: { path: string; token: string }[], conns: number) =>
    measureDistinctWords({ base: address, label, requests, connections: conns, tickets: SEED_TICKETS, maxP99Ms: TARGETS.newWord.maxP99Ms });
  const distinctSearch = [
    await distinct(
      `${words.length} different words, one at a time (agent, admin alternating)`,
      words.map((w, i) => searchFor(i % 2 ? admin : agent, w)),
      1,
    ),
    // `--skip-crowd` leaves the 10-at-once turn out (it is not a target).
    ...(values['skip-crowd']
      ? []
      : [
          await distinct(
            `${words.length} different words, 10 connections (the other user for each word)`,
            words.map((w, i) => searchFor(i % 2 ? agent : admin, w)),
            connections,
          ),
        ]),
  ];

  // ---------- the agent's lists while the inbound pipeline ingests ----------
  const ingest = await whileIngesting({
    built,
    query,
    rate: INGEST_RATE,
    during: async () => {
      const rows: Row[] = [];
      for (const c of cases) if (c.user === 'agent' && c.kind === 'list') rows.push(await measure({ ...c, kind: 'ingesting' }, `${c.name}, ingesting ${INGEST_RATE} messages/s`));
      return rows;
    },
  });
  const ingestRate = Math.round(ingest.stored / ingest.seconds);
  console.log(`info  ingested ${ingest.stored} of ${ingest.delivered} messages in ${ingest.seconds.toFixed(1)} s (${ingestRate}/s)`);
  const ingestAllStored = ingest.stored === ingest.delivered && ingestRate >= INGEST_RATE * 0.9;
  checks.push({ name: 'every message ingested during the lists was stored', pass: ingestAllStored, detail: `${ingest.stored} stored of ${ingest.delivered} delivered, ${ingestRate} messages/s` });

  // The plans of what the server runs, nothing memoised: a write first empties the memo.
  let plans = '';
  if (pgClient) {
    const planCases: [string, 'agent' | 'admin', string][] = [
      ['agent: Inbox, Working on (open)', 'agent', listPath(agent, false, { status: 'open', isGroup: 'false' })],
      ['admin: Resolved (closed)', 'admin', listPath(admin, true, { status: 'closed' })],
      ["agent: search 'joao' (the word in the most messages)", 'agent', listPath(agent, false, { searchParam: 'joao' })],
      ["admin: search 'paulo'", 'admin', listPath(admin, true, { searchParam: 'paulo' })],
      [`admin: messages of ticket #${longTicket.id}`, 'admin', `/api/messages/${longTicket.id}?pageNumber=1`],
      ["admin: contacts search 'maria'", 'admin', `/api/contacts?searchParam=maria&pageNumber=1`],
    ];
    for (const [name, user, url] of planCases) {
      await touch();
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

  // ---------- the server's memory after the run ----------
  // The server runs in this process: its RSS and heap after a forced GC (node --expose-gc),
  // with the benchmark's own small state (the vocabulary, the results) in the same heap.
  raw?.close();
  await pgClient?.end();
  const memory = measureMemory();
  console.log(`info  memory after the run${memory.forcedGc ? ' and a forced GC' : ' (no forced GC: run node with --expose-gc)'}: heap ${memory.heapUsedMiB} MiB, RSS ${memory.rssMiB} MiB`);

  const summary = summarise({
    kind,
    tag,
    targets: TARGETS,
    bare,
    results,
    ingesting: ingest.result,
    ingestAllStored,
    newWord: distinctSearch[0]!,
    dashboard,
    reports,
    reportsChecked: reportsPass,
    memory,
  });
  for (const t of summary.targetsMet) console.log(`${t.met ? 'met ' : 'MISS'}  ${t.target}: ${t.measured}`);
  for (const c of checks) console.log(`${c.pass ? 'pass' : 'FAIL'}  check: ${c.name}: ${c.detail}`);
  const loadAtEnd = loadAverage();
  const output = {
    benchmark: 'inbox-load',
    database: kind,
    scale,
    tag,
    date: startedAt,
    machine: {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model ?? '',
      node: process.version,
      loadAverage: { atStart: loadAtStart, atEnd: loadAtEnd },
      note:
        Math.max(loadAtStart[0] ?? 0, loadAtEnd[0] ?? 0) > os.cpus().length
          ? 'A busy machine: the 1-minute load average was above the core count during the run (other work shared the cores), so these figures are upper bounds, not a quiet machine’s.'
          : 'The 1-minute load average stayed within the core count.',
    },
    seed: { ...seedShape(scale), copy: { of: database.seed, copiedInMs: database.copiedInMs, ...(database.readInMs === undefined ? {} : { readInMs: database.readInMs }) } },
    connections,
    durationSeconds: duration,
    warmupSeconds: warmup,
    targets: TARGETS,
    targetsMet: summary.targetsMet,
    allTargetsMet: summary.targetsMet.every((t) => t.met),
    curve: summary.curve,
    note: 'Lists, counts and message pages are memoised until the next database write (apps/server/src/core/db/read-cache.ts): `results` repeat one request, so they measure that steady state, each with its ratio to the same-run bare route (`baselines.bare`); `whileWriting` repeats the agent cases under 10 commits a second from another connection, `whileIngesting` the agent lists under the inbound pipeline at 200 messages a second. `distinctSearch` asks a different word on every request (nothing memoised). The dashboard is asked after a write each time; the reports one at a time after a warm-up. `memory` is the process holding the server (and this benchmark’s small state) after a forced GC.',
    baselines: { bare, health: results.find((r) => r.request === 'GET /api/health') ?? null, queue: results.find((r) => r.request === 'GET /api/queue') ?? null },
    results: summary.results,
    whileWriting: { note: 'The agent cases while another connection commits a write every 100 ms, which empties the read cache', results: whileWriting },
    distinctSearch,
    whileIngesting: {
      note: `The agent's lists while the seed's contacts write ${INGEST_RATE} messages a second through the simulator and the inbound pipeline, on the same database and in the same process`,
      delivered: ingest.delivered,
      stored: ingest.stored,
      messagesPerSecond: ingestRate,
      results: summary.ingesting,
    },
    dashboard,
    reports,
    memory: summary.memory,
    reference: REFERENCE,
    correctness: checks,
    allChecksPass: checks.every((c) => c.pass),
  };
  if (!values.only) {
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    fs.writeFileSync(resultFile(kind, tag), JSON.stringify(output, null, 2) + '\n');
    if (plans) fs.writeFileSync(path.join(RESULTS_DIR, `load-${kind}-plans-${tag}.txt`), plans);
    console.log(`info  wrote ${path.relative(process.cwd(), resultFile(kind, tag))}; load average ${loadAtEnd.join(' ')}`);
  }

  await built.close();
  if (!output.allChecksPass) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
