// Writes scripts/test-durations.json from the JSON reports of a run (test-results/*.json): each test
// file's seconds, the longest of its runs (a file runs once per database). The test runners start
// the longest files first with it (scripts/longest-first.ts), so that no long file starts last.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dir = path.resolve(process.argv[2] ?? path.join(root, 'test-results'));
const seconds = {};
for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const report = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  for (const result of report.testResults ?? []) {
    const relative = path.relative(root, result.name).split(path.sep).join('/');
    // A clone elsewhere: keep the path from the repository's own folders on.
    const key = relative.startsWith('..') ? relative.slice(relative.search(/(apps|packages)\//)) : relative;
    const took = Math.round((result.endTime - result.startTime) / 100) / 10;
    seconds[key] = Math.max(seconds[key] ?? 0, took);
  }
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)));
fs.writeFileSync(path.join(root, 'scripts/test-durations.json'), `${JSON.stringify(sorted, null, 1)}\n`);
console.log(`${Object.keys(sorted).length} files; scripts/test-durations.json`);
