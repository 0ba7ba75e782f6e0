import { defineConfig } from 'vitest/config';
import { LongestFirst } from './scripts/longest-first';

/**
 * The API suite runs on SQLite always, and again on PostgreSQL when TEST_DATABASE_URL is set
 * (each test file gets a fresh database there).
 */
const serverProject = (db: 'sqlite' | 'postgres') => ({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    name: `api-${db}`,
    include: ['apps/server/src/**/*.test.ts', 'packages/shared/src/**/*.test.ts'],
    env: { TEST_DB: db },
    globalSetup: db === 'postgres' ? ['apps/server/src/test/postgres-global-setup.ts'] : [],
    testTimeout: 20000,
    hookTimeout: 30000,
  },
});

export default defineConfig({
  test: {
    // Two files at a time (the SQLite project's, then the PostgreSQL project's): most of a file's
    // time is spent waiting (the database, a campaign's pacing, a restart), so two share the cores.
    maxWorkers: Number(process.env.TEST_WORKERS ?? 2),
    minWorkers: 1,
    // A worker keeps the modules it loaded from one file to the next (the app, its drivers, the
    // database clients): loading them again for every file was a quarter of the suite's work.
    // Each file still builds its own app on its own database; no test mocks a module.
    isolate: false,
    sequence: { sequencer: LongestFirst },
    projects: [serverProject('sqlite'), ...(process.env.TEST_DATABASE_URL ? [serverProject('postgres')] : [])],
  },
});
