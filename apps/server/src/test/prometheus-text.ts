/**
 * A small reader of Prometheus' text format (version 0.0.4), for tests: each family's TYPE and
 * HELP, and every sample with its labels. Fails on a line it cannot read.
 */
export type Sample = { name: string; labels: Record<string, string>; value: number };
export type Scrape = { types: Map<string, string>; helps: Map<string, string>; samples: Sample[] };

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;

function parseValue(text: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  // Prometheus reads NaN in any case (prom-client writes `Nan`).
  if (text.toLowerCase() === 'nan') return NaN;
  const value = Number(text);
  if (Number.isNaN(value)) throw new Error(`not a sample value: ${text}`);
  return value;
}

function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  let read = 0;
  for (let match = LABEL.exec(text); match; match = LABEL.exec(text)) {
    labels[match[1] as string] = (match[2] as string).replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    read = LABEL.lastIndex;
  }
  if (read !== text.length) throw new Error(`labels not read: {${text}}`);
  return labels;
}

export function parsePrometheusText(text: string): Scrape {
  const scrape: Scrape = { types: new Map(), helps: new Map(), samples: [] };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const meta = /^# (TYPE|HELP) (\S+) (.*)$/.exec(line);
    if (meta) {
      (meta[1] === 'TYPE' ? scrape.types : scrape.helps).set(meta[2] as string, meta[3] as string);
      continue;
    }
    if (line.startsWith('#')) continue;
    const sample = SAMPLE.exec(line);
    if (!sample) throw new Error(`not a sample line: ${line}`);
    scrape.samples.push({ name: sample[1] as string, labels: parseLabels(sample[2] ?? ''), value: parseValue(sample[3] as string) });
  }
  return scrape;
}

/** The sum of the samples named `name` whose labels include `labels`. */
export function sumOf(scrape: Scrape, name: string, labels: Record<string, string> = {}): number {
  return scrape.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((total, s) => total + s.value, 0);
}

/** The samples named `name`. */
export function samplesOf(scrape: Scrape, name: string): Sample[] {
  return scrape.samples.filter((s) => s.name === name);
}
