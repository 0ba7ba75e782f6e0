/**
 * The order the test runners start files in: the longest first, by the seconds a past run took
 * (scripts/test-durations.json, written by scripts/test-durations.mjs), so that the last files to
 * start are short ones and the workers end together. A file the list does not know yet starts
 * among the first (it may be long). Vitest's own order needs a cache a fresh clone does not have.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const ROOT = path.resolve(import.meta.dirname, '..');
const UNKNOWN_SECONDS = 60;

function knownSeconds(): Record<string, number> {
  try {
    return JSON.parse(fs.readFileSync(path.join(ROOT, 'scripts/test-durations.json'), 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = knownSeconds();
    const cost = (spec: TestSpecification) => seconds[path.relative(ROOT, spec.moduleId).split(path.sep).join('/')] ?? UNKNOWN_SECONDS;
    return [...files].sort((a, b) => cost(b) - cost(a));
  }
}
