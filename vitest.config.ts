import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The API suite runs on SQLite always, and again on PostgreSQL when TEST_DATABASE_URL is set
 * (each test app gets a fresh database: a copy of a template migrated once per run).
 *
 * Files run side by side, one per core (at least two): each has its own temp folder, its own
 * database, port 0 and its own Redis prefix (vitest's default is one fewer worker than cores: a
 * single one on two cores). TEST_WORKERS overrides the count.
 */
const workers = Number(process.env.TEST_WORKERS) || Math.max(2, os.availableParallelism());

const serverProject = (db: 'sqlite' | 'postgres') => ({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    name: `api-${db}`,
    include: ['apps/server/src/**/*.test.ts', 'packages/shared/src/**/*.test.ts'],
    env: { TEST_DB: db },
    // One migrated template database per run: each test app's database starts as a copy of it.
    globalSetup: [`apps/server/src/test/${db}-global-setup.ts`],
    // Generous bounds, not timed assertions: two files share two cores, which may be busy besides.
    testTimeout: 60000,
    hookTimeout: 60000,
  },
});

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: workers,
    minWorkers: 1,
    projects: [serverProject('sqlite'), ...(process.env.TEST_DATABASE_URL ? [serverProject('postgres')] : [])],
  },
});
