/**
 * The importer against a small whaticket schema on MariaDB (fixtures/whaticket-mysql.sql: every
 * conflict rule meets a row), into this suite's database (SQLite, and PostgreSQL with TEST_DB).
 * MariaDB must be running at TEST_MYSQL_URL (default mysql://root@127.0.0.1:3306/test): the
 * test fails, naming it, when it is not.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import type { Progress } from './progress.js';
import { runImport } from './run.js';
import { openSource } from './source.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const MYSQL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const quiet: Progress = { start: () => undefined, advance: () => undefined, finish: () => undefined };

const PG = process.env.TEST_DATABASE_URL;

/** A fresh source database with the fixture: MariaDB always; PostgreSQL when TEST_DATABASE_URL names one. */
async function createSource(kind: 'mysql' | 'postgres'): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `wt_import_${randomBytes(4).toString('hex')}`;
  if (kind === 'postgres') {
    const admin = new pg.Client({ connectionString: PG });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(PG ?? '');
    url.pathname = `/${name}`;
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    await c.query(fs.readFileSync(path.join(here, 'fixtures/whaticket-postgres.sql'), 'utf8'));
    await c.end();
    return {
      url: url.toString(),
      drop: async () => {
        const d = new pg.Client({ connectionString: PG });
        await d.connect();
        await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await d.end();
      },
    };
  }
  const base = new URL(MYSQL);
  const options = { host: base.hostname, port: Number(base.port || 3306), user: base.username || 'root', password: base.password };
  let conn: mysql.Connection;
  try {
    conn = await mysql.createConnection({ ...options, multipleStatements: true });
  } catch (error) {
    throw new Error(`MariaDB expected at ${MYSQL} for the whaticket import test but unreachable: ${(error as Error).message}`);
  }
  await conn.query(`CREATE DATABASE ${name}`);
  await conn.query(`USE ${name}`);
  await conn.query(fs.readFileSync(path.join(here, 'fixtures/whaticket-mysql.sql'), 'utf8'));
  await conn.end();
  const url = new URL(MYSQL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = await mysql.createConnection(options);
      await c.query(`DROP DATABASE IF EXISTS ${name}`);
      await c.end();
    },
  };
}

