/**
 * Compares two seeds of one kind, to show that two ways of building hold the same data:
 * the schema (tables, indexes, triggers), every loaded table's rows (timestamps taken relative
 * to the build's clock, password hashes left out: they are salted) and the message full-text
 * index's answer (which messages, by id or index row id) for every word of the seed's vocabulary.
 *
 *   npx tsx --conditions=source bench/seed-compare.ts --db sqlite a.sqlite b.sqlite
 *   npx tsx --conditions=source bench/seed-compare.ts --db postgres postgres://…/a postgres://…/b
 *
 * Prints each difference and exits 1 when there is one.
 */
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { LOADED_TABLES } from './seed-data.js';
import { seedVocabulary } from './seed-texts.js';

type Facts = Map<string, string>;
type Value = string | number | bigint | Date | null;
/** A timestamp in ms (SQLite stores ISO text; pg reads timestamptz as a Date). */
const instant = (v: Value) => (v instanceof Date ? v.getTime() : Date.parse(String(v)));
/** Reads a query's rows in pages (keyset on `id` when the table has one). */
type Reader = { columns(table: string): Promise<string[]>; rows(sql: string, params?: Value[]): Promise<Value[][]> };

const hash = () => crypto.createHash('sha1');
const SKIPPED = new Set(['passwordHash']);

async function collect(reader: Reader, fts: (word: string) => Promise<Value[][]>, schema: () => Promise<Value[][]>): Promise<Facts> {
  const facts: Facts = new Map();
  facts.set(
    'schema',
    hash()
      .update(JSON.stringify(await schema()))
      .digest('hex'),
  );
  // Every timestamp of a build is its clock minus a fixed offset: the admin's createdAt is the anchor.
  const anchor = instant((await reader.rows(`select "createdAt" from users where id = 1`))[0]?.[0] ?? null);
  for (const table of LOADED_TABLES) {
    const columns = (await reader.columns(table)).filter((c) => !SKIPPED.has(c));
    const order = columns.includes('id') ? 'id' : columns.map((c) => `"${c}"`).join(',');
    const h = hash();
    let count = 0;
    for (let last = -1; ;) {
      const page = await reader.rows(
        `select ${columns.map((c) => `"${c}"`).join(',')} from "${table}"${columns.includes('id') ? ` where id > ${last}` : ''} order by ${order}${columns.includes('id') ? ' limit 50000' : ''}`,
      );
      for (const row of page) {
        h.update(JSON.stringify(row.map((v, i) => (columns[i]?.endsWith('At') && v !== null ? instant(v) - anchor : typeof v === 'bigint' ? String(v) : v))));
        h.update('\n');
      }
      count += page.length;
      if (!columns.includes('id') || page.length < 50000) break;
      last = Number(page[page.length - 1]?.[columns.indexOf('id')]);
    }
    facts.set(`table ${table}`, `${count} rows ${h.digest('hex')}`);
  }
  for (const word of [...seedVocabulary(), 'br1234', 'sao paulo']) {
    const ids = await fts(word);
    facts.set(`words '${word}'`, `${ids.length} ${hash().update(ids.join(',')).digest('hex')}`);
  }
  return facts;
}

async function sqliteFacts(file: string): Promise<Facts> {
  const db = new SQLite(file, { readonly: true });
  db.defaultSafeIntegers(true);
  const reader: Reader = {
    columns: async (table) => (db.prepare(`select name from pragma_table_info(?)`).pluck().all(table) as string[]).map(String),
    rows: async (sql, params = []) =>
      db
        .prepare(sql)
        .raw()
        .all(...params) as Value[][],
  };
  const words = db.prepare(`select rowid from message_words where message_words match ? order by rowid`).raw();
  const facts = await collect(
    reader,
    async (word) => words.all(`"${word}"`) as Value[][],
    async () => db.prepare(`select type, name, tbl_name, sql from sqlite_master order by type, name`).raw().all() as Value[][],
  );
  db.close();
  return facts;
}

async function postgresFacts(url: string): Promise<Facts> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // The words are looked up through the GIN index, as the product does.
  await client.query('set enable_seqscan = off');
  const reader: Reader = {
    columns: async (table) =>
      (
        await client.query<{ name: string }>(`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = $1 order by ordinal_position`, [table])
      ).rows.map((r) => r.name),
    rows: async (sql, params = []) => (await client.query({ text: sql, values: params, rowMode: 'array' })).rows as Value[][],
  };
  const facts = await collect(
    reader,
    (word) => reader.rows(`select id from messages where to_tsvector('simple', "searchText") @@ plainto_tsquery('simple', $1) order by id`, [word]),
    () =>
      reader.rows(
        `select 'index', tablename, indexname, indexdef from pg_indexes where schemaname = current_schema()
         union all select 'constraint', conrelid::regclass::text, conname, pg_get_constraintdef(oid) from pg_constraint where connamespace = current_schema()::regnamespace
         union all select 'trigger', tgrelid::regclass::text, tgname, pg_get_triggerdef(oid) from pg_trigger where not tgisinternal
         order by 1, 2, 3`,
      ),
  );
  await client.end();
  return facts;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ options: { db: { type: 'string', default: 'sqlite' } }, allowPositionals: true });
  const [a, b] = positionals;
  if (!a || !b) throw new Error('two seeds to compare');
  const of = values.db === 'postgres' ? postgresFacts : sqliteFacts;
  const [left, right] = [await of(a), await of(b)];
  let differences = 0;
  for (const [key, value] of left) {
    if (right.get(key) === value) continue;
    differences += 1;
    console.log(`differs: ${key}: ${value} / ${right.get(key)}`);
  }
  const words = [...left.keys()].filter((k) => k.startsWith('words')).length;
  console.log(`${left.size} facts compared (schema, ${LOADED_TABLES.length} tables, ${words} words): ${differences} differences`);
  for (const [key, value] of left) if (key.startsWith('table')) console.log(`  ${key}: ${value}`);
  process.exit(differences ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
