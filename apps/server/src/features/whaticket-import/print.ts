/** The final report as a terminal reads it: a table of counts, then the changed and skipped rows by rule. */
import type { ReportJson } from './report.js';

const fmt = new Intl.NumberFormat('en-US');
const COLUMNS = ['read', 'imported', 'existing', 'updated', 'changed', 'skipped'] as const;
/** Per rule, the rows listed on the terminal; the JSON report (--report) lists every one. */
const ROWS_PER_RULE = 5;

export function formatReport(report: ReportJson, options: { color: boolean; reportFile?: string }): string {
  const paint = (code: string, text: string) => (options.color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const lines: string[] = [];
  const title = report.dryRun ? 'whaticket import — DRY RUN (nothing written)' : 'whaticket import — report';
  lines.push('', paint('1', title), paint('90', `source ${report.source} · ${(report.durationMs / 1000).toFixed(1)} s`), '');
  const head = ['table'.padEnd(20), ...COLUMNS.map((c) => c.padStart(10))].join(' ');
  lines.push(paint('1', head), paint('90', '─'.repeat(head.length)));
  const totals = Object.fromEntries(COLUMNS.map((c) => [c, 0])) as Record<(typeof COLUMNS)[number], number>;
  for (const [table, counts] of Object.entries(report.tables)) {
    const cells = COLUMNS.map((c) => {
      totals[c] += counts[c];
      const text = fmt.format(counts[c]).padStart(10);
      if (counts[c] === 0) return paint('90', text);
      if (c === 'skipped') return paint('31', text);
      if (c === 'changed') return paint('33', text);
      if (c === 'imported') return paint('32', text);
      return text;
    });
    lines.push([table.padEnd(20), ...cells].join(' '));
  }
  lines.push(paint('90', '─'.repeat(head.length)), paint('1', ['total'.padEnd(20), ...COLUMNS.map((c) => fmt.format(totals[c]).padStart(10))].join(' ')), '');
  const byRule = new Map<string, ReportJson['changes']>();
  for (const change of report.changes) {
    const key = `${change.table} · ${change.rule} (${change.action})`;
    byRule.set(key, [...(byRule.get(key) ?? []), change]);
  }
  if (byRule.size) lines.push(paint('1', 'Changed and skipped rows, by rule'));
  for (const [key, changes] of byRule) {
    const skipped = changes[0]?.action === 'skipped';
    lines.push(`  ${paint(skipped ? '31' : '33', skipped ? '✖' : '●')} ${key}: ${fmt.format(changes.length)}`);
    for (const c of changes.slice(0, ROWS_PER_RULE)) lines.push(paint('90', `      #${c.sourceId}  ${c.detail}`));
    if (changes.length > ROWS_PER_RULE)
      lines.push(paint('90', `      … ${fmt.format(changes.length - ROWS_PER_RULE)} more${options.reportFile ? ` in ${options.reportFile}` : ' (--report <file.json> lists them all)'}`));
  }
  if (report.warnings.length) lines.push('', paint('1', 'Warnings'));
  for (const w of report.warnings) lines.push(`  ${paint('33', '!')} ${w}`);
  lines.push('');
  return lines.join('\n');
}
