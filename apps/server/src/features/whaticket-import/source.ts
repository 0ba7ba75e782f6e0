/**
 * The whaticket database, read only: MySQL/MariaDB (mysql2) or PostgreSQL (pg). The whole run
 * reads one consistent snapshot (a REPEATABLE READ, READ ONLY transaction that is never
 * committed), page by page in primary-key order (keyset pagination: memory stays flat).
 */
import mysql from 'mysql2/promise';
import pg from 'pg';
import { toLocalDatetime } from './rules.js';

export type SourceRow = Record<string, unknown>;

export type Source = {
  kind: 'mysql' | 'postgres';
  /** The URL without user and password: the key of the import map. */
  label: string;
  /** Rows of a table; `since`: only those updated at or after it (a rerun's Messages). */
  count(table: string, since?: Date): Promise<number>;
  /** Rows with `key` above `after`, in key order; `after` undefined: from the start. */
  page(table: string, key: string, after: string | number | undefined, limit: number, since?: Date): Promise<SourceRow[]>;
  /** A small table read whole (link tables, settings); missing table: no rows. */
  all(table: string): Promise<SourceRow[]>;
  hasTable(table: string): Promise<boolean>;
  close(): Promise<void>;
};

export class UsageError extends Error {}

export function sourceLabel(url: string): string {
  const u = new URL(url);
  const scheme = u.protocol.replace(':', '').replace('mariadb', 'mysql').replace('postgresql', 'postgres');
  return `${scheme}://${u.hostname}:${u.port || (scheme === 'mysql' ? '3306' : '5432')}${u.pathname}`;
}

/** `offset`: the zone a MySQL source's DATETIMEs are in (whaticket's -03:00 by default). */
export async function openSource(url: string, offset = '-03:00'): Promise<Source> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError('--from is not a URL (mysql://, mariadb:// or postgres://)');
  }
  const scheme = parsed.protocol.replace(':', '');
  if (scheme === 'mysql' || scheme === 'mariadb') return openMysql(parsed, offset);
  if (scheme === 'postgres' || scheme === 'postgresql') return openPostgres(url);
  throw new UsageError(`--from: unsupported scheme ${scheme}: (mysql://, mariadb:// or postgres://)`);
}

async function openMysql(url: URL, offset: string): Promise<Source> {
  const conn = await mysql.createConnection({
    host: url.hostname,
    port: url.port ? Number(url.port) : 3306,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: decodeURIComponent(url.pathname.slice(1)),
    // DATETIMEs as written: the importer applies whaticket's zone (rules.toIso).
    dateStrings: true,
    supportBigNumbers: true,
    charset: 'utf8mb4',
  });
  await conn.query('SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ');
  await conn.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
  const q = (name: string) => `\`${name.replace(/`/g, '')}\``;
  const database = decodeURIComponent(url.pathname.slice(1));
  return {
    kind: 'mysql',
    label: sourceLabel(url.toString()),
    async count(table, since) {
      const [rows] = since
        ? await conn.query(`SELECT COUNT(*) AS n FROM ${q(table)} WHERE ${q('updatedAt')} >= ?`, [toLocalDatetime(since, offset)])
        : await conn.query(`SELECT COUNT(*) AS n FROM ${q(table)}`);
      return Number((rows as SourceRow[])[0]?.n ?? 0);
    },
    async page(table, key, after, limit, since) {
      const conditions: string[] = [];
      const params: unknown[] = [];
      if (after !== undefined) {
        conditions.push(`${q(key)} > ?`);
        params.push(after);
      }
      if (since) {
        conditions.push(`${q('updatedAt')} >= ?`);
        params.push(toLocalDatetime(since, offset));
      }
      const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
      const [rows] = await conn.query(`SELECT * FROM ${q(table)} ${where} ORDER BY ${q(key)} LIMIT ?`, [...params, limit]);
      return rows as SourceRow[];
    },
    async all(table) {
      const [rows] = await conn.query(`SELECT * FROM ${q(table)}`);
      return rows as SourceRow[];
    },
    async hasTable(table) {
      const [rows] = await conn.query('SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = ? AND table_name = ?', [database, table]);
      return Number((rows as SourceRow[])[0]?.n ?? 0) > 0;
    },
    async close() {
      await conn.query('ROLLBACK').catch(() => undefined);
      await conn.end();
    },
  };
}

async function openPostgres(url: string): Promise<Source> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  const q = (name: string) => `"${name.replace(/"/g, '')}"`;
  return {
    kind: 'postgres',
    label: sourceLabel(url),
    async count(table, since) {
      const { rows } = since
        ? await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${q(table)} WHERE ${q('updatedAt')} >= $1`, [since.toISOString()])
        : await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${q(table)}`);
      return Number(rows[0]?.n ?? 0);
    },
    async page(table, key, after, limit, since) {
      const conditions: string[] = [];
      const params: unknown[] = [];
      if (after !== undefined) {
        params.push(after);
        conditions.push(`${q(key)} > $${params.length}`);
      }
      if (since) {
        params.push(since.toISOString());
        conditions.push(`${q('updatedAt')} >= $${params.length}`);
      }
      params.push(limit);
      const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
      const { rows } = await client.query<SourceRow>(`SELECT * FROM ${q(table)} ${where} ORDER BY ${q(key)} LIMIT $${params.length}`, params);
      return rows;
    },
    async all(table) {
      const { rows } = await client.query<SourceRow>(`SELECT * FROM ${q(table)}`);
      return rows;
    },
    async hasTable(table) {
      const { rows } = await client.query<{ n: string }>('SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1', [table]);
      return Number(rows[0]?.n ?? 0) > 0;
    },
    async close() {
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end();
    },
  };
}

/**
 * Every page of a table in key order, the next page read while the current one is written.
 * Integer keys for most tables; Messages' key is WhatsApp's message id (a string).
 */
export async function* pages(source: Source, table: string, limit: number, key = 'id', since?: Date): AsyncGenerator<SourceRow[]> {
  // A prefetch left behind by a failed write must not become an unhandled rejection.
  const read = (after: string | number | undefined) => {
    const promise = source.page(table, key, after, limit, since);
    promise.catch(() => undefined);
    return promise;
  };
  let next: Promise<SourceRow[]> | undefined = read(undefined);
  while (next) {
    const rows: SourceRow[] = await next;
    const last = rows.at(-1);
    next = rows.length === limit && last ? read(last[key] as string | number) : undefined;
    if (rows.length) yield rows;
  }
}
