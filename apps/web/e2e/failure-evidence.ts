/**
 * When a browser test fails, what its open pages show: each page's screenshot in
 * artifacts/failed/, and its address, the end of its text, its last API answers and socket events
 * and its unanswered API calls, printed and added to test-results/e2e-failures.txt, which the
 * suite's summary prints at its end.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { openPagesEvidence } from './browser';

const RESULTS = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../test-results');

afterEach(async ({ task }) => {
  if (task.result?.state !== 'fail') return;
  const name = `${task.file?.name ?? ''} > ${task.name}`;
  const lines = await openPagesEvidence(task.name);
  const block = [`${name}: ${lines.length === 0 ? 'no page was open' : 'what the open pages showed'}`, ...lines.map((l) => `  ${l}`)].join('\n');
  console.log(block);
  mkdirSync(RESULTS, { recursive: true });
  appendFileSync(path.join(RESULTS, 'e2e-failures.txt'), `${block}\n`);
});
