/**
 * bench:load's result file: each request kind's throughput and p50/p99 (and its ratio to the
 * same-run bare route), every target of issue 30 with the measured figure and whether it is met,
 * the server's memory against the 1x run, and the machine's load while it ran.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DbKind, RequestKind, Targets } from './load-cases.js';
import type { DistinctRow, Row } from './load-measure.js';

export const RESULTS_DIR = path.join(import.meta.dirname, 'results');
export const resultFile = (kind: DbKind, tag: string) => path.join(RESULTS_DIR, `load-${kind}-${tag}.json`);

export type TimedRow = { case: string; url: string; runs: number; medianMs: number; maxMs: number };
export type Memory = { rssMiB: number; heapUsedMiB: number; externalMiB: number; forcedGc: boolean };

/** One point of a cost curve: a request kind at this scale (bench/chart.ts draws these). */
export type CurvePoint = {
  kind: string;
  label: string;
  cases: number;
  requestsPerSecond: number | null;
  p50Ms: number;
  /** p99 of the kind's worst case; for the one-at-a-time kinds (dashboard, reports) the slowest run. */
  p99Ms: number;
  ofBare: number | null;
  targetMs: number | null;
};

const ratio = (a: number, b: number) => (b > 0 ? Number((a / b).toFixed(3)) : 0);
/** The worst figure of the rows; a case that got no answer within its run has none (0: not drawn, and its target missed). */
const worst = (rows: Row[], key: 'p50Ms' | 'p99Ms') => (rows.some((r) => r.requests === 0) ? 0 : Math.max(0, ...rows.map((r) => r[key])));
const unanswered = (rows: Row[]) => rows.filter((r) => r.requests === 0).length;
const noAnswer = (rows: Row[]) => (unanswered(rows) ? `; ${unanswered(rows)} of ${rows.length} cases got no answer within the run` : '');
const slowest = (rows: Row[]) => Math.min(...rows.map((r) => r.requestsPerSecond));

