/**
 * The whaticket import benchmark (issue 26): a whaticket database on MariaDB, built as whaticket's
 * migrations build it and seeded with 1,000,000 messages (and 50,000 contacts, 100,000 tickets,
 * media files), imported by the real CLI into a fresh SQLite target (and PostgreSQL with --pg).
 * Measures messages/s and the importer process's memory (VmRSS sampled from /proc every 250 ms,
 * VmHWM for the peak), and writes bench/results/import-<date>.json plus a markdown line.
 *
 *   npm run bench:import [-- --messages 1000000 --mysql mysql://root@127.0.0.1:3306/test --pg | --targets sqlite,postgres]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { seedWhaticket } from '@zapdesk/server/features/whaticket-import/test/seed';
import { createSourceDatabase, migrateWhaticket } from '@zapdesk/server/features/whaticket-import/test/whaticket-source';
import { createPostgresDatabase } from '@zapdesk/server/test/harness';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '1000000' },
    mysql: { type: 'string', default: process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test' },
    pg: { type: 'boolean', default: false },
    targets: { type: 'string', default: 'sqlite' },
    'batch-size': { type: 'string' },
  },
});
const MESSAGES = Number(values.messages);
// A PostgreSQL target is a throwaway database on this server.
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const ROOT = path.resolve(import.meta.dirname, '..');
const CLI = path.join(ROOT, 'apps/server/src/features/whaticket-import/cli.ts');

type Sample = { atMs: number; rssMb: number };
type Target = { name: 'sqlite' | 'postgres'; env: NodeJS.ProcessEnv; cleanup: () => Promise<void> };

function procStatus(pid: number): { rssKb: number; hwmKb: number } | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
    return { rssKb: kb('VmRSS'), hwmKb: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

async function runImporter(sourceUrl: string, media: string, target: Target) {
  const reportFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wt-bench-report-')), 'report.json');
  const args = ['--import', 'tsx', '--conditions=source', CLI, '--from', sourceUrl, '--media', media, '--report', reportFile, '--plain'];
  if (values['batch-size']) args.push('--batch-size', values['batch-size']);
  const started = Date.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env: target.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const samples: Sample[] = [];
  let hwmKb = 0;
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    process.stdout.write(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    process.stderr.write(chunk);
  });
  const timer = setInterval(() => {
    const s = child.pid ? procStatus(child.pid) : undefined;
    if (!s) return;
    hwmKb = Math.max(hwmKb, s.hwmKb);
    samples.push({ atMs: Date.now() - started, rssMb: Math.round(s.rssKb / 102.4) / 10 });
  }, 250);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  clearInterval(timer);
  const wallMs = Date.now() - started;
  if (code !== 0) throw new Error(`importer exited ${code}:\n${output.slice(-3000)}`);
  const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as { tables: Record<string, { read: number; imported: number }>; durationMs: number };
  const messages = report.tables.Messages?.imported ?? 0;
  const rows = Object.values(report.tables).reduce((n, t) => n + t.imported, 0);
  // Memory over the run: the RSS at each tenth of it shows whether it grows with the rows.
  const tenths = Array.from({ length: 10 }, (_, i) => samples[Math.min(samples.length - 1, Math.floor(((i + 1) * samples.length) / 10) - 1)]?.rssMb ?? 0);
  const messagesLine = /Messages: [\d,]+\/[\d,]+ rows, ([\d,]+) rows\/s, done/.exec(output)?.[1];
  return {
    target: target.name,
    wallSeconds: Math.round(wallMs / 100) / 10,
    reportSeconds: Math.round(report.durationMs / 100) / 10,
    messagesImported: messages,
    rowsImported: rows,
    messagesPerSecond: Math.round(messages / (report.durationMs / 1000)),
    messagesPhaseRowsPerSecond: messagesLine ? Number(messagesLine.replace(/,/g, '')) : null,
    peakRssMb: Math.round(hwmKb / 102.4) / 10,
    rssMbByTenthOfRun: tenths,
    rssFlat: tenths.length > 2 && (tenths[9] ?? 0) <= (tenths[2] ?? 0) * 1.5 + 50,
    tables: report.tables,
  };
}

async function main(): Promise<void> {
  const publicDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wt-bench-public-'));
  console.log(`seeding ${MESSAGES.toLocaleString('en')} messages into MariaDB (${values.mysql}) …`);
  const source = await createSourceDatabase(values.mysql ?? '');
  const targets: Target[] = [];
  try {
    await migrateWhaticket(source);
    const t0 = Date.now();
    const facts = await seedWhaticket(source, { publicDir, messages: MESSAGES, tickets: MESSAGES / 10, contacts: MESSAGES / 20, batchSize: 5000, distinctMediaFiles: 300 });
    const seedSeconds = (Date.now() - t0) / 1000;
    console.log(`seeded in ${seedSeconds.toFixed(1)} s: ${JSON.stringify(facts.counts)}`);

    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wt-bench-target-'));
    const sqliteEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    delete sqliteEnv.DATABASE_URL;
    const wanted = new Set((values.targets ?? 'sqlite').split(','));
    if (values.pg) wanted.add('postgres');
    if (wanted.has('sqlite')) targets.push({ name: 'sqlite', env: sqliteEnv, cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }) });
    if (wanted.has('postgres')) {
      const pgDb = await createPostgresDatabase();
      const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wt-bench-target-'));
      targets.push({
        name: 'postgres',
        env: { ...process.env, DATA_DIR: pgDir, DATABASE_URL: pgDb.url, LOG_LEVEL: 'silent' },
        cleanup: async () => (await pgDb.drop(), fs.rmSync(pgDir, { recursive: true, force: true })),
      });
    }
    type Run = Awaited<ReturnType<typeof runImporter>>;
    const runs: Run[] = [];
    for (const target of targets) {
      console.log(`\nimporting into ${target.name} …`);
      runs.push(await runImporter(source.url, publicDir, target));
    }
    const date = new Date().toISOString().slice(0, 10);
    const out = path.join(import.meta.dirname, 'results', `import-${date}.json`);
    // One file per day: a run for one target replaces that target's earlier run of the day and keeps the others.
    const earlier = fs.existsSync(out) ? (JSON.parse(fs.readFileSync(out, 'utf8')) as { runs: Run[] }).runs : [];
    const allRuns = [...earlier.filter((r) => !runs.some((n) => n.target === r.target)), ...runs];
    const result = {
      date,
      machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GB, load average ${os.loadavg()[0]?.toFixed(1)} at the end`,
      source: 'MariaDB',
      seed: { ...facts.counts, seconds: seedSeconds },
      goal: { messagesPerSecond: 5000, memory: 'flat' },
      runs: allRuns,
    };
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
    const lines = allRuns.map(
      (r) =>
        `| bench:import (MariaDB → ${r.target}) | ${r.messagesImported.toLocaleString('en')} messages in ${r.reportSeconds} s | ${r.messagesPerSecond.toLocaleString('en')} messages/s overall (goal > 5,000), messages step ${r.messagesPhaseRowsPerSecond?.toLocaleString('en') ?? '?'} rows/s | peak RSS ${r.peakRssMb} MB, ${r.rssFlat ? 'flat' : 'GROWING'} (${r.rssMbByTenthOfRun[1]} → ${r.rssMbByTenthOfRun[9]} MB) |`,
    );
    fs.writeFileSync(out.replace(/\.json$/, '.md'), lines.join('\n') + '\n');
    console.log(`\n${lines.join('\n')}\nwritten to ${out}`);
  } finally {
    for (const target of targets) await target.cleanup().catch(() => undefined);
    await source.drop();
    fs.rmSync(publicDir, { recursive: true, force: true });
  }
}

await main();
