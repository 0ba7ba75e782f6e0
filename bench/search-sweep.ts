/**
 * A search for a word never asked before, across the seed's whole vocabulary: the real server on
 * a copy of a seed (SQLite) or on the given database (PostgreSQL), each word once for the agent
 * and once for the admin, one request at a time, sent by bench/drive.ts from its own process.
 * Writes p50/p99/max, the slowest words and whether the count was capped to
 * bench/results/search-<db>-<label>.json.
 *
 *   npx tsx --conditions=source bench/search-sweep.ts --db sqlite --seed /work/seed/zapdesk.sqlite --label 1x
 *   npx tsx --conditions=source bench/search-sweep.ts --db postgres --seed postgres://postgres@127.0.0.1:5432/copy --label 1x
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '@zapdesk/server/app';
import { loadConfig } from '@zapdesk/server/core/config';
import type { DriveOutput } from './drive.js';
import { agentEmail, SEED, seedVocabulary } from './seed.js';

const { values } = parseArgs({ options: { db: { type: 'string', default: 'sqlite' }, seed: { type: 'string' }, label: { type: 'string', default: 'run' } } });

async function main(): Promise<void> {
  if (!values.seed) throw new Error('--seed <sqlite file | postgres url> is required');
  const kind = values.db === 'postgres' ? 'postgres' : 'sqlite';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-search-'));
  if (kind === 'sqlite') fs.copyFileSync(values.seed, path.join(dataDir, 'zapdesk.sqlite'));
  const built = await buildApp(
    loadConfig({ DATA_DIR: dataDir, ADMIN_EMAIL: SEED.adminEmail, ADMIN_PASSWORD: SEED.password, LOG_LEVEL: 'error', ...(kind === 'postgres' ? { DATABASE_URL: values.seed } : {}) }),
  );
  const address = await built.app.listen({ port: 0, host: '127.0.0.1' });
  const login = async (email: string) => {
    const res = await built.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: SEED.password } });
    if (res.statusCode !== 200) throw new Error(`login ${email}: ${res.statusCode} ${res.body}`);
    const body = res.json<{ token: string; user: { queues: { id: number }[] } }>();
    return { token: body.token, queueIds: body.user.queues.map((q) => q.id) };
  };
  const users = { agent: await login(agentEmail(1)), admin: await login(SEED.adminEmail) };
  const words = seedVocabulary();
  const requests = words.flatMap((word) =>
    (['agent', 'admin'] as const).map((who) => ({
      path: `/api/tickets?${new URLSearchParams({ pageNumber: '1', showAll: who === 'admin' ? 'true' : 'false', queueIds: JSON.stringify(users[who].queueIds), searchParam: word }).toString()}`,
      token: users[who].token,
    })),
  );
  const loadBefore = fs.readFileSync('/proc/loadavg', 'utf8').trim();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'drive.ts')], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end(JSON.stringify({ base: address, connections: 1, requests }));
  let text = '';
  for await (const chunk of child.stdout) text += String(chunk);
  const out = JSON.parse(text) as DriveOutput;
  const sorted = out.results.map((r) => r.ms).sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
  const result = {
    db: kind,
    seed: values.label,
    when: new Date().toISOString(),
    loadavg: { before: loadBefore, after: fs.readFileSync('/proc/loadavg', 'utf8').trim() },
    requests: out.results.length,
    errors: out.results.filter((r) => r.status !== 200).length,
    p50Ms: pct(50),
    p99Ms: pct(99),
    maxMs: sorted[sorted.length - 1] ?? 0,
    target: { maxP99Ms: 50 },
    slowest: [...out.results]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10)
      .map((r) => ({ word: new URLSearchParams(r.path.split('?')[1]).get('searchParam'), showAll: new URLSearchParams(r.path.split('?')[1]).get('showAll'), ms: r.ms, count: r.count })),
  };
  fs.mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
  fs.writeFileSync(path.join(import.meta.dirname, 'results', `search-${kind}-${values.label}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify({ ...result, slowest: result.slowest.slice(0, 5) }));
  await built.app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().then(
  // The server's background jobs keep the event loop alive after close: the run ends here.
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
