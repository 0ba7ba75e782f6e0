/**
 * PostgreSQL: pg_dump and pg_restore (Debian: postgresql-client) driven with the connection
 * from DATABASE_URL. The password goes to them in PGPASSWORD, never on a command line.
 */
import pg from 'pg';
import { runTool } from './archive.js';
import { OpsError } from './errors.js';

/** The libpq environment for DATABASE_URL (host, port, user, password, database, sslmode). */
export function libpqEnvironment(databaseUrl: string): NodeJS.ProcessEnv {
  const url = new URL(databaseUrl);
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['PGHOST', 'PGPORT', 'PGUSER', 'PGPASSWORD', 'PGDATABASE', 'PGSSLMODE', 'PGSERVICE']) delete env[name];
  const host = url.searchParams.get('host') ?? decodeURIComponent(url.hostname).replace(/^\[|\]$/g, '');
  if (host) env.PGHOST = host;
  if (url.port) env.PGPORT = url.port;
  if (url.username) env.PGUSER = decodeURIComponent(url.username);
  if (url.password) env.PGPASSWORD = decodeURIComponent(url.password);
  env.PGDATABASE = decodeURIComponent(url.pathname.replace(/^\//, '')) || env.PGUSER || 'postgres';
  const sslmode = url.searchParams.get('sslmode');
  if (sslmode) env.PGSSLMODE = sslmode;
  return env;
}

function missing(command: string): string {
  return (
    `${command} is not installed (not found on PATH); it is needed to ${command === 'pg_dump' ? 'back up' : 'restore'} a PostgreSQL database.\n` +
    `  Debian/Ubuntu: sudo apt-get install postgresql-client   (its major version must be the server's or newer)\n` +
    `  Other systems: install PostgreSQL's client programs and put them on PATH.`
  );
}

/** Fails with an explanation when `command` cannot be run. */
export async function requireTool(command: 'pg_dump' | 'pg_restore'): Promise<void> {
  const result = await runTool(command, ['--version'], { missing: () => missing(command) });
  if (result.code !== 0) throw new OpsError(`${command} --version failed: ${result.stderr}`);
}

/** pg_dump's custom format (-Fc) into `file`. */
export async function pgDump(databaseUrl: string, file: string): Promise<void> {
  const env = libpqEnvironment(databaseUrl);
  const result = await runTool('pg_dump', ['--format=custom', '--no-password', `--file=${file}`, `--dbname=${env.PGDATABASE ?? ''}`], { env, missing: () => missing('pg_dump') });
  if (result.code !== 0) throw new OpsError(`pg_dump failed (exit code ${result.code}): ${result.stderr}`);
}

/** Restores `file` in one transaction: on an error the database is left as it was. */
export async function pgRestore(databaseUrl: string, file: string): Promise<void> {
  const env = libpqEnvironment(databaseUrl);
  const args = ['--clean', '--if-exists', '--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', '--no-password', `--dbname=${env.PGDATABASE ?? ''}`, file];
  const result = await runTool('pg_restore', args, { env, missing: () => missing('pg_restore') });
  if (result.code !== 0) throw new OpsError(`pg_restore failed (exit code ${result.code}); the database is unchanged: ${result.stderr}`);
}

/** What restore and backup ask the database before they act. */
export type PgFacts = { migrations: string[]; otherClients: number; tables: number };

export async function pgFacts(databaseUrl: string): Promise<PgFacts> {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new OpsError(`Cannot connect to the database in DATABASE_URL: ${(error as Error).message}`);
  }
  try {
    const tables = await client.query<{ n: number }>("select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')");
    const others = await client.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    const hasMigrations = await client.query<{ t: string | null }>("select to_regclass('kysely_migration')::text as t");
    const migrations = hasMigrations.rows[0]?.t ? (await client.query<{ name: string }>('select name from kysely_migration order by name')).rows.map((r) => r.name) : [];
    return { migrations, otherClients: others.rows[0]?.n ?? 0, tables: tables.rows[0]?.n ?? 0 };
  } finally {
    await client.end();
  }
}
