/**
 * The database bench:load works on: a copy of the cached seed of the asked scale, never the seed
 * itself (the ingest case and the server's start-up write). SQLite: the seed file copied into a
 * temporary directory. PostgreSQL: `create database <copy> template <seed>` (what `createdb -T`
 * does), dropped at the end.
 *
 * With BENCH_SEED_DIR set the seeds are shared and built by `bench:seed` alone: the run waits for
 * `READY-<db>-<tag>` there and never builds one. Without it, a missing or stale seed is built as
 * before (`--reseed` forces it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { scaleTag, seedExists, seedPostgres, seedSqlite, seedTarget } from './seed.js';

export type LoadDatabase = {
  /** PostgreSQL: the copy's URL; SQLite: undefined (the server opens DATA_DIR/zapdesk.sqlite). */
  url: string | undefined;
  dataDir: string;
  /** Where the copy came from (a file or a database URL without credentials). */
  seed: string;
  copiedInMs: number;
  /** SQLite: the time to read the copy once through, into the OS's cache (see readThrough). */
  readInMs?: number;
  drop: () => Promise<void>;
};

/**
 * Reads a file once from start to end. A server that has been answering for a while has its
 * database in the OS's cache; a copy just made may not be (on some machines the copy's pages
 * are not kept), and the first minutes of the run would then measure the disk, not the server.
 */
function readThrough(file: string): number {
  const started = performance.now();
  const buffer = Buffer.allocUnsafe(8 * 1024 * 1024);
  const fd = fs.openSync(file, 'r');
  try {
    while (fs.readSync(fd, buffer, 0, buffer.length, null) > 0);
  } finally {
    fs.closeSync(fd);
  }
  return Math.round(performance.now() - started);
}

async function admin(url: string, statement: string): Promise<void> {
  const base = new URL(url);
  base.pathname = '/postgres';
  const client = new pg.Client({ connectionString: base.toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function ensureSeed(kind: 'sqlite' | 'postgres', scale: number, target: string, reseed: boolean): Promise<void> {
  const shared = process.env.BENCH_SEED_DIR;
  if (shared && !reseed) {
    const ready = path.join(shared, `READY-${kind}-${scaleTag(scale)}`);
    if (!fs.existsSync(ready)) throw new Error(`the shared seed is not ready: ${ready} is missing (build it with npm run bench:seed -- --db ${kind} --scale ${scale})`);
    return;
  }
  if (reseed || !(await seedExists(kind, target, scale))) {
    if (kind === 'postgres') await seedPostgres(target, console.log, scale);
    else await seedSqlite(target, console.log, scale);
  }
}

export async function openLoadDatabase(kind: 'sqlite' | 'postgres', scale: number, reseed: boolean): Promise<LoadDatabase> {
  const target = seedTarget(kind, scale);
  await ensureSeed(kind, scale, target, reseed);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-load-'));
  const started = performance.now();
  if (kind === 'sqlite') {
    // The seed is checkpointed when built; a WAL left beside it is copied too, so the copy is whole.
    fs.copyFileSync(target, path.join(dataDir, 'zapdesk.sqlite'));
    if (fs.existsSync(`${target}-wal`)) fs.copyFileSync(`${target}-wal`, path.join(dataDir, 'zapdesk.sqlite-wal'));
    const copiedInMs = Math.round(performance.now() - started);
    const readInMs = readThrough(path.join(dataDir, 'zapdesk.sqlite'));
    return { url: undefined, dataDir, seed: target, copiedInMs, readInMs, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const seedName = new URL(target).pathname.slice(1);
  const copyName = `zapdesk_load_${scaleTag(scale)}_${process.pid}`;
  // A template must have no other session: another run copying the same seed makes this wait.
  for (let tries = 0; ; tries += 1) {
    try {
      await admin(target, `create database ${copyName} template ${seedName}`);
      break;
    } catch (error) {
      if (tries >= 120 || !/being accessed by other users/.test(String(error))) throw error;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  const url = new URL(target);
  url.pathname = `/${copyName}`;
  return {
    url: url.toString(),
    dataDir,
    seed: `${url.host}/${seedName}`,
    copiedInMs: Math.round(performance.now() - started),
    drop: async () => {
      await admin(target, `drop database if exists ${copyName} with (force)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
