/**
 * A 10,000-recipient campaign at 0–0 s on a simulated phone, through the real HTTP API: how long
 * its creation takes (against a one-recipient campaign created the same way, the route's fixed
 * cost), how many sends per second the connection makes, the server's memory while it sends, and
 * how fast the server still answers a bare route meanwhile (against the same route idle).
 * Results go to bench/results/campaign-<db>.json.
 *
 *   npx tsx --conditions=source bench/campaign.ts [--db sqlite|postgres] [--recipients 10000]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '@zapdesk/server/app';
import { loadConfig } from '@zapdesk/server/core/config';
import { benchDatabase } from './bench-database.js';

const { values } = parseArgs({ options: { db: { type: 'string', default: 'sqlite' }, recipients: { type: 'string', default: '10000' } } });
const total = Number(values.recipients);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** The heap in use after a full collection (run with --expose-gc), else as it is. */
function heapAfterGc(): number {
  const gc: unknown = Reflect.get(globalThis, 'gc');
  if (typeof gc === 'function') Reflect.apply(gc, globalThis, []);
  return process.memoryUsage().heapUsed;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-bench-'));
  const database = await benchDatabase(values.db);
  const databaseUrl = database.url;
  const built = await buildApp(
    loadConfig({ DATA_DIR: dataDir, ADMIN_EMAIL: 'admin@bench.local', ADMIN_PASSWORD: 'bench-pass', LOG_LEVEL: 'error', SIMULATOR: 'on', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }),
  );
  const address = await built.app.listen({ port: 0, host: '127.0.0.1' });
  const api = async <T>(method: string, url: string, token?: string, body?: unknown): Promise<{ status: number; body: T; ms: number }> => {
    const started = performance.now();
    const res = await fetch(`${address}${url}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T, ms: performance.now() - started };
  };
  const { token } = (await api<{ token: string }>('POST', '/api/auth/login', undefined, { email: 'admin@bench.local', password: 'bench-pass' })).body;
  const whatsappId = (await api<{ id: number }>('POST', '/api/whatsapp', token, { name: 'Bench', channel: 'simulator' })).body.id;
  await api('POST', `/api/simulator/${whatsappId}/scan`, token);

  // Baselines: the bare route idle, and a one-recipient campaign's creation.
  const idle: number[] = [];
  for (let i = 0; i < 200; i += 1) idle.push((await api('GET', '/api/health')).ms);
  const single = await api<{ campaign: { id: number } }>('POST', '/api/campaigns', token, { kind: 'text', whatsappId, numbers: '447700900000', message: 'warm-up', minDelay: 0, maxDelay: 0 });
  while ((await api<{ status: string }>('GET', `/api/campaigns/${single.body.campaign.id}`, token)).body.status !== 'completed');
  const oneRecipientMs = (await api('POST', '/api/campaigns', token, { kind: 'text', whatsappId, numbers: '447700900001', message: 'baseline', minDelay: 0, maxDelay: 0 })).ms;
  await new Promise((resolve) => setTimeout(resolve, 500));
  const heapIdle = heapAfterGc();
  const rssIdle = process.memoryUsage().rss;

  // Distinct numbers, none stored before.
  const numbers = Array.from({ length: total }, (_, i) => `4477${String(10_000_000 + i)}`);
  const rss: number[] = [];
  const sampler = setInterval(() => rss.push(process.memoryUsage().rss), 100);
  const created = await api<{ campaign: { id: number } }>('POST', '/api/campaigns', token, {
    kind: 'text',
    whatsappId,
    numbers: numbers.join('\n'),
    message: 'Oferta {{name}}',
    minDelay: 0,
    maxDelay: 0,
  });
  if (created.status !== 201) throw new Error(`creation failed: ${created.status}`);
  const id = created.body.campaign.id;
  const busy: number[] = [];
  for (;;) {
    busy.push((await api('GET', '/api/health')).ms);
    const state = await api<{ status: string; counts: { sent: number } }>('GET', `/api/campaigns/${id}`, token);
    if (state.body.status === 'completed') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  clearInterval(sampler);
  const rssEnd = process.memoryUsage().rss;
  const heapEnd = heapAfterGc();
  const times = await built.ctx.db
    .selectFrom('campaignRecipients')
    .select((eb) => [eb.fn.min('sentAt').as('first'), eb.fn.max('sentAt').as('last'), eb.fn.countAll<number>().as('sent')])
    .where('campaignId', '=', id)
    .where('status', '=', 'sent')
    .executeTakeFirstOrThrow();
  const seconds = (Date.parse(String(times.last)) - Date.parse(String(times.first))) / 1000;
  idle.sort((a, b) => a - b);
  busy.sort((a, b) => a - b);
  const result = {
    date: new Date().toISOString(),
    db: values.db,
    machine: { cpus: os.cpus().length, node: process.version },
    recipients: total,
    creationMs: Math.round(created.ms),
    baselineOneRecipientCreationMs: Math.round(oneRecipientMs),
    sent: Number(times.sent),
    sendingSeconds: Math.round(seconds * 10) / 10,
    sendsPerSecondPerConnection: Math.round(Number(times.sent) / seconds),
    rssMb: { idle: mb(rssIdle), peak: mb(Math.max(...rss)), end: mb(rssEnd) },
    /** After a full collection: what the run kept (the simulated phone holds every message it received). */
    heapAfterGcMb: { idle: mb(heapIdle), end: mb(heapEnd) },
    healthWhileSendingMs: { p50: Math.round(percentile(busy, 50) * 10) / 10, p99: Math.round(percentile(busy, 99) * 10) / 10, samples: busy.length },
    healthIdleMs: { p50: Math.round(percentile(idle, 50) * 10) / 10, p99: Math.round(percentile(idle, 99) * 10) / 10 },
  };
  console.log(JSON.stringify(result, null, 2));
  fs.mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
  fs.writeFileSync(path.join(import.meta.dirname, 'results', `campaign-${values.db}.json`), JSON.stringify(result, null, 2) + '\n');
  await built.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  await database.drop();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
