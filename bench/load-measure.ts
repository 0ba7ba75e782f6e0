/**
 * bench:load's two ways of sending load, each from its own process so it takes no CPU from the
 * server's event loop: autocannon repeating one request over N connections, and bench/drive.ts
 * sending requests that differ on every call.
 */
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Case } from './load-cases.js';
import type { DriveOutput } from './drive.js';

const run = promisify(execFile);
const AUTOCANNON = path.join(path.dirname(fileURLToPath(import.meta.resolve('autocannon/package.json'))), 'autocannon.js');

export type Row = {
  case: string;
  kind: Case['kind'];
  request: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  averageMs: number;
  requests: number;
  errors: number;
};

/** Repeats one request for `duration` seconds over `connections` connections, after a short warm-up. */
export async function measureRepeated(options: { base: string; c: Case; label: string; token: string; connections: number; duration: number; warmup: number }): Promise<Row> {
  const { c } = options;
  const url = `${options.base}${c.path}`;
  const args = ['-c', String(options.connections), '-H', `authorization=Bearer ${options.token}`, '-j'];
  // Warm-up (statement caches, page cache), then the measure.
  if (options.warmup > 0) await run(process.execPath, [AUTOCANNON, ...args, '-d', String(options.warmup), url], { maxBuffer: 1 << 24 });
  const { stdout } = await run(process.execPath, [AUTOCANNON, ...args, '-d', String(options.duration), url], { maxBuffer: 1 << 24 });
  const r = JSON.parse(stdout) as { requests: { average: number; total: number }; latency: { p50: number; p99: number; average: number }; non2xx: number; errors: number };
  const row: Row = {
    case: options.label,
    kind: c.kind,
    request: `GET ${c.path}`,
    requestsPerSecond: Math.round(r.requests.average),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    averageMs: r.latency.average,
    requests: r.requests.total,
    errors: r.non2xx + r.errors,
  };
  console.log(`      ${options.label}: ${row.requestsPerSecond} req/s, p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms${row.errors ? `, ${row.errors} errors` : ''}`);
  return row;
}

/** Sends each request once over `connections` keep-alive connections (bench/drive.ts in its own process). */
export async function drive(input: { base: string; connections: number; requests: { path: string; token: string }[] }): Promise<DriveOutput> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'drive.ts')], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (out += chunk));
  child.stdin.end(JSON.stringify(input));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`bench/drive.ts exited with ${code}`);
  return JSON.parse(out) as DriveOutput;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/**
 * A different search word on every request: p50/p99 over all of them, and split by the answer's
 * size (an agent's search still gathers the word's tickets across the inbox before the rules narrow them).
 */
export async function measureDistinctWords(options: { base: string; label: string; requests: { path: string; token: string }[]; connections: number; tickets: number; maxP99Ms: number }) {
  const out = await drive({ base: options.base, connections: options.connections, requests: options.requests });
  const sorted = out.results.map((r) => r.ms).sort((a, b) => a - b);
  const failed = out.results.filter((r) => r.status !== 200).length;
  const row = {
    case: options.label,
    words: options.requests.length,
    connections: options.connections,
    requestsPerSecond: Math.round(options.requests.length / out.seconds),
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted[sorted.length - 1] ?? 0,
    errors: failed,
    bySpread: (
      [
        ['searches answering under 10% of the tickets (as the user sees them)', (n: number) => n < options.tickets / 10],
        ['searches answering 10% of the tickets or more (as the user sees them)', (n: number) => n >= options.tickets / 10],
      ] as const
    ).map(([name, test]) => {
      const group = out.results
        .filter((r) => test(r.count ?? 0))
        .map((r) => r.ms)
        .sort((a, b) => a - b);
      return { words: name, requests: group.length, p50Ms: percentile(group, 50), p99Ms: percentile(group, 99), maxMs: group[group.length - 1] ?? 0 };
    }),
    slowest: [...out.results]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10)
      .map((r) => ({ word: new URLSearchParams(r.path.split('?')[1]).get('searchParam'), ms: r.ms, tickets: r.count })),
  };
  console.log(
    `      ${options.label}: p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms, max ${row.maxMs} ms (slowest: ${row.slowest
      .slice(0, 3)
      .map((s) => `${s.word} ${s.ms} ms`)
      .join(', ')})`,
  );
  return row;
}
export type DistinctRow = Awaited<ReturnType<typeof measureDistinctWords>>;

/** One request at a time, `runs` times after one warm-up, each after `before` (e.g. a write that empties the memo): median and slowest. */
export async function timeOneAtATime(
  inject: (url: string) => Promise<{ statusCode: number; body: string; ms: number }>,
  url: string,
  runs: number,
  before: () => Promise<void> = async () => undefined,
) {
  const warm = await inject(url);
  if (warm.statusCode !== 200) throw new Error(`${url}: ${warm.statusCode} ${warm.body}`);
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    await before();
    const res = await inject(url);
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    times.push(res.ms);
  }
  times.sort((a, b) => a - b);
  return { runs, medianMs: Number(percentile(times, 50).toFixed(1)), maxMs: Number((times.at(-1) ?? 0).toFixed(1)) };
}
