/** A fresh PostgreSQL database for one benchmark run (`--db postgres`), dropped at the end; SQLite needs none. */
import pg from 'pg';

export type BenchDatabase = { url: string | undefined; drop: () => Promise<void> };

async function run(base: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function benchDatabase(kind: string | undefined): Promise<BenchDatabase> {
  if (kind !== 'postgres') return { url: undefined, drop: async () => undefined };
  const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `zapdesk_bench_${Date.now()}`;
  await run(base, `create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(base, `drop database if exists ${name} with (force)`) };
}
