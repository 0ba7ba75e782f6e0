/**
 * Screenshots of the whaticket import (docs/screenshots/import-progress.png and import-report.png):
 * seeds a whaticket MariaDB (150,000 messages), runs the README's command in a real terminal
 * (tmux, 120×40), captures the pane with its colours while the messages are going in and again
 * at the end, and renders both with terminal-shot.ts. Needs `npm run build` (the CLI runs from dist).
 *
 *   npx tsx --conditions=source bench/import-screens.ts [--mysql mysql://root@127.0.0.1:3306/test]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { seedWhaticket } from '@zapdesk/server/features/whaticket-import/test/seed';
import { createSourceDatabase, migrateWhaticket } from '@zapdesk/server/features/whaticket-import/test/whaticket-source';
import { renderTerminal } from './terminal-shot.js';

const { values } = parseArgs({ options: { mysql: { type: 'string', default: process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test' }, messages: { type: 'string', default: '150000' } } });
const ROOT = path.resolve(import.meta.dirname, '..');
const SHOTS = path.join(ROOT, 'docs', 'screenshots');
const SESSION = `zd-import-${process.pid}`;
const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
const pane = (colours: boolean) => tmux('capture-pane', '-p', '-J', ...(colours ? ['-e'] : []), '-S', '-300', '-t', SESSION);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitPane(test: (text: string) => boolean, what: string, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test(pane(false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${pane(false)}`);
    await sleep(100);
  }
}

const publicDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'whaticket-')), 'public');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-'));
const source = await createSourceDatabase(values.mysql ?? '', 'whaticket_demo');
try {
  await migrateWhaticket(source);
  const messages = Number(values.messages);
  await seedWhaticket(source, { publicDir, messages, tickets: messages / 10, contacts: messages / 20, batchSize: 5000, distinctMediaFiles: 200, now: new Date() });
  tmux('new-session', '-d', '-s', SESSION, '-x', '120', '-y', '40', 'bash --norc --noprofile');
  tmux('send-keys', '-t', SESSION, `cd ${ROOT} && export DATA_DIR=${dataDir} LOG_LEVEL=silent PS1='$ ' && unset DATABASE_URL && clear`, 'Enter');
  await sleep(500);
  const from = source.url.replace(/\/\/[^@/]*@/, '//root@');
  tmux('send-keys', '-t', SESSION, `npm run import:whaticket -- --from ${from} --media ${publicDir}; echo "[exit $?]"`, 'Enter');
  await waitPane(
    (t) =>
      /› Messages .* ETA/.test(t) &&
      / (2|3|4|5|6)\d% /.test(
        t
          .split('\n')
          .filter((l) => l.includes('Messages'))
          .pop() ?? '',
      ),
    'the messages half-way',
  );
  const progress = pane(true);
  await waitPane((t) => /^\[exit \d+\]$/m.test(t), 'the end of the import');
  const report = pane(true);
  fs.mkdirSync(SHOTS, { recursive: true });
  // Progress: the screen as it was (from the command line down); report: from the report's title on.
  const lines = progress.split('\n');
  const start = lines.findIndex((l) => l.includes('npm run import:whaticket'));
  await renderTerminal(lines.slice(Math.max(0, start)).join('\n'), path.join(SHOTS, 'import-progress.png'), 'npm run import:whaticket (in progress)');
  const reportLines = report.split('\n');
  const title = reportLines.findIndex((l) => l.includes('whaticket import') && l.includes('report'));
  await renderTerminal(reportLines.slice(Math.max(0, title - 1)).join('\n'), path.join(SHOTS, 'import-report.png'), 'npm run import:whaticket (report)');
  fs.writeFileSync(path.join(os.tmpdir(), 'import-progress.ansi'), progress);
  fs.writeFileSync(path.join(os.tmpdir(), 'import-report.ansi'), report);
  console.log(`written: ${path.join(SHOTS, 'import-progress.png')}, ${path.join(SHOTS, 'import-report.png')}`);
} finally {
  try {
    tmux('kill-session', '-t', SESSION);
  } catch {
    // already gone
  }
  await source.drop();
  fs.rmSync(path.dirname(publicDir), { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
}
