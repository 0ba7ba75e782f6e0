/** Fails the run at once, and clearly, when PostgreSQL is expected but cannot be reached. */
import pg from 'pg';

export default async function setup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set, but the PostgreSQL project was requested.');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    throw new Error(`TEST_DATABASE_URL=${url} is set but PostgreSQL is unreachable: ${(error as Error).message}. Start PostgreSQL or unset TEST_DATABASE_URL.`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
