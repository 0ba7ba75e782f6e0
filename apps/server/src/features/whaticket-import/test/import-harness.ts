/**
 * Drives the real importer CLI (features/whaticket-import/cli.ts, run by node as a child process,
 * from source through tsx) against a test app's database and media folder, and reads the
 * result back: the report, a digest of the imported data (no target ids: two runs must agree on
 * content, not on sequence numbers), and conversations through the HTTP API.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { TMessage } from '@zapdesk/shared/messaging';
import type { TestApp } from '../../../test/harness.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, '../../../../../..');
export const CLI = path.resolve(here, '../cli.ts');

export type ImportReport = {
  tables: Record<string, { read: number; imported: number; existing: number; changed: number; skipped: number; updated?: number }>;
  changes: { table: string; sourceId: string; action: string; rule: string; detail: string }[];
  warnings: string[];
  dryRun: boolean;
  source: string;
  durationMs: number;
};
export type CliRun = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; report: ImportReport | undefined };

/** The product's own configuration for the app under test: its database and its media folder. */
export function targetEnv(t: TestApp): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: t.ctx.config.dataDir, MEDIA_DIR: t.ctx.config.mediaDir, LOG_LEVEL: 'silent', FORCE_COLOR: '0' };
  delete env.DATABASE_URL;
  if (t.ctx.config.databaseUrl) env.DATABASE_URL = t.ctx.config.databaseUrl;
  return env;
}

export function startImport(t: TestApp, args: string[]): { child: ChildProcess; done: Promise<CliRun>; reportFile: string } {
  const reportFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wt-report-')), 'report.json');
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=source', CLI, ...args, '--report', reportFile], { cwd: REPO_ROOT, env: targetEnv(t), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CliRun>((resolve) => {
    child.on('exit', (code, signal) => {
      const report = fs.existsSync(reportFile) ? (JSON.parse(fs.readFileSync(reportFile, 'utf8')) as ImportReport) : undefined;
      resolve({ code, signal, stdout, stderr, report });
    });
  });
  return { child, done, reportFile };
}

/** Runs the CLI to its end; fails with its output when it does not exit 0. */
export async function runImport(t: TestApp, args: string[]): Promise<CliRun & { report: ImportReport }> {
  const run = await startImport(t, args).done;
  if (run.code !== 0 || !run.report) throw new Error(`import exited ${run.code ?? run.signal}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`);
  return run as CliRun & { report: ImportReport };
}

export async function countRows(t: TestApp, table: string): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(t.ctx.db);
  return Number(rows[0]?.n ?? 0);
}

/** The target id the importer gave a source row (importMap, migration 027). */
export async function targetIdOf(t: TestApp, sourceTable: string, sourceId: string | number): Promise<number | undefined> {
  const { rows } = await sql<{ targetId: number }>`select "targetId" from "importMap" where "sourceTable" = ${sourceTable} and "sourceId" = ${String(sourceId)}`.execute(t.ctx.db);
  return rows[0]?.targetId;
}

/** Everything imported, as content: rows named by their natural keys, never by target ids. */
export async function digest(t: TestApp): Promise<Record<string, unknown>> {
  const db = t.ctx.db;
  const q = async (query: ReturnType<typeof sql>) => (await query.execute(db)).rows.map((r) => JSON.stringify(r));
  const tables = ['users', 'queues', 'userQueues', 'whatsapps', 'whatsappQueues', 'contacts', 'contactExtraInfo', 'tickets', 'messages', 'quickAnswers', 'importPendingQuotes'];
  const counts = Object.fromEntries(await Promise.all(tables.map(async (name) => [name, await countRows(t, name)] as const)));
  const mediaRoot = path.join(t.ctx.config.mediaDir, 'whaticket');
  const media = fs.existsSync(mediaRoot)
    ? fs
        .readdirSync(mediaRoot)
        .sort()
        .map((f) => `${f}:${fs.statSync(path.join(mediaRoot, f)).size}`)
    : [];
  return {
    counts,
    media,
    // Hashes are left out: a bcrypt hash becomes argon2 at its first sign-in.
    users: await q(sql`select email, name, profile, "whatsappId" is not null as "hasConnection" from users order by email`),
    userQueues: await q(sql`select u.email, q.name from "userQueues" uq join users u on u.id = uq."userId" join queues q on q.id = uq."queueId" order by u.email, q.name`),
    queues: await q(sql`select name, color, "greetingMessage" from queues order by name`),
    // The status is left out: it is the live session's (a restart opens each connection again, and
    // one may be between OPENING and DISCONNECTED when the digest is read); the imported status is
    // checked on its own after the import.
    whatsapps: await q(sql`select name, "isDefault", "greetingMessage", "farewellMessage" from whatsapps order by name`),
    contacts: await q(sql`select number, name, email, "isGroup", "profilePicUrl" from contacts order by number, name`),
    extraInfo: await q(sql`select c.number, e.name, e.value from "contactExtraInfo" e join contacts c on c.id = e."contactId" order by c.number, e.name, e.value`),
    tickets: await q(
      sql`select c.number, t.status, u.email, qu.name as queue, w.name as connection, t."unreadMessages", t."lastMessage", t."isGroup", t."createdAt", t."updatedAt"
            from tickets t left join contacts c on c.id = t."contactId" left join users u on u.id = t."userId" left join queues qu on qu.id = t."queueId" left join whatsapps w on w.id = t."whatsappId"
           order by c.number, t."createdAt", t.status`,
    ),
    messages: await q(
      sql`select m."providerId", c.number as ticketContact, s.number as sender, m.body, m."fromMe", m.read, m.ack, m."isDeleted", m."mediaType", m."mediaName", m."mediaSize", q."providerId" as quoted, m."createdAt"
            from messages m join tickets t on t.id = m."ticketId" left join contacts c on c.id = t."contactId" left join contacts s on s.id = m."contactId" left join messages q on q.id = m."quotedMsgId"
           order by m."providerId"`,
    ),
    quickAnswers: await q(sql`select shortcut, message from "quickAnswers" order by shortcut`),
  };
}

/** A ticket's whole conversation through GET /api/messages/:ticketId (page 1 is the newest). */
export async function conversation(t: TestApp, ticketId: number): Promise<TMessage[]> {
  const pages: TMessage[][] = [];
  for (let page = 1; page < 1000; page += 1) {
    const res = await t.request({ method: 'GET', url: `/api/messages/${ticketId}?pageNumber=${page}`, token: t.adminToken });
    if (res.statusCode !== 200) throw new Error(`GET /api/messages/${ticketId}: ${res.statusCode} ${res.body}`);
    const body = res.json<{ messages: TMessage[]; hasMore: boolean }>();
    pages.push(body.messages);
    if (!body.hasMore) break;
  }
  return pages.reverse().flat();
}

/** Polls until `read` says so (a row count, a progress line), every 10 ms. */
export async function until(read: () => Promise<boolean> | boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await read())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
