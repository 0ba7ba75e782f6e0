/**
 * What the metrics cost a request: the same server with metrics off and on (METRICS_TOKEN set:
 * every answer counted and timed), 2,000 requests one after the other over a kept-alive HTTP
 * connection, after 500 to warm up, in alternating rounds; the median of each setting's rounds.
 * Two routes: GET /api/health (the cheapest answer, where a fixed cost shows most) and an
 * agent's ticket list (a real screen's read). SQLite, a fresh data folder each run.
 *
 *   npx tsx --conditions=source bench/metrics-overhead.ts [--rounds 5] [--requests 2000]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '@zapdesk/server/app';
import { loadConfig } from '@zapdesk/server/core/config';
import { Metrics } from '@zapdesk/server/core/metrics/metrics';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, requests: { type: 'string', default: '2000' } } });
const ROUNDS = Number(values.rounds);
const REQUESTS = Number(values.requests);
const WARM_UP = 500;
const TOKEN = 'metrics-overhead-token-0123456789';

type Running = { url: string; token: string; close: () => Promise<void> };

async function start(metrics: boolean): Promise<Running> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-metrics-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_EMAIL: 'admin@bench.local',
    ADMIN_PASSWORD: 'bench-pass',
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT: '100000',
    WEB_DIST: path.join(dataDir, 'no-web'),
    ...(metrics ? { METRICS_TOKEN: TOKEN } : {}),
  });
  const built = await buildApp(config);
  const url = await built.app.listen({ port: 0, host: '127.0.0.1' });
  const login = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@bench.local', password: 'bench-pass' }) });
  const { token } = (await login.json()) as { token: string };
  return {
    url,
    token,
    close: async () => {
      await built.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Microseconds per request over `count` sequential requests. */
async function loop(server: Running, route: string, count: number): Promise<number> {
  const headers = { authorization: `Bearer ${server.token}` };
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i += 1) {
    const res = await fetch(`${server.url}${route}`, { headers });
    if (res.status !== 200) throw new Error(`${route}: ${res.status}`);
    await res.arrayBuffer();
  }
  return Number(process.hrtime.bigint() - started) / 1000 / count;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

const servers = { off: await start(false), on: await start(true) };
const routes = ['/api/health', '/api/tickets?status=open&showAll=true'];
const results: Record<string, { off: number; on: number }> = {};
for (const route of routes) {
  const seen: { off: number[]; on: number[] } = { off: [], on: [] };
  for (const setting of ['off', 'on'] as const) await loop(servers[setting], route, WARM_UP);
  for (let round = 0; round < ROUNDS; round += 1) {
    // Alternating, so that a busy moment of the machine falls on both settings.
    const order = round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
    for (const setting of order) seen[setting].push(await loop(servers[setting], route, REQUESTS));
  }
  results[route] = { off: median(seen.off), on: median(seen.on) };
}
const scrape = await fetch(`${servers.on.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
const scrapeBytes = (await scrape.text()).length;
const started = process.hrtime.bigint();
for (let i = 0; i < 100; i += 1) await (await fetch(`${servers.on.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
const scrapeMs = Number(process.hrtime.bigint() - started) / 1e6 / 100;
// What the request hook itself does per answer (a counter and a histogram with three labels),
// in a tight loop: the CPU it costs, apart from the machine's noise.
const alone = new Metrics();
const HOOK_CALLS = 200_000;
const hookStarted = process.hrtime.bigint();
for (let i = 0; i < HOOK_CALLS; i += 1) {
  const labels = { method: 'GET', route: i % 2 ? '/api/tickets/:id' : '/api/tickets', status_code: '200' };
  alone.httpRequests.inc(labels);
  alone.httpDuration.observe(labels, (i % 100) / 1000);
}
const hookUs = Number(process.hrtime.bigint() - hookStarted) / 1000 / HOOK_CALLS;
await servers.off.close();
await servers.on.close();

const lines = [`${REQUESTS} sequential requests per round, ${ROUNDS} rounds, median µs per request (Node ${process.version}, ${os.cpus().length} CPUs)`];
for (const [route, r] of Object.entries(results))
  lines.push(`${route}: off ${r.off.toFixed(1)} µs, on ${r.on.toFixed(1)} µs, difference ${(r.on - r.off).toFixed(1)} µs (${(((r.on - r.off) / r.off) * 100).toFixed(1)} %)`);
lines.push(`the request hook alone: ${hookUs.toFixed(2)} µs per request`);
lines.push(`a scrape of /metrics: ${scrapeMs.toFixed(2)} ms, ${scrapeBytes} bytes`);
process.stdout.write(`${lines.join('\n')}\n`);
