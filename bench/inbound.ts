/**
 * Inbound throughput through the whole pipeline: simulated contacts write in through the
 * simulator (the phone side), and an agent's socket counts the appMessage events it receives.
 * Reports messages/s for a flood, and p50/p99 latency from inbound to the agent's event at a
 * paced rate. Results go to bench/results/inbound-<db>.json.
 *
 *   npx tsx --conditions=source bench/inbound.ts [--db sqlite|postgres] [--messages 5000] [--rate 200]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { io as connect } from 'socket.io-client';
import { buildApp } from '@zapdesk/server/app';
import { SimulatorDriver } from '@zapdesk/server/channels/simulator/simulator.driver';
import { loadConfig } from '@zapdesk/server/core/config';
import { benchDatabase } from './bench-database.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    messages: { type: 'string', default: '5000' },
    contacts: { type: 'string', default: '500' },
    rate: { type: 'string', default: '200' },
    paced: { type: 'string', default: '2000' },
  },
});
const total = Number(values.messages);
const contacts = Number(values.contacts);
const rate = Number(values.rate);
const pacedCount = Number(values.paced);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-bench-'));
  const database = await benchDatabase(values.db);
  const databaseUrl = database.url;
  const built = await buildApp(
    loadConfig({ DATA_DIR: dataDir, ADMIN_EMAIL: 'admin@bench.local', ADMIN_PASSWORD: 'bench-pass', LOG_LEVEL: 'error', SIMULATOR: 'on', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }),
  );
  // Every contact's ticket goes straight to the agent's queue-less inbox; no greeting traffic.
  const address = await built.app.listen({ port: 0, host: '127.0.0.1' });
  const login = await built.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@bench.local', password: 'bench-pass' } });
  const { token } = login.json<{ token: string }>();
  const created = await built.app.inject({ method: 'POST', url: '/api/whatsapp', headers: { authorization: `Bearer ${token}` }, payload: { name: 'Bench', channel: 'simulator' } });
  const whatsappId = created.json<{ id: number }>().id;
  const driver = built.sessions.driver(whatsappId);
  if (!(driver instanceof SimulatorDriver)) throw new Error('no simulator');
  await driver.scan();

  const socket = connect(address, { path: '/socket.io', auth: { token }, transports: ['websocket'] });
  await new Promise<void>((resolve, reject) => {
    socket.on('connect', () => resolve());
    socket.on('connect_error', reject);
  });
  // Message events reach only sockets that joined something carrying them: the bell's room, like the web app.
  await socket.emitWithAck('joinNotification');
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let received = 0;
  let onReceived: (() => void) | undefined;
  socket.on('appMessage', (payload: { action: string; message: { body: string } }) => {
    if (payload.action !== 'create') return;
    received += 1;
    const started = sentAt.get(payload.message.body);
    if (started !== undefined) latencies.push(performance.now() - started);
    onReceived?.();
  });
  const waitFor = (count: number) =>
    new Promise<void>((resolve) => {
      if (received >= count) return resolve();
      onReceived = () => received >= count && resolve();
    });

  const deliver = (i: number, tag: string) => {
    const body = `${tag} ${i}`;
    sentAt.set(body, performance.now());
    void driver.deliver({
      providerId: `${tag}-${i}`,
      chat: { kind: 'person', number: `55119${String(10000000 + (i % contacts))}` },
      sender: { number: `55119${String(10000000 + (i % contacts))}`, name: `Cliente ${i % contacts}` },
      fromMe: false,
      body,
      timestamp: new Date(),
    });
  };

  // Warm-up creates every contact's ticket, so the flood measures steady state.
  for (let i = 0; i < contacts; i += 1) deliver(i, 'warm');
  await waitFor(contacts);

  // Flood: as fast as the server accepts, in batches so the event loop keeps breathing.
  received = 0;
  latencies.length = 0;
  const floodStart = performance.now();
  for (let i = 0; i < total; i += 1) {
    deliver(i, 'flood');
    if (i % 100 === 99) await new Promise((r) => setImmediate(r));
  }
  await waitFor(total);
  const floodSeconds = (performance.now() - floodStart) / 1000;
  const floodRate = total / floodSeconds;
  const floodSorted = [...latencies].sort((a, b) => a - b);

  // Paced: a steady rate, measuring latency from inbound to the agent's event.
  received = 0;
  latencies.length = 0;
  const interval = 1000 / rate;
  const pacedStart = performance.now();
  for (let i = 0; i < pacedCount; i += 1) {
    const due = pacedStart + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    deliver(i, 'paced');
  }
  await waitFor(pacedCount);
  const sorted = [...latencies].sort((a, b) => a - b);

  const result = {
    benchmark: 'inbound-pipeline',
    database: values.db,
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? '', node: process.version },
    flood: {
      messages: total,
      contacts,
      seconds: Number(floodSeconds.toFixed(2)),
      messagesPerSecond: Math.round(floodRate),
      p50Ms: Number(percentile(floodSorted, 50).toFixed(1)),
      p99Ms: Number(percentile(floodSorted, 99).toFixed(1)),
    },
    paced: {
      messages: pacedCount,
      ratePerSecond: rate,
      p50Ms: Number(percentile(sorted, 50).toFixed(2)),
      p99Ms: Number(percentile(sorted, 99).toFixed(2)),
      maxMs: Number((sorted[sorted.length - 1] ?? 0).toFixed(2)),
    },
  };
  fs.mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
  fs.writeFileSync(path.join(import.meta.dirname, 'results', `inbound-${values.db}.json`), JSON.stringify(result, null, 2) + '\n');
  console.log(JSON.stringify(result, null, 2));

  socket.close();
  await built.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  await database.drop();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