describe.each(PG ? (['mysql', 'postgres'] as const) : (['mysql'] as const))('whaticket import from %s', (kind) => {
  let app: TestApp;
  let sourceUrl: string;
  let dropSource: () => Promise<void>;

  beforeAll(async () => {
    const source = await createSource(kind);
    sourceUrl = source.url;
    dropSource = source.drop;
    app = await createTestApp();
  });

  afterAll(async () => {
    await app?.close();
    await dropSource?.();
  });

  async function importOnce(options: { dryRun?: boolean; progress?: Progress; batchSize?: number } = {}) {
    const source = await openSource(sourceUrl);
    try {
      const report = await runImport({
        source,
        target: { databaseUrl: app.ctx.config.databaseUrl, dataDir: app.ctx.config.dataDir, mediaDir: app.ctx.config.mediaDir },
        mediaFrom: path.join(here, 'fixtures/public'),
        dryRun: options.dryRun ?? false,
        batchSize: options.batchSize ?? 2000,
        offset: '-03:00',
        progress: options.progress ?? quiet,
      });
      return report.toJSON();
    } finally {
      await source.close();
    }
  }

  it('a dry run reports everything and writes nothing', async () => {
    const report = await importOnce({ dryRun: true });
    expect(report.tables.Messages).toMatchObject({ read: 10, imported: 9, skipped: 1 });
    expect(await app.ctx.db.selectFrom('contacts').select('id').where('number', '=', '5511999990001').execute()).toEqual([]);
    expect(await app.ctx.db.selectFrom('importMap').selectAll().execute()).toEqual([]);
  });

  it('an interrupted run resumes to the same result, and the conflicts follow the written rules', async () => {
    // Pages of 3 rows; the run dies right after the second page of messages committed (6 of 10 read),
    // with contacts, tickets and their map rows committed page by page before.
    let table = '';
    let pagesDone = 0;
    const failing: Progress = {
      ...quiet,
      start: (name) => {
        table = name;
      },
      advance: () => {
        if (table === 'Messages' && ++pagesDone === 2) throw new Error('killed');
      },
    };
    await expect(importOnce({ progress: failing, batchSize: 3 })).rejects.toThrow('killed');
    const halfway = await app.ctx.db.selectFrom('messages').select('providerId').execute();
    expect(halfway.length).toBe(6);
    const report = await importOnce({ batchSize: 3 });
    expect(report.tables.Messages).toMatchObject({ read: 10, imported: 3, existing: 6, skipped: 1 });
    expect(report.tables.Tickets).toMatchObject({ imported: 0, existing: 5, skipped: 1 });
    expect(report.tables.QuickAnswers).toMatchObject({ imported: 1 });
    // Tickets 2 and 6 stay open, last touched in 2024: the product's auto-close will close them at start, and the report says so.
    expect(report.warnings).toContain('2 open ticket(s) idle for more than 24 h will be closed by the auto-close when the product starts (its rule for every ticket).');
    const rules = report.changes.map((c) => `${c.table}:${c.sourceId}:${c.rule}`);
    expect(rules).toEqual(expect.arrayContaining(['Messages:3EB0AA:missing-ticket', 'Messages:3EB0A7:quoted-missing']));

    const tickets = await app.ctx.db
      .selectFrom('tickets')
      .innerJoin('contacts', 'contacts.id', 'tickets.contactId')
      .select(['tickets.status', 'contacts.number', 'tickets.unreadMessages'])
      .where('contacts.number', '=', '5511999990001')
      .orderBy('tickets.id')
      .execute();
    // whaticket's two active tickets of one contact: the newer stays open, the older is closed.
    expect(tickets.map((t) => t.status)).toEqual(['closed', 'open']);
    const numbers = (await app.ctx.db.selectFrom('contacts').select('number').orderBy('number').execute()).map((c) => c.number);
    expect(numbers).toEqual(expect.arrayContaining(['5511999990001', '5511999990002', '120363012345678901']));
    expect(numbers).not.toContain('???');
  });

  it('keeps order, quotes, deletions and media bytes; an agent signs in with the whaticket password', async () => {
    const rows = await app.ctx.db
      .selectFrom('messages')
      .select(['id', 'providerId', 'body', 'fromMe', 'isDeleted', 'quotedMsgId', 'mediaType', 'mediaPath', 'mediaName', 'createdAt'])
      .where('providerId', 'in', ['3EB0A2', '3EB0A3', '3EB0A4', '3EB0A5', '3EB0A6'])
      .orderBy('createdAt')
      .execute();
    expect(rows.map((r) => r.providerId)).toEqual(['3EB0A3', '3EB0A2', '3EB0A4', '3EB0A5', '3EB0A6']);
    expect(rows[1]?.quotedMsgId).toBe(rows[0]?.id);
    expect(rows[0]?.createdAt).toBe('2024-01-03T13:00:00.500Z');
    expect(rows[4]?.isDeleted).toBe(1);
    const image = rows[2];
    expect(image).toMatchObject({ mediaType: 'image', mediaName: 'foto.jpg' });
    expect(fs.readFileSync(path.join(app.ctx.config.mediaDir, image?.mediaPath ?? ''))).toEqual(fs.readFileSync(path.join(here, 'fixtures/public/foto.jpg')));
    expect(rows[3]).toMatchObject({ mediaType: 'other', mediaName: 'contrato.pdf' });

    const { user } = await app.login('ana@example.com', 'secret123');
    expect(user.profile).toBe('admin');
    const hash = await app.ctx.db.selectFrom('users').select('passwordHash').where('email', '=', 'ana@example.com').executeTakeFirstOrThrow();
    expect(hash.passwordHash.startsWith('$argon2')).toBe(true);
    await expect(app.login('ana@example.com', 'wrong-one')).rejects.toThrow('401');
    const queues = await app.ctx.db
      .selectFrom('userQueues')
      .innerJoin('queues', 'queues.id', 'userQueues.queueId')
      .innerJoin('users', 'users.id', 'userQueues.userId')
      .select(['users.email', 'queues.name'])
      .orderBy('users.email')
      .execute();
    expect(queues).toEqual([
      { email: 'ana@example.com', name: 'Vendas' },
      { email: 'bia@example.com', name: 'Suporte' },
    ]);
    const connection = await app.ctx.db.selectFrom('whatsapps').select(['status', 'greetingMessage', 'farewellMessage']).where('name', '=', 'Loja').executeTakeFirstOrThrow();
    expect(connection).toEqual({ status: 'DISCONNECTED', greetingMessage: 'Olá! Bem-vindo.', farewellMessage: 'Até logo!' });
  });

  it('a second run adds nothing', async () => {
    const report = await importOnce();
    for (const [table, counts] of Object.entries(report.tables)) expect({ table, imported: counts.imported, updated: counts.updated }).toEqual({ table, imported: 0, updated: 0 });
  });

  it('the switch-over run brings what whaticket did since: a new message, an ack, a ticket closed', async () => {
    const q = (name: string) => (kind === 'mysql' ? `\`${name}\`` : `"${name}"`);
    const now = kind === 'mysql' ? "'2024-02-01 10:00:00.000000'" : "'2024-02-01T13:00:00Z'";
    await sourceExec(kind, sourceUrl, [
      `INSERT INTO ${q('Messages')} (${['id', 'body', 'ack', 'read', 'mediaType', 'ticketId', 'createdAt', 'updatedAt', 'fromMe', 'isDeleted', 'contactId'].map(q).join(', ')}) VALUES ('3EB0B1', 'nova', 0, ${kind === 'mysql' ? 0 : 'false'}, 'chat', 2, ${now}, ${now}, ${kind === 'mysql' ? 0 : 'false'}, ${kind === 'mysql' ? 0 : 'false'}, 1)`,
      `UPDATE ${q('Messages')} SET ${q('ack')} = 4, ${q('updatedAt')} = ${now} WHERE ${q('id')} = '3EB0A4'`,
      `UPDATE ${q('Tickets')} SET ${q('status')} = 'closed', ${q('updatedAt')} = ${now} WHERE ${q('id')} = 2`,
    ]);
    const report = await importOnce();
    expect(report.tables.Messages).toMatchObject({ imported: 1, updated: 1 });
    expect(report.tables.Tickets).toMatchObject({ imported: 0, updated: 1 });
    const acked = await app.ctx.db.selectFrom('messages').select('ack').where('providerId', '=', '3EB0A4').executeTakeFirstOrThrow();
    expect(acked.ack).toBe(4);
    const fresh = await app.ctx.db.selectFrom('messages').select(['body', 'createdAt']).where('providerId', '=', '3EB0B1').executeTakeFirstOrThrow();
    expect(fresh).toEqual({ body: 'nova', createdAt: '2024-02-01T13:00:00.000Z' });
    // A third run reads only the messages updated since the last one (less a day) and finds nothing new.
    const third = await importOnce();
    expect(third.tables.Messages).toMatchObject({ imported: 0, updated: 0 });
    expect(third.tables.Messages?.read).toBeLessThan(10);
  });
});

async function sourceExec(kind: 'mysql' | 'postgres', url: string, statements: string[]): Promise<void> {
  if (kind === 'postgres') {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    for (const statement of statements) await c.query(statement);
    await c.end();
    return;
  }
  const u = new URL(url);
  const c = await mysql.createConnection({ host: u.hostname, port: Number(u.port || 3306), user: u.username || 'root', password: u.password, database: u.pathname.slice(1) });
  for (const statement of statements) await c.query(statement);
  await c.end();
}
