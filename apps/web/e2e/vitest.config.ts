import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from '../../../scripts/longest-first';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Browser tests: Chromium (playwright-core) against the real server serving the built web app. */
export default defineConfig({
  test: {
    name: 'e2e',
    root: here,
    // The JSON report joins the API suite's in test-results/ for the repository's summary line.
    reporters: ['default', 'json'],
    outputFile: { json: path.join(here, '../../../test-results/e2e.json') },
    include: ['**/*.e2e.ts'],
    globalSetup: ['./global-setup.ts'],
    // A failed test leaves its open pages' screenshots, addresses and last API answers.
    setupFiles: ['./failure-evidence.ts'],
    // Two files at a time, each with its own server and browser: a browser test spends most of its
    // time waiting for a page, a poll or the server, so two share the machine's two cores.
    fileParallelism: true,
    maxWorkers: Number(process.env.E2E_WORKERS ?? 2),
    minWorkers: 1,
    sequence: { sequencer: LongestFirst },
    testTimeout: 90_000,
    hookTimeout: 180_000,
    // A poll waits for the page as long as a locator does (newContext's default timeout): on a
    // busy machine a page can take more than vitest's default second to show what it loaded.
    expect: { poll: { timeout: 15_000 } },
  },
});
