/**
 * End to end: a whaticket database built as whaticket's migrations build it (MariaDB and
 * PostgreSQL), seeded with a shop's history, imported by the real CLI (a child process) into this
 * project's target (SQLite, or PostgreSQL in the api-postgres project), then read back through
 * the HTTP API. Also: a second run adds nothing, --dry-run writes nothing, and a kill -9 in the
 * middle followed by a rerun ends exactly as a clean run.
 *
 * MariaDB comes from TEST_MYSQL_URL (e.g. mysql://root@127.0.0.1:3306/test); unset, that half is
 * skipped with a warning; set but unreachable, it fails. PostgreSQL sources use TEST_DATABASE_URL's server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { checkConversation, checkReportAndCounts, checkUsersQueuesConnections, checkContactsAndConflicts } from './test/import-assertions.js';
import { countRows, digest, runImport, startImport, until } from './test/import-harness.js';
import { seedWhaticket, type SeedFacts } from './test/seed.js';
import { createSourceDatabase, migrateWhaticket, type SourceDb } from './test/whaticket-source.js';

const MYSQL_URL = process.env.TEST_MYSQL_URL;
const PG_URL = process.env.TEST_DATABASE_URL;
if (!MYSQL_URL) {
  const bar = '!'.repeat(96);
  console.warn(
    `\n${bar}\n!! MariaDB is MISSING: the whaticket import test FROM MARIADB IS SKIPPED (whaticket's default database).\n` +
      `!! Run it with a MariaDB/MySQL server whose user may create databases, e.g.\n` +
      `!!   TEST_MYSQL_URL=mysql://root@127.0.0.1:3306/test npx vitest run apps/server/src/features/whaticket-import/import.e2e.test.ts\n` +
      `!! (.ci/run sets TEST_MYSQL_URL to that address by default.)\n${bar}\n`,
  );
}
if (!PG_URL) console.warn('whaticket import test from PostgreSQL skipped: TEST_DATABASE_URL is not set.');

const sources = [
  { label: 'MariaDB', url: MYSQL_URL },
  { label: 'PostgreSQL', url: PG_URL },
];
const LONG = 180_000;

for (const { label, url } of sources) {
  describe.skipIf(!url)(`whaticket import from ${label} into ${process.env.TEST_DB ?? 'sqlite'}`, () => {
    let source: SourceDb;
    let facts: SeedFacts;
    let publicDir: string;
    let clean: TestApp | undefined;
    let cleanDigest: Record<string, unknown>;
    const opened: TestApp[] = [];
    const app = async () => {
      const t = await createTestApp();
      opened.push(t);
      return t;
    };
    // A restarted app shares its database with the one it replaces: only the new one is closed at the end.
    const restart = async (t: TestApp) => {
      const next = await t.restart();
      opened[opened.indexOf(t)] = next;
      return next;
    };
    const args = () => ['--from', source.url, '--media', publicDir];

    beforeAll(async () => {
      source = await createSourceDatabase(url ?? '');
      await migrateWhaticket(source);
      publicDir = fs.mkdtempSync(path.join(os.tmpdir(), 'whaticket-public-'));
      // Active tickets dated in the last day: older open ones would be closed by the product's auto-close at start.
      facts = await seedWhaticket(source, { publicDir, now: new Date(Math.floor(Date.now() / 60_000) * 60_000) });
    }, LONG);

    afterAll(async () => {
      for (const t of opened) await t.close().catch(() => undefined);
      await source?.drop();
      if (publicDir) fs.rmSync(publicDir, { recursive: true, force: true });
    }, LONG);

    it(
      '--dry-run prints the report and writes nothing',
      async () => {
        const t = await app();
        const before = await digest(t);
        const run = await runImport(t, [...args(), '--dry-run']);
        expect(run.report.dryRun).toBe(true);
        expect(run.report.tables.Messages?.read).toBe(facts.counts.Messages);
        expect(run.report.tables.Messages?.imported).toBeGreaterThan(0);
        expect(await digest(t)).toEqual(before);
        expect(await countRows(t, 'importMap')).toBe(0);
      },
      LONG,
    );

    it(
      'imports everything: counts, conversations, media bytes, sign-ins, queues, connections, conflicts',
      async () => {
        let t = await app();
        const run = await runImport(t, args());
        t = await restart(t);
        clean = t;
        cleanDigest = await digest(t);
        await checkReportAndCounts(t, run.report, facts);
        const seen = { messages: 0, quoted: 0, deleted: 0, mediaBytes: 0, mediaMissing: 0 };
        for (const ticketId of facts.sampleTicketIds) await checkConversation(t, source, facts, ticketId, run.report, seen);
        // The samples did cover what they are for: quotes, deletions, media compared byte for byte, the missing file.
        expect(facts.sampleTicketIds.length).toBeGreaterThanOrEqual(5);
        expect(seen.quoted * seen.deleted * seen.mediaBytes * seen.mediaMissing, JSON.stringify(seen)).toBeGreaterThan(0);
        await checkUsersQueuesConnections(t, run.report, facts);
        await checkContactsAndConflicts(t, run.report, facts);
      },
      LONG,
    );

    it(
      'a second run adds nothing',
      async () => {
        if (!clean) throw new Error('the clean import did not run');
        const run = await runImport(clean, args());
        for (const [table, numbers] of Object.entries(run.report.tables)) {
          expect({ table, imported: numbers.imported, updated: numbers.updated ?? 0 }).toEqual({ table, imported: 0, updated: 0 });
        }
        const t = await restart(clean);
        clean = t;
        expect(await digest(t)).toEqual(cleanDigest);
      },
      LONG,
    );

    it(
      'killed with SIGKILL in the middle, then run again, it ends as a clean run',
      async () => {
        if (!cleanDigest) throw new Error('the clean import did not run');
        let t = await app();
        const started = startImport(t, [...args(), '--batch-size', '100']);
        const total = facts.counts.Messages ?? 0;
        let seen = 0;
        await until(async () => {
          seen = await countRows(t, 'messages');
          return seen > 0;
        }, 'the first imported messages');
        started.child.kill('SIGKILL');
        const killed = await started.done;
        expect(killed.signal).toBe('SIGKILL');
        const atKill = await countRows(t, 'messages');
        expect(atKill, 'the kill came after the import ended: nothing was interrupted').toBeLessThan(total);
        const resumed = await runImport(t, args());
        expect(resumed.report.tables.Messages?.existing).toBeGreaterThanOrEqual(atKill);
        t = await restart(t);
        expect(await digest(t)).toEqual(cleanDigest);
      },
      LONG,
    );

    it('never wrote to the source', async () => {
      const q = (table: string) => (source.dialect === 'mysql' ? `SELECT COUNT(*) AS n FROM \`${table}\`` : `SELECT COUNT(*)::int AS n FROM "${table}"`);
      for (const [table, n] of Object.entries(facts.counts)) {
        const [row] = await source.query<{ n: number }>(q(table));
        expect({ table, n: Number(row?.n) }).toEqual({ table, n });
      }
    });
  });
}
