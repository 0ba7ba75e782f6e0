/**
 * The inbox benchmark's seed (issue 4): 50,000 contacts, 100,000 tickets and 1,000,000 messages,
 * in Portuguese with accents, built on the product's own schema (its migrations) with bulk
 * inserts. Every column the product reads is filled as the product fills it: the folded
 * `searchText` of contacts, users and messages (and through it the full-text indexes of
 * migrations 003 and 018: SQLite FTS5 kept by triggers, PostgreSQL's GIN tsvector index), the
 * ticket's lastMessage, updatedAt and unreadMessages matching its messages.
 *
 *   npx tsx --conditions=source bench/seed.ts --db sqlite [--scale 0.1|1|10] [--out bench/.data/sqlite/zapdesk.sqlite]
 *   npx tsx --conditions=source bench/seed.ts --db postgres [--scale 0.1|1|10] [--out postgres://postgres@127.0.0.1:5432/zapdesk_bench_seed]
 *
 * `--scale 10`: 500,000 contacts, 1,000,000 tickets, 10,000,000 messages (zapdesk-10x.sqlite,
 * zapdesk_bench_seed_10x); `--scale 0.1` a tenth. Every count of data scales; queues and agents
 * stay. A build from the command line writes its cost (wall and CPU time, peak memory, size,
 * load average) to bench/results/seed-<db>-<scale>.json.
 *
 * Logins: admin@bench.local and agente1..agente20@bench.local, password 'bench-pass'.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { LIMITS } from '@zapdesk/shared/domain';
import { migrationsFor } from '@zapdesk/server/core/db/migrate';
import { SEED_SCALES, seedShape } from './seed-data.js';
import { seedSqlite } from './seed-sqlite.js';
import { seedPostgres } from './seed-postgres.js';

export { agentEmail, SEED_LABELS, SEED_SCALES, seedShape, type SeedShape } from './seed-data.js';
export { seedVocabulary } from './seed-texts.js';
export { seedSqlite } from './seed-sqlite.js';
export { seedPostgres } from './seed-postgres.js';

export const SEED = seedShape(1);
export function parseScale(value: string | undefined): number {
  const scale = Number(value ?? '1');
  if (!SEED_SCALES.includes(scale as (typeof SEED_SCALES)[number])) throw new Error(`--scale ${value}: one of ${SEED_SCALES.join(', ')}`);
  return scale;
}
/** '10x', '1x', '0_1x': the scale in file and database names. */
export const scaleTag = (scale: number) => `${String(scale).replace('.', '_')}x`;
/** Where the cached seeds live: BENCH_SEED_DIR (SQLite files) and BENCH_SEED_URL's server (PostgreSQL); the 1× names are the historical ones. */
const SEED_DIR = process.env.BENCH_SEED_DIR ?? path.join(import.meta.dirname, '.data', 'sqlite');
export const DEFAULT_SQLITE_SEED = path.join(SEED_DIR, 'zapdesk.sqlite');
export const DEFAULT_PG_SEED = 'postgres://postgres@127.0.0.1:5432/zapdesk_bench_seed';
/** The default cached seed for a database kind and scale (env BENCH_SEED_FILE / BENCH_SEED_URL override the 1× one). */
export function seedTarget(kind: 'sqlite' | 'postgres', scale = 1): string {
  if (kind === 'sqlite') return scale === 1 ? (process.env.BENCH_SEED_FILE ?? DEFAULT_SQLITE_SEED) : path.join(SEED_DIR, `zapdesk-${scaleTag(scale)}.sqlite`);
  if (scale === 1) return process.env.BENCH_SEED_URL ?? DEFAULT_PG_SEED;
  const url = new URL(process.env.BENCH_SEED_URL ?? DEFAULT_PG_SEED);
  url.pathname = `${url.pathname}_${scaleTag(scale)}`;
  return url.toString();
}

type SeedFacts = { migrations: string[]; contacts: number; tickets: number; messages: number; idleOpen: number };
const FACTS = (cutoff: string) =>
  `select (select count(*) from contacts) as contacts, (select count(*) from tickets) as tickets, (select count(*) from messages) as messages,
          (select count(*) from tickets where status = 'open' and "updatedAt" < '${cutoff}') as "idleOpen"`;

