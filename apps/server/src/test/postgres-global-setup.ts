/**
 * Fails the run at once, and clearly, when PostgreSQL is expected but cannot be reached. Then
 * migrates one template database for the run: each test app's database is a copy of it
 * (`create database … template …`, a fraction of a second) instead of running every migration again.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migratedTemplateDatabase } from './templates.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
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
  const template = await migratedTemplateDatabase(url, `zapdesk_test_template_${randomBytes(6).toString('hex')}`);
  project.provide('postgresTemplate', template.name);
  return template.drop;
}
