/**
 * What a ticket list costs when nothing is memoised (as under ingest, where every write moves the
 * read memo's version): each tab of the agent and the admin, the bell and a long chat's page,
 * computed by the product's repositories straight on a copy of a seed, with the plan of every
 * statement they ran. Compare the same probe at 0.1x, 1x and 10x: a list's cost must not grow
 * with the data.
 *
 *   npx tsx --conditions=source bench/lists-probe.ts --db sqlite --file /tmp/copy/zapdesk.sqlite [--runs 30] [--plans]
 *   npx tsx --conditions=source bench/lists-probe.ts --db postgres --url postgres://postgres@127.0.0.1:5432/copy [--runs 30] [--plans]
 *
 * Writes bench/results/lists-probe-<db>-<tag>.json when --tag is given.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type CompiledQuery } from 'kysely';
import pg from 'pg';
import type { Database } from '@zapdesk/server/core/db/schema';
import { openDatabase } from '@zapdesk/server/core/db/database';
import { migrateToLatest } from '@zapdesk/server/core/db/migrate';
import { listTickets, type TicketFilters, type TicketScope } from '@zapdesk/server/features/tickets/tickets-list.repository';
import { listTicketMessages } from '@zapdesk/server/features/messages/messages.repository';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    file: { type: 'string' },
    url: { type: 'string' },
    runs: { type: 'string', default: '30' },
    plans: { type: 'boolean', default: false },
    tag: { type: 'string' },
  },
});
const kind = values.db === 'postgres' ? 'postgres' : 'sqlite';
const runs = Number(values.runs);
let captured: CompiledQuery[] = [];
const log = (event: { query: CompiledQuery }) => {
  if (captured.length < 10) captured.push(event.query);
};
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
const sqlite = kind === 'sqlite' ? new SQLite(values.file ?? '') : undefined;
if (sqlite) sqlite.pragma('cache_size = -65536');
const pool = kind === 'postgres' ? new pg.Pool({ connectionString: values.url, max: 4 }) : undefined;
// Plans through a logging instance; timings through the product's own (SQLite's statement cache, the same pool).
const db = new Kysely<Database>({ dialect: sqlite ? new SqliteDialect({ database: sqlite }) : new PostgresDialect({ pool: pool! }), log });
const handle = openDatabase(kind === 'sqlite' ? { databaseUrl: undefined, dataDir: path.dirname(values.file ?? '') } : { databaseUrl: values.url, dataDir: os.tmpdir() });
const product = handle.db;
// The copy gets the migrations this checkout has (the seed may predate some).
const migrationStarted = performance.now();
const applied = await migrateToLatest(handle);
if (applied.length) console.log(`applied ${applied.join(', ')} in ${((performance.now() - migrationStarted) / 1000).toFixed(1)} s`);

const user = async (email: string) => {
  const row = await db.selectFrom('users').select(['id', 'profile']).where('email', '=', email).executeTakeFirstOrThrow();
  const queues = await db.selectFrom('userQueues').select('queueId').where('userId', '=', row.id).execute();
  return { id: row.id, queueIds: queues.map((q) => q.queueId) };
};
const agent = await user('agente1@bench.local');
const admin = await user('admin@bench.local');
const scopeOf = (who: typeof agent, isAdmin: boolean, showAll: boolean): TicketScope => ({ userId: who.id, admin: isAdmin, allQueues: isAdmin, showAll, queueIds: who.queueIds });
type Case = { name: string; scope: TicketScope; filters: TicketFilters };
const cases: Case[] = [];
for (const [who, u, isAdmin] of [
  ['agent', agent, false],
  ['admin', admin, true],
] as const) {
  const scope = scopeOf(u, isAdmin, isAdmin);
  const queueIds = u.queueIds;
  cases.push(
    { name: `${who}: open`, scope, filters: { status: 'open', isGroup: false, queueIds } },
    { name: `${who}: pending`, scope, filters: { status: 'pending', isGroup: false, queueIds } },
    { name: `${who}: group open`, scope, filters: { status: 'open', isGroup: true, queueIds } },
    { name: `${who}: group pending`, scope, filters: { status: 'pending', isGroup: true, queueIds } },
    { name: `${who}: closed`, scope, filters: { status: 'closed', queueIds } },
    { name: `${who}: bell (unread pending)`, scope: scopeOf(u, isAdmin, false), filters: { status: 'pending', withUnreadMessages: true } },
    { name: `${who}: bell (unread open)`, scope: scopeOf(u, isAdmin, false), filters: { status: 'open', withUnreadMessages: true } },
  );
}

async function explain(query: CompiledQuery): Promise<string> {
  if (sqlite) {
    const rows = sqlite.prepare(`explain query plan ${query.sql}`).all(...(query.parameters as unknown[])) as { detail: string }[];
    // The statement alone, run 50 times: its cost in SQLite, without the query builder around it.
    const statement = sqlite.prepare(query.sql);
    const started = performance.now();
    for (let i = 0; i < 50; i += 1) statement.all(...(query.parameters as unknown[]));
    const each = (performance.now() - started) / 50;
    return `${rows.map((r) => `  ${r.detail}`).join('\n')}\n  -> ${each.toFixed(3)} ms per run`;
  }
  const { rows } = await pool!.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${query.sql}`, query.parameters as unknown[]);
  return rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n');
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
async function time(work: () => Promise<unknown>) {
  await work();
  const ms: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await work();
    ms.push(performance.now() - started);
  }
  const used = process.cpuUsage(cpu);
  ms.sort((a, b) => a - b);
  // CPU time of this process per list: on a busy machine wall times mostly measure waiting for a core.
  return {
    cpuMsPerList: Number(((used.user + used.system) / 1000 / runs).toFixed(2)),
    p50Ms: Number(percentile(ms, 0.5).toFixed(2)),
    p99Ms: Number(percentile(ms, 0.99).toFixed(2)),
    maxMs: Number((ms.at(-1) ?? 0).toFixed(2)),
  };
}

const [counts] = (await db
  .selectFrom('tickets')
  .select((eb) => eb.fn.countAll<number>().as('tickets'))
  .execute()) as { tickets: number }[];
const results = [];
for (const c of cases) {
  captured = [];
  const page = await listTickets(db, kind, { scope: c.scope, filters: c.filters, pageNumber: 1 });
  const statements = captured;
  captured = [];
  const timing = await time(() => listTickets(product, kind, { scope: c.scope, filters: c.filters, pageNumber: 1 }));
  results.push({ case: c.name, count: page.count, hasMore: page.hasMore, ...timing });
  console.log(`${c.name.padEnd(32)} count ${String(page.count).padStart(8)}  cpu ${timing.cpuMsPerList} ms  p50 ${timing.p50Ms} ms  p99 ${timing.p99Ms} ms`);
  if (values.plans) for (const q of statements.slice(0, 4)) console.log(`${q.sql.slice(0, values.plans ? 300 : 0)}\n${await explain(q)}`);
}
const long = await db
  .selectFrom('messages')
  .select(['ticketId', (eb) => eb.fn.countAll<number>().as('n')])
  .where('ticketId', '<=', 5000)
  .groupBy('ticketId')
  .orderBy('n', 'desc')
  .limit(1)
  .executeTakeFirstOrThrow();
captured = [];
await listTicketMessages(db, long.ticketId, { limit: 40, offset: 0, withNotes: false });
const chatStatements = captured;
captured = [];
const chat = await time(() => listTicketMessages(product, long.ticketId, { limit: 40, offset: 0, withNotes: false }));
results.push({ case: `chat page of a ${long.n}-message ticket`, count: Number(long.n), ...chat });
console.log(`chat page (${long.n} messages)`.padEnd(32), `cpu ${chat.cpuMsPerList} ms  p50 ${chat.p50Ms} ms  p99 ${chat.p99Ms} ms`);
if (values.plans) for (const q of chatStatements) console.log(`${q.sql}\n${await explain(q)}`);

const out = { db: kind, tickets: Number(counts?.tickets), runs, loadavg: os.loadavg().map((n) => Number(n.toFixed(2))), measuredAt: new Date().toISOString(), results };
if (values.tag) {
  const file = path.join(import.meta.dirname, 'results', `lists-probe-${kind}-${values.tag}.json`);
  fs.writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  console.log(`wrote ${file}`);
}
await db.destroy();
await product.destroy();