export function summarise(input: {
  kind: DbKind;
  tag: string;
  targets: Targets;
  bare: Row;
  results: Row[];
  ingesting: Row[];
  ingestAllStored: boolean;
  newWord: DistinctRow;
  dashboard: TimedRow[];
  reports: TimedRow[];
  reportsChecked: boolean;
  memory: Memory;
}) {
  const { targets: t, bare, results } = input;
  const rowsOf = (k: RequestKind) => results.filter((r) => r.kind === k);
  const withBare = (rows: Row[]) => rows.map((r) => ({ ...r, ofBare: ratio(r.requestsPerSecond, bare.requestsPerSecond) }));
  const repeated = (k: 'list' | 'bell' | 'chat', label: string) => {
    const rows = rowsOf(k);
    const p99Ms = worst(rows, 'p99Ms');
    const ofBare = ratio(slowest(rows), bare.requestsPerSecond);
    const errors = rows.reduce((n, r) => n + r.errors, 0);
    return {
      point: { kind: k, label, cases: rows.length, requestsPerSecond: slowest(rows), p50Ms: worst(rows, 'p50Ms'), p99Ms, ofBare, targetMs: t[k].maxP99Ms },
      target: {
        target: k,
        what: t[k].what,
        measured: `worst p99 ${p99Ms} ms (target < ${t[k].maxP99Ms}); slowest at ${(ofBare * 100).toFixed(0)}% of the bare route's ${bare.requestsPerSecond} req/s (target ≥ ${t[k].minOfBare * 100}%)${errors ? `; ${errors} errors` : ''}${noAnswer(rows)}`,
        met: rows.length > 0 && !unanswered(rows) && p99Ms < t[k].maxP99Ms && ofBare >= t[k].minOfBare && errors === 0,
      },
    };
  };
  const list = repeated('list', 'ticket lists (worst tab)');
  const bell = repeated('bell', 'notification bell');
  const chat = repeated('chat', "a chat's page");
  const contacts = rowsOf('contacts');
  const ingestP99 = worst(input.ingesting, 'p99Ms');
  const dashMax = Math.max(0, ...input.dashboard.map((r) => r.maxMs));
  const reportMax = Math.max(0, ...input.reports.map((r) => r.maxMs));
  const oneX = input.tag === '1x' ? undefined : readMemory(input.kind, '1x');
  const memory = {
    ...input.memory,
    oneX: input.tag === '1x' ? 'this is the 1x run' : (oneX ?? `no ${path.basename(resultFile(input.kind, '1x'))} with a memory figure`),
    heapOfOneX: typeof oneX === 'object' ? ratio(input.memory.heapUsedMiB, oneX.heapUsedMiB) : input.tag === '1x' ? 1 : null,
    rssOfOneX: typeof oneX === 'object' ? ratio(input.memory.rssMiB, oneX.rssMiB) : input.tag === '1x' ? 1 : null,
  };
  const curve: CurvePoint[] = [
    { kind: 'bare', label: 'bare Fastify route (page from memory)', cases: 1, requestsPerSecond: bare.requestsPerSecond, p50Ms: bare.p50Ms, p99Ms: bare.p99Ms, ofBare: 1, targetMs: null },
    list.point,
    bell.point,
    chat.point,
    {
      kind: 'newWord',
      label: 'a new word each request (one at a time)',
      cases: input.newWord.words,
      requestsPerSecond: input.newWord.requestsPerSecond,
      p50Ms: input.newWord.p50Ms,
      p99Ms: input.newWord.p99Ms,
      ofBare: null,
      targetMs: t.newWord.maxP99Ms,
    },
    {
      kind: 'ingesting',
      label: 'lists while ingesting 200 msg/s',
      cases: input.ingesting.length,
      requestsPerSecond: input.ingesting.length ? slowest(input.ingesting) : null,
      p50Ms: worst(input.ingesting, 'p50Ms'),
      p99Ms: ingestP99,
      ofBare: null,
      targetMs: t.ingesting.maxP99Ms,
    },
    {
      kind: 'contacts',
      label: 'contact search',
      cases: contacts.length,
      requestsPerSecond: contacts.length ? slowest(contacts) : null,
      p50Ms: worst(contacts, 'p50Ms'),
      p99Ms: worst(contacts, 'p99Ms'),
      ofBare: null,
      targetMs: t.contacts.maxP99Ms,
    },
    {
      kind: 'dashboard',
      label: 'dashboard (slowest run)',
      cases: input.dashboard.length,
      requestsPerSecond: null,
      p50Ms: Math.max(0, ...input.dashboard.map((r) => r.medianMs)),
      p99Ms: dashMax,
      ofBare: null,
      targetMs: t.dashboard.maxMs,
    },
    {
      kind: 'reports',
      label: 'reports (slowest run)',
      cases: input.reports.length,
      requestsPerSecond: null,
      p50Ms: Math.max(0, ...input.reports.map((r) => r.medianMs)),
      p99Ms: reportMax,
      ofBare: null,
      targetMs: t.reports.maxMs,
    },
  ];
  const targetsMet = [
    list.target,
    bell.target,
    chat.target,
    {
      target: 'newWord',
      what: t.newWord.what,
      measured: `${input.newWord.words} words, p50 ${input.newWord.p50Ms} ms, p99 ${input.newWord.p99Ms} ms, max ${input.newWord.maxMs} ms${input.newWord.errors ? `, ${input.newWord.errors} errors` : ''}`,
      met: input.newWord.p99Ms < t.newWord.maxP99Ms && input.newWord.errors === 0,
    },
    {
      target: 'ingesting',
      what: t.ingesting.what,
      measured: `worst p99 ${ingestP99} ms over ${input.ingesting.length} lists${noAnswer(input.ingesting)}${input.ingestAllStored ? '' : '; NOT every ingested message was stored at 200/s'}`,
      met: input.ingesting.length > 0 && !unanswered(input.ingesting) && ingestP99 < t.ingesting.maxP99Ms && input.ingestAllStored,
    },
    {
      target: 'contacts',
      what: t.contacts.what,
      measured: `p99 ${worst(contacts, 'p99Ms')} ms${noAnswer(contacts)}`,
      met: contacts.length > 0 && !unanswered(contacts) && worst(contacts, 'p99Ms') < t.contacts.maxP99Ms,
    },
    { target: 'dashboard', what: t.dashboard.what, measured: `slowest ${dashMax} ms over ${input.dashboard.length} views`, met: input.dashboard.length > 0 && dashMax < t.dashboard.maxMs },
    {
      target: 'reports',
      what: t.reports.what,
      measured: `slowest ${reportMax} ms over ${input.reports.length} reports${input.reportsChecked ? '' : '; a report was slow or its figures did not match plain counts'}`,
      met: input.reports.length > 0 && reportMax < t.reports.maxMs,
    },
    {
      target: 'memory',
      what: t.memory.what,
      measured: `heap ${input.memory.heapUsedMiB} MiB, RSS ${input.memory.rssMiB} MiB${memory.heapOfOneX === null ? ' (no 1x figure to compare with)' : `; ${memory.heapOfOneX}x / ${memory.rssOfOneX}x the 1x run`}`,
      met: memory.heapOfOneX !== null && memory.rssOfOneX !== null && memory.heapOfOneX <= t.memory.maxOfOneX && memory.rssOfOneX <= t.memory.maxOfOneX,
    },
  ];
  return { curve, targetsMet, memory, results: withBare(results), ingesting: withBare(input.ingesting) };
}

function readMemory(kind: DbKind, tag: string): Memory | undefined {
  try {
    const json = JSON.parse(fs.readFileSync(resultFile(kind, tag), 'utf8')) as { memory?: Memory };
    return json.memory && typeof json.memory.heapUsedMiB === 'number'
      ? { rssMiB: json.memory.rssMiB, heapUsedMiB: json.memory.heapUsedMiB, externalMiB: json.memory.externalMiB, forcedGc: json.memory.forcedGc }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The server's memory now, after a forced GC when node runs with --expose-gc (the bench:load script does). */
export function measureMemory(): Memory {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
  const m = process.memoryUsage();
  const mib = (n: number) => Number((n / 1048576).toFixed(1));
  return { rssMiB: mib(m.rss), heapUsedMiB: mib(m.heapUsed), externalMiB: mib(m.external), forcedGc: Boolean(gc) };
}

/** A report's URL as a short name: its period and filter. */
export function reportName(url: string): string {
  const u = new URL(url, 'http://x');
  const from = u.searchParams.get('from');
  const to = u.searchParams.get('to');
  const days = from && to ? Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1 : 0;
  const filter = ['queueId', 'userId', 'whatsappId', 'labelId'].find((k) => u.searchParams.has(k));
  return `${u.pathname.endsWith('/export') ? 'report CSV' : 'report'}: ${days} days${filter ? `, one ${filter.replace('Id', '')}` : ''}`;
}
