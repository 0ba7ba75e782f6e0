// Adds up the JSON reports in a folder (vitest's format) and prints "N passed, N failed"; a
// second argument adds failures found outside the reports (the type check, the lint). Each failed
// test is named above that line, with the first line of its error, so that the end of a long log
// says what failed; so is what a failed browser test's open pages showed.
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2] ?? 'test-results';
let passed = 0;
let failed = Number(process.argv[3] ?? 0);
let skipped = 0;
const failures = [];
const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
for (const file of files) {
  const report = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += (report.numFailedTests ?? 0) + (report.numRuntimeErrors ?? 0);
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const suite of report.testResults ?? []) {
    const where = path.relative(process.cwd(), suite.name ?? '');
    const failedTests = (suite.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const test of failedTests) failures.push(`${file} ${where} > ${test.fullName}: ${firstLine(test.failureMessages)}`);
    // A file that failed outside its tests (an import, a hook) has a message and no failed test.
    if (suite.status === 'failed' && failedTests.length === 0) failures.push(`${file} ${where}: ${firstLine([suite.message])}`);
  }
  // An error thrown outside every test (an unheard 'error' event, say) fails the run without failing a test.
  if ((report.numRuntimeErrors ?? 0) > 0) failures.push(`${file}: ${report.numRuntimeErrors} error(s) outside the tests ('Unhandled Errors' in the log names the file)`);
  console.log(`${file}: ${report.numPassedTests ?? 0} passed, ${report.numFailedTests ?? 0} failed`);
}
if (files.length === 0) failed += 1;
// What the browser tests' open pages showed when a test failed (apps/web/e2e/failure-evidence.ts).
const evidence = path.join(dir, 'e2e-failures.txt');
if (fs.existsSync(evidence)) {
  const lines = fs.readFileSync(evidence, 'utf8').trimEnd().split('\n');
  console.log(`what the open pages showed when a browser test failed (${path.relative(process.cwd(), evidence)}):`);
  for (const line of lines.slice(0, 80)) console.log(`  ${line.slice(0, 400)}`);
  if (lines.length > 80) console.log(`  … ${lines.length - 80} more lines in that file`);
}
for (const failure of failures) console.log(`FAILED ${failure}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);

function firstLine(messages) {
  const found = (messages ?? []).find((m) => typeof m === 'string' && m.trim() !== '') ?? '';
  // Without the terminal colour codes of Playwright's call log.
  const text = found.replace(/\u001b\[[0-9;]*m/g, '');
  const first = text.trim().split('\n')[0].slice(0, 300);
  // Playwright's call log says what a timed-out call waited for; the stack says which line of the test made it.
  const waited = /^\s*- (waiting for .+)$/m.exec(text)?.[1];
  const at = /([\w.-]+\.(?:e2e|test)\.tsx?:\d+)(?::\d+)?\)?$/m.exec(text)?.[1];
  return [first, waited ? `(${waited.slice(0, 200)})` : '', at ? `at ${at}` : ''].filter(Boolean).join(' ');
}