/**
 * True when the seed at `target` is complete and built on today's schema: every migration the
 * code has is applied (a new migration means a rebuild) and it holds the shape's counts of
 * contacts, tickets and messages (a build that failed half way holds fewer). Its age does not
 * matter, with one consequence, said on the console: a server started on a seed whose open
 * tickets have been idle for over a day (LIMITS.autoCloseHours; the open tickets' last messages
 * are within 12 hours of the build) closes them at start. `--reseed` (bench:load) rebuilds.
 */
export async function seedExists(kind: 'sqlite' | 'postgres', target: string, scale = 1): Promise<boolean> {
  const shape = seedShape(scale);
  const cutoff = new Date(Date.now() - LIMITS.autoCloseHours * 3600 * 1000).toISOString();
  let facts: SeedFacts;
  try {
    if (kind === 'sqlite') {
      if (!fs.existsSync(target)) return false;
      const db = new SQLite(target, { readonly: true });
      try {
        const migrations = db.prepare('select name from kysely_migration').pluck().all() as string[];
        facts = { migrations, ...(db.prepare(FACTS(cutoff)).get() as Omit<SeedFacts, 'migrations'>) };
      } finally {
        db.close();
      }
    } else {
      const client = new pg.Client({ connectionString: target });
      await client.connect();
      try {
        const migrations = (await client.query<{ name: string }>('select name from kysely_migration')).rows.map((r) => r.name);
        const row = (await client.query<Record<string, string>>(FACTS(cutoff))).rows[0] ?? {};
        facts = { migrations, contacts: Number(row.contacts), tickets: Number(row.tickets), messages: Number(row.messages), idleOpen: Number(row.idleOpen) };
      } finally {
        await client.end();
      }
    }
  } catch {
    return false;
  }
  const applied = new Set(facts.migrations);
  const missing = Object.keys(migrationsFor(kind)).filter((name) => !applied.has(name));
  const tickets = shape.tickets.closed + shape.tickets.open + shape.tickets.pending;
  const complete = facts.contacts === shape.contacts && facts.tickets === tickets && facts.messages === shape.messages;
  if (missing.length === 0 && complete && facts.idleOpen > 0) {
    console.warn(`seed ${kind} ${scaleTag(scale)}: ${facts.idleOpen} open tickets idle for over ${LIMITS.autoCloseHours} h; a server started on it closes them (--reseed rebuilds it)`);
  }
  return missing.length === 0 && complete;
}

/** Builds a seed and writes what it cost to bench/results/seed-<db>-<scale>.json. */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { db: { type: 'string', default: 'sqlite' }, out: { type: 'string' }, scale: { type: 'string', default: '1' }, results: { type: 'string' } } });
  const scale = parseScale(values.scale);
  const loadBefore = os.loadavg();
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  let phases: Record<string, number>;
  let size: number;
  const kind = values.db;
  if (kind === 'postgres') {
    const url = values.out ?? seedTarget('postgres', scale);
    phases = await seedPostgres(url, console.log, scale);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    size = Number((await client.query<{ size: string }>('select pg_database_size(current_database()) as size')).rows[0]?.size);
    await client.end();
  } else if (kind === 'sqlite') {
    const file = path.resolve(values.out ?? seedTarget('sqlite', scale));
    phases = await seedSqlite(file, console.log, scale);
    size = fs.statSync(file).size;
  } else throw new Error('--db sqlite|postgres');
  const wall = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const shape = seedShape(scale);
  const result = {
    db: kind,
    scale,
    at: new Date().toISOString(),
    rows: { contacts: shape.contacts, tickets: shape.tickets.closed + shape.tickets.open + shape.tickets.pending, messages: shape.messages },
    wallSeconds: Number(wall.toFixed(1)),
    // The seed process's own CPU time; on PostgreSQL the database's work is in its backend (phases['database backend cpu'], ms, when readable).
    cpuSeconds: { user: Number((cpu.user / 1e6).toFixed(1)), system: Number((cpu.system / 1e6).toFixed(1)) },
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    sizeMB: Math.round(size / 1024 / 1024),
    phasesMs: phases,
    loadavg: { before: loadBefore.map((n) => Number(n.toFixed(2))), after: os.loadavg().map((n) => Number(n.toFixed(2))) },
    machine: { cpus: os.cpus().length, memoryGB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
  };
  const out = values.results ?? path.join(import.meta.dirname, 'results', `seed-${kind}-${scaleTag(scale)}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `seeded in ${result.wallSeconds} s (CPU ${(result.cpuSeconds.user + result.cpuSeconds.system).toFixed(1)} s, peak ${result.peakRssMB} MB, ${result.sizeMB} MB); ${path.relative(process.cwd(), out)}`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
