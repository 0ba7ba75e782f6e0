/**
 * Progress per table: on a terminal a bar redrawn in place with rows/s and an ETA; otherwise
 * plain lines (one every few seconds, and one when a table ends). Written to stderr: stdout
 * carries the report.
 */

export type Progress = {
  start(table: string, total: number): void;
  advance(n: number): void;
  finish(): void;
};

const fmt = new Intl.NumberFormat('en-US');
const n = (v: number) => fmt.format(Math.round(v));

function clock(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${r}` : `${m}:${r}`;
}

type State = { table: string; total: number; done: number; startedAt: number; lastLine: number };

export function createProgress(out: NodeJS.WriteStream, options: { tty: boolean; plainEveryMs?: number }): Progress {
  let state: State | undefined;
  const every = options.plainEveryMs ?? 5000;
  const color = options.tty && !process.env.NO_COLOR;
  const paint = (code: string, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);

  const figures = (s: State) => {
    const elapsed = (Date.now() - s.startedAt) / 1000;
    const rate = elapsed > 0 ? s.done / elapsed : 0;
    const eta = rate > 0 ? (s.total - s.done) / rate : Infinity;
    return { elapsed, rate, eta };
  };

  const bar = (s: State, final: boolean) => {
    const { elapsed, rate, eta } = figures(s);
    const width = 28;
    const ratio = s.total > 0 ? Math.min(1, s.done / s.total) : 1;
    const filled = Math.round(ratio * width);
    const mark = final ? paint('32', '✔') : paint('36', '›');
    const body = paint('32', '█'.repeat(filled)) + paint('90', '░'.repeat(width - filled));
    const pct = `${String(Math.round(ratio * 100)).padStart(3)}%`;
    const count = `${n(s.done).padStart(9)}/${n(s.total).padEnd(9)}`;
    const tail = final ? `${n(rate).padStart(7)} rows/s  in ${clock(elapsed)}` : `${n(rate).padStart(7)} rows/s  ETA ${clock(eta)}`;
    return `${mark} ${s.table.padEnd(20)} ${body} ${pct} ${count} ${tail}`;
  };

  const plain = (s: State, final: boolean) => {
    const { elapsed, rate, eta } = figures(s);
    const tail = final ? `done in ${clock(elapsed)}` : `ETA ${clock(eta)}`;
    return `[import] ${s.table}: ${n(s.done)}/${n(s.total)} rows, ${n(rate)} rows/s, ${tail}`;
  };

  const draw = (final: boolean) => {
    if (!state) return;
    if (options.tty) {
      out.write(`\r\x1b[2K${bar(state, final)}${final ? '\n' : ''}`);
    } else if (final || Date.now() - state.lastLine >= every) {
      state.lastLine = Date.now();
      out.write(`${plain(state, final)}\n`);
    }
  };

  let lastDraw = 0;
  return {
    start(table, total) {
      state = { table, total, done: 0, startedAt: Date.now(), lastLine: Date.now() };
      if (options.tty) draw(false);
    },
    advance(count) {
      if (!state) return;
      state.done += count;
      if (state.done > state.total) state.total = state.done;
      if (!options.tty || Date.now() - lastDraw > 100) {
        lastDraw = Date.now();
        draw(false);
      }
    },
    finish() {
      draw(true);
      state = undefined;
    },
  };
}
