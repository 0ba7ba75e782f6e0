/**
 * The Reports page and the dashboard on a seed of a given scale, alone (bench/reports-load.ts), on
 * a copy of the cached seed (SQLite: a file in a temporary folder; PostgreSQL: a database made from
 * the seed as template, dropped at the end), the product's newer migrations run on the copy and
 * timed. Writes bench/results/reports-<db>-<scale>.json.
 *
 *   BENCH_SEED_DIR=/work/seed npx tsx --conditions=source bench/reports-scale.ts --db sqlite --scale 10
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { buildApp } from '@zapdesk/server/app';
import { loadConfig } from '@zapdesk/server/core/config';
import { measureReports } from './reports-load.js';
import { parseScale, scaleTag, SEED, seedTarget } from './seed.js';

const { values } = parseArgs({ options: { db: { type: 'string', default: 'sqlite' }, scale: { type: 'string', default: '1' } } });
const kind = values.db === 'postgres' ? 'postgres' : 'sqlite';
const scale = parseScale(values.scale);
const seed = seedTarget(kind, scale);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-reports-'));
let databaseUrl: string | undefined;
let admin: pg.Client | undefined;
let copyName = '';
if (kind === 'postgres') {
  const url = new URL(seed);
  copyName = `${url.pathname.slice(1)}_reports_${process.pid}`;
  admin = new pg.Client({ connectionString: new URL('/postgres', url).toString() });
  await admin.connect();
  await admin.query(`create database "${copyName}" template "${url.pathname.slice(1)}"`);
  url.pathname = `/${copyName}`;
  databaseUrl = url.toString();
} else fs.copyFileSync(seed, path.join(dataDir, 'zapdesk.sqlite'));

try {
  const started = performance.now();
  const built = await buildApp(
    loadConfig({ DATA_DIR: dataDir, ADMIN_EMAIL: SEED.adminEmail, ADMIN_PASSWORD: SEED.password, LOG_LEVEL: 'error', SIMULATOR: 'on', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }),
  );
  await built.app.ready();
  console.log(
    `server up on the ${scaleTag(scale)} seed copy (its newer migrations run) in ${((performance.now() - started) / 1000).toFixed(1)} s; loadavg ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`,
  );
  const login = await built.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: SEED.adminEmail, password: SEED.password } });
  const token = login.json<{ token: string }>().token;
  const headers = { authorization: `Bearer ${token}` };
  const raw = kind === 'sqlite' ? new SQLite(path.join(dataDir, 'zapdesk.sqlite')) : undefined;
  raw?.pragma('wal_checkpoint(TRUNCATE)');
  const client = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : undefined;
  await client?.connect();
  // A copy whose tickets table was just rewritten (migration 043 on PostgreSQL) is vacuumed as autovacuum would.
  await client?.query('vacuum analyze tickets');
  const query = async <T>(text: string): Promise<T[]> => (raw ? (raw.prepare(text).all() as T[]) : ((await client?.query(text))?.rows as T[]));
  const inject = async (url: string) => {
    const t0 = performance.now();
    const res = await built.app.inject({ method: 'GET', url, headers });
    return { statusCode: res.statusCode, body: res.body, ms: performance.now() - t0 };
  };
  const put = async (url: string, payload: object) => (await built.app.inject({ method: 'PUT', url, headers, payload })).statusCode;
  const pass = await measureReports({ kind, inject, query, write: true, put, tag: scaleTag(scale) });
  console.log(`${pass ? 'every target met' : 'targets missed'}; loadavg ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
  raw?.close();
  await client?.end();
  await built.close();
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (admin) {
    await admin.query(`drop database if exists "${copyName}" with (force)`);
    await admin.end();
  }
}
