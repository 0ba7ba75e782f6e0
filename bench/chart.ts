/**
 * The cost curves of bench:load: reads bench/results/load-<db>-<0_1x|1x|10x>.json and draws, by
 * hand, an SVG with one panel per database: x = the seed's tickets (10,000, 100,000, 1,000,000;
 * log scale), y = p99 in ms (log scale), one line per request kind, the targets as dashed lines.
 *
 *   npm run bench:chart [-- --out docs/bench-curves.svg] [--results bench/results]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { CurvePoint } from './load-report.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: path.join(import.meta.dirname, '..', 'docs', 'bench-curves.svg') },
    results: { type: 'string', default: path.join(import.meta.dirname, 'results') },
  },
});

const DATABASES = [
  { db: 'sqlite', title: 'SQLite' },
  { db: 'postgres', title: 'PostgreSQL' },
] as const;
const TAGS = ['0_1x', '1x', '10x'] as const;
/** The request kinds drawn, in legend order, with their colours and markers. */
const KINDS: { kind: string; label: string; color: string; dash?: string }[] = [
  { kind: 'list', label: 'ticket lists, worst tab', color: '#1f6fd1' },
  { kind: 'bell', label: 'notification bell', color: '#f08c00' },
  { kind: 'chat', label: "a chat's page", color: '#2b9a3f' },
  { kind: 'contacts', label: 'contact search', color: '#8c564b' },
  { kind: 'ingesting', label: 'lists while ingesting 200 msg/s', color: '#7b4fc9' },
  { kind: 'newWord', label: 'a new search word, one at a time', color: '#d62728' },
  { kind: 'dashboard', label: 'dashboard (slowest run)', color: '#d6409f' },
  { kind: 'reports', label: 'reports (slowest run)', color: '#0f9fb5' },
  { kind: 'bare', label: 'bare Fastify route (reference)', color: '#777777', dash: '2 3' },
];
const TARGET_LINES = [
  { ms: 25, label: '25 ms: lists, bell, chat, ingesting, contacts' },
  { ms: 50, label: '50 ms: a new word' },
  { ms: 500, label: '500 ms: dashboard, reports' },
];

type Result = { tag: string; tickets: number; curve: CurvePoint[]; load: number[]; date: string };

function readResults(db: string): Result[] {
  const out: Result[] = [];
  for (const tag of TAGS) {
    const file = path.join(values.results, `load-${db}-${tag}.json`);
    if (!fs.existsSync(file)) continue;
    const json = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      curve?: CurvePoint[];
      seed: { tickets: { closed: number; open: number; pending: number } };
      machine: { loadAverage: number[] | { atStart: number[]; atEnd: number[] } };
      date: string;
    };
    const curve = json.curve ?? legacyCurve(json as unknown as Legacy);
    const t = json.seed.tickets;
    const load = Array.isArray(json.machine.loadAverage) ? json.machine.loadAverage : [...json.machine.loadAverage.atStart, ...json.machine.loadAverage.atEnd];
    out.push({ tag, tickets: t.closed + t.open + t.pending, curve, load, date: json.date });
  }
  return out;
}

