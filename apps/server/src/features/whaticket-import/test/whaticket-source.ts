/**
 * A throwaway whaticket source database on MariaDB/MySQL (mysql2) or PostgreSQL (pg): created under a
 * random name `wt_<hex>` on the given server, migrated as whaticket's migrations do, dropped after.
 */
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { DROP_COLUMN_WITH_FKS, META, MIGRATIONS, type WhaticketDialect } from './whaticket-schema.js';

export type SourceDb = {
  dialect: WhaticketDialect;
  /** The database's own URL: what `--from` gets. */
  url: string;
  query: <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;
  /** One multi-row INSERT per call. */
  insertRows: (table: string, columns: string[], rows: unknown[][]) => Promise<void>;
  close: () => Promise<void>;
  /** Closes and drops the database. */
  drop: () => Promise<void>;
};

/** whaticket's Sequelize config writes DATETIMEs in this offset (config/database.ts: timezone "-03:00"). */
export const WHATICKET_MYSQL_TIMEZONE = '-03:00';

export function dialectOf(url: string): WhaticketDialect {
  return url.startsWith('postgres') ? 'postgres' : 'mysql';
}

function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function createSourceDatabase(serverUrl: string, name = `wt_${randomBytes(5).toString('hex')}`): Promise<SourceDb> {
  const dialect = dialectOf(serverUrl);
  const url = withDatabase(serverUrl, name);
  if (dialect === 'mysql') {
    let admin: mysql.Connection;
    try {
      admin = await mysql.createConnection({ uri: serverUrl, connectTimeout: 5000 });
    } catch (error) {
      throw new Error(`MariaDB/MySQL expected at ${serverUrl} but unreachable: ${(error as Error).message}`);
    }
    // whaticket's install guide runs MySQL with utf8mb4 / utf8mb4_bin.
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    await admin.end();
    const pool = mysql.createPool({ uri: url, timezone: WHATICKET_MYSQL_TIMEZONE, connectionLimit: 2, multipleStatements: false });
    const db: SourceDb = {
      dialect,
      url,
      query: async <T>(sql: string, params: unknown[] = []) => {
        const [rows] = await pool.query(sql, params);
        return rows as T[];
      },
      insertRows: async (table, columns, rows) => {
        if (rows.length === 0) return;
        await pool.query(`INSERT INTO \`${table}\` (${columns.map((c) => `\`${c}\``).join(', ')}) VALUES ?`, [rows]);
      },
      close: () => pool.end(),
      drop: async () => {
        await pool.end().catch(() => undefined);
        const c = await mysql.createConnection({ uri: serverUrl });
        await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await c.end();
      },
    };
    return db;
  }
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`PostgreSQL expected at ${serverUrl} but unreachable: ${(error as Error).message}`);
  }
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  // drop() ends the pool and then drops the database WITH (FORCE): a client still closing hears
  // PostgreSQL end its connection (57P01), which the pool re-emits; unheard, that ends the process.
  pool.on('error', () => undefined);
  return {
    dialect,
    url,
    query: async <T>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[],
    insertRows: async (table, columns, rows) => {
      if (rows.length === 0) return;
      const params: unknown[] = [];
      const tuples = rows.map((row) => `(${row.map((value) => (params.push(value), `$${params.length}`)).join(', ')})`);
      await pool.query(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${tuples.join(', ')}`, params);
    },
    close: () => pool.end(),
    drop: async () => {
      await pool.end().catch(() => undefined);
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Runs whaticket's migrations in order and records them in SequelizeMeta as sequelize-cli does. */
export async function migrateWhaticket(db: SourceDb): Promise<void> {
  await db.query(META[db.dialect]);
  for (const step of MIGRATIONS) {
    for (const sql of step[db.dialect]) {
      if (sql.startsWith(DROP_COLUMN_WITH_FKS)) {
        const [table = '', column = ''] = sql.slice(DROP_COLUMN_WITH_FKS.length).trim().split(' ');
        await dropMysqlColumn(db, table, column);
      } else {
        await db.query(sql);
      }
    }
    await db.insertRows('SequelizeMeta', ['name'], [[`${step.name}.js`]]);
  }
}

async function dropMysqlColumn(db: SourceDb, table: string, column: string): Promise<void> {
  const fks = await db.query<{ name: string }>(
    `SELECT CONSTRAINT_NAME AS name FROM information_schema.KEY_COLUMN_USAGE
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = ? AND REFERENCED_TABLE_NAME IS NOT NULL`,
    [table, column],
  );
  for (const fk of fks) await db.query(`ALTER TABLE \`${table}\` DROP FOREIGN KEY \`${fk.name}\``);
  await db.query(`ALTER TABLE \`${table}\` DROP \`${column}\``);
}