/** A result file written before bench:load wrote `curve` (the 1x runs of 2026-11-25): the same points from its rows. */
type LegacyRow = { case: string; kind: string; requestsPerSecond: number; p50Ms: number; p99Ms: number };
type Legacy = {
  results: LegacyRow[];
  distinctSearch: { p50Ms: number; p99Ms: number }[];
  whileIngesting: { results: LegacyRow[] };
  overhead: { bareRoute: { requestsPerSecond: number; p99Ms: number } };
};
function legacyCurve(json: Legacy): CurvePoint[] {
  const point = (kind: string, rows: LegacyRow[]): CurvePoint => ({
    kind,
    label: kind,
    cases: rows.length,
    requestsPerSecond: Math.min(...rows.map((r) => r.requestsPerSecond)),
    p50Ms: Math.max(...rows.map((r) => r.p50Ms)),
    p99Ms: Math.max(...rows.map((r) => r.p99Ms)),
    ofBare: null,
    targetMs: null,
  });
  const lists = json.results.filter((r) => r.kind === 'ticketList');
  const newWord = json.distinctSearch[0];
  return [
    { kind: 'bare', label: 'bare', cases: 1, requestsPerSecond: json.overhead.bareRoute.requestsPerSecond, p50Ms: 0, p99Ms: json.overhead.bareRoute.p99Ms, ofBare: 1, targetMs: null },
    point(
      'list',
      lists.filter((r) => !r.case.includes('bell')),
    ),
    point(
      'bell',
      lists.filter((r) => r.case.includes('bell')),
    ),
    point(
      'chat',
      json.results.filter((r) => r.kind === 'messages'),
    ),
    point(
      'contacts',
      json.results.filter((r) => r.kind === 'contacts'),
    ),
    point('ingesting', json.whileIngesting.results),
    ...(newWord ? [{ kind: 'newWord', label: 'newWord', cases: 1, requestsPerSecond: null, p50Ms: newWord.p50Ms, p99Ms: newWord.p99Ms, ofBare: null, targetMs: null }] : []),
  ];
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmtMs = (ms: number) => (ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`);
const fmtTickets = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);

function main(): void {
  const data = DATABASES.map((d) => ({ ...d, results: readResults(d.db) }));
  const all = data.flatMap((d) => d.results.flatMap((r) => r.curve.map((p) => p.p99Ms))).filter((v) => v > 0);
  // y from a power of ten under the fastest figure to one over the slowest (and over the 500 ms target).
  const yMin = 10 ** Math.floor(Math.log10(Math.max(0.1, Math.min(1, ...all) * 0.99)));
  const yMax = 10 ** Math.ceil(Math.log10(Math.max(1000, ...all)));
  const xMin = 10_000;
  const xMax = 1_000_000;

  const W = 1200;
  const panelW = 470;
  const panelH = 380;
  const top = 110;
  const left = [90, 90 + panelW + 130];
  const legendTop = top + panelH + 62;
  const H = legendTop + 3 * 26 + 24;
  const x = (tickets: number, p: number) => left[p]! + ((Math.log10(tickets) - Math.log10(xMin)) / (Math.log10(xMax) - Math.log10(xMin))) * panelW;
  const y = (ms: number) => top + panelH - ((Math.log10(Math.max(ms, yMin)) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))) * panelH;

  const loads = data.flatMap((d) => d.results.flatMap((r) => r.load));
  const dates = data.flatMap((d) => d.results.map((r) => r.date.slice(0, 10))).sort();
  const s: string[] = [];
  s.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif">`);
  s.push(`<rect width="${W}" height="${H}" fill="#ffffff"/>`);
  s.push(`<text x="${W / 2}" y="34" text-anchor="middle" font-size="22" font-weight="bold" fill="#222">How each request's p99 grows with the data (bench:load, lower is better)</text>`);
  s.push(
    `<text x="${W / 2}" y="60" text-anchor="middle" font-size="14" fill="#555">${esc(
      loads.length
        ? `Measured ${dates[0]}${dates.at(-1) !== dates[0] ? ` to ${dates.at(-1)}` : ''} on a 2-core machine (load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}); figures in bench/results/load-*.json`
        : 'No results yet: run npm run bench:load',
    )}</text>`,
  );

  data.forEach((d, p) => {
    const x0 = left[p]!;
    s.push(`<text x="${x0 + panelW / 2}" y="${top - 12}" text-anchor="middle" font-size="18" font-weight="bold" fill="#222">${d.title}</text>`);
    s.push(`<rect x="${x0}" y="${top}" width="${panelW}" height="${panelH}" fill="#fafafa" stroke="#bbb"/>`);
    // Grid: each power of ten on y, each seed size on x.
    for (let v = yMin; v <= yMax; v *= 10) {
      s.push(`<line x1="${x0}" x2="${x0 + panelW}" y1="${y(v)}" y2="${y(v)}" stroke="#e2e2e2"/>`);
      s.push(`<text x="${x0 - 8}" y="${y(v) + 5}" text-anchor="end" font-size="14" fill="#444">${fmtMs(Number(v.toPrecision(1)))}</text>`);
    }
    for (const t of [10_000, 100_000, 1_000_000]) {
      s.push(`<line x1="${x(t, p)}" x2="${x(t, p)}" y1="${top}" y2="${top + panelH}" stroke="#e2e2e2"/>`);
      s.push(`<text x="${x(t, p)}" y="${top + panelH + 22}" text-anchor="middle" font-size="14" fill="#444">${fmtTickets(t)}</text>`);
    }
    s.push(`<text x="${x0 + panelW / 2}" y="${top + panelH + 44}" text-anchor="middle" font-size="14" fill="#444">tickets in the seed (log scale)</text>`);
    s.push(`<text transform="translate(${x0 - 62} ${top + panelH / 2}) rotate(-90)" text-anchor="middle" font-size="14" fill="#444">p99 (log scale)</text>`);
    for (const t of TARGET_LINES) s.push(`<line x1="${x0}" x2="${x0 + panelW}" y1="${y(t.ms)}" y2="${y(t.ms)}" stroke="#b3261e" stroke-width="1.5" stroke-dasharray="7 5"/>`);
    if (d.results.length === 0) s.push(`<text x="${x0 + panelW / 2}" y="${top + panelH / 2}" text-anchor="middle" font-size="16" fill="#888">no results yet</text>`);
    for (const k of KINDS) {
      const points = d.results
        .map((r) => ({ tickets: r.tickets, point: r.curve.find((c) => c.kind === k.kind) }))
        .filter((q): q is { tickets: number; point: CurvePoint } => Boolean(q.point && q.point.p99Ms > 0));
      if (points.length > 1) {
        s.push(
          `<polyline fill="none" stroke="${k.color}" stroke-width="2.5"${k.dash ? ` stroke-dasharray="${k.dash}"` : ''} points="${points.map((q) => `${x(q.tickets, p).toFixed(1)},${y(q.point.p99Ms).toFixed(1)}`).join(' ')}"/>`,
        );
      }
      for (const q of points) {
        s.push(
          `<circle cx="${x(q.tickets, p).toFixed(1)}" cy="${y(q.point.p99Ms).toFixed(1)}" r="4.5" fill="${k.color}" stroke="#fff" stroke-width="1"><title>${esc(`${d.title}, ${fmtTickets(q.tickets)} tickets, ${k.label}: p99 ${q.point.p99Ms} ms`)}</title></circle>`,
        );
      }
    }
    // The targets' names over the lines, on a halo so a curve under them does not hide them.
    for (const t of TARGET_LINES) {
      s.push(`<text x="${x0 + 6}" y="${y(t.ms) - 8}" font-size="12" fill="#b3261e" stroke="#fafafa" stroke-width="4" paint-order="stroke">target ${esc(t.label)}</text>`);
    }
    for (const t of [10_000, 100_000, 1_000_000]) {
      if (d.results.length && !d.results.some((r) => r.tickets === t)) {
        s.push(
          `<text x="${x(t, p) + (t === 10_000 ? 6 : -6)}" y="${top + panelH - 10}" text-anchor="${t === 10_000 ? 'start' : 'end'}" font-size="13" fill="#888">${fmtTickets(t)}: not measured yet</text>`,
        );
      }
    }
  });

  // The legend, shared by both panels: three columns.
  KINDS.forEach((k, i) => {
    const col = i % 3;
    const row = Math.floor(i / 3);
    const lx = 90 + col * 370;
    const ly = legendTop + row * 26;
    s.push(`<line x1="${lx}" x2="${lx + 34}" y1="${ly}" y2="${ly}" stroke="${k.color}" stroke-width="3"${k.dash ? ` stroke-dasharray="${k.dash}"` : ''}/>`);
    s.push(`<circle cx="${lx + 17}" cy="${ly}" r="4.5" fill="${k.color}"/>`);
    s.push(`<text x="${lx + 44}" y="${ly + 5}" font-size="15" fill="#222">${esc(k.label)}</text>`);
  });
  s.push(`<line x1="90" x2="124" y1="${legendTop + 3 * 26}" y2="${legendTop + 3 * 26}" stroke="#b3261e" stroke-width="1.5" stroke-dasharray="7 5"/>`);
  s.push(`<text x="134" y="${legendTop + 3 * 26 + 5}" font-size="15" fill="#222">a target (p99 under the line; dashboard and reports: every run under 500 ms)</text>`);
  s.push('</svg>');

  fs.mkdirSync(path.dirname(values.out), { recursive: true });
  fs.writeFileSync(values.out, s.join('\n') + '\n');
  console.log(`wrote ${path.relative(process.cwd(), values.out)}: ${data.map((d) => `${d.title} ${d.results.map((r) => r.tag).join(', ') || 'none'}`).join('; ')}`);
}

main();
