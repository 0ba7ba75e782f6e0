/**
 * The SQLite seed: the product's migrations on a new file, then one bulk load. While loading, the
 * loaded tables' secondary indexes and the full-text triggers that copy each new message into
 * an index (migrations 003 and 018) are set aside: each index is then built once from its own
 * `create index` statement, and each trigger's index is filled by one `insert … select` derived
 * from the trigger itself (the rows it would have inserted, in row order), after which the
 * trigger is created again from its stored SQL. The file ends as the migrations and triggers
 * would have left it, in a fraction of the time.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { openDatabase } from '@zapdesk/server/core/db/database';
import { migrateToLatest } from '@zapdesk/server/core/db/migrate';
import { fillSeed, LOADED_TABLES, seedShape, type Writer } from './seed-data.js';

function sqliteWriter(db: SQLite.Database): Writer {
  const statements = new Map<string, SQLite.Statement>();
  return {
    async insert(table, columns, rows) {
      const perChunk = Math.max(1, Math.min(500, Math.floor(30000 / columns.length)));
      for (let i = 0; i < rows.length; i += perChunk) {
        const chunk = rows.slice(i, i + perChunk);
        const key = `${table}:${chunk.length}`;
        let statement = statements.get(key);
        if (!statement) {
          const tuple = `(${columns.map(() => '?').join(',')})`;
          statement = db.prepare(`insert into "${table}" (${columns.map((c) => `"${c}"`).join(',')}) values ${Array.from({ length: chunk.length }, () => tuple).join(',')}`);
          statements.set(key, statement);
        }
        statement.run(chunk.flat());
      }
    },
  };
}

type Deferred = { indexes: { name: string; sql: string }[]; triggers: { name: string; sql: string; fill: string }[] };

/**
 * An `after insert` trigger whose body is one `insert into X(cols) values (exprs of new.*)`,
 * optionally `when <condition of new.*>`, as the statement that fills X for rows already in the
 * table: `insert into X(cols) select exprs from table where condition order by rowid`. Any other
 * trigger answers undefined (and is left in place during the load).
 */
export function fillFromTrigger(triggerSql: string, table: string): string | undefined {
  const flat = triggerSql.replace(/\s+/g, ' ').trim();
  const match = /^create trigger "?\w+"? after insert on "?(\w+)"?(?: for each row)?(?: when (.+?))? begin insert into "?(\w+)"? ?\(([^)]*)\) values ?\((.+)\); end$/i.exec(flat);
  if (!match || match[1] !== table) return undefined;
  const [, , when, target, columns, values] = match;
  // Only references to the new row (new.x) and literals: strip `new.` to read the stored row.
  const bare = (expression: string) => expression.replace(/\bnew\./gi, '');
  if (/\bold\.|\bselect\b/i.test(`${when ?? ''} ${values ?? ''}`)) return undefined;
  return `insert into "${target}" (${columns}) select ${bare(values ?? '')} from "${table}"${when ? ` where ${bare(when)}` : ''} order by rowid`;
}

/** Triggers whose effect the seed's rows carry already: set aside during the load, created again after. */
const WRITTEN_BY_SEED = ['messages_ticket_asked', 'messages_ticket_answered'];

/** Sets aside the loaded tables' secondary indexes, their insert triggers that fillFromTrigger understands and those in WRITTEN_BY_SEED. */
function deferIndexes(db: SQLite.Database): Deferred {
  const deferred: Deferred = { indexes: [], triggers: [] };
  const objects = db.prepare(`select type, name, tbl_name as "table", sql from sqlite_master where type in ('index', 'trigger') and sql is not null`).all() as {
    type: string;
    name: string;
    table: string;
    sql: string;
  }[];
  for (const object of objects) {
    if (!LOADED_TABLES.includes(object.table)) continue;
    if (object.type === 'index') {
      deferred.indexes.push({ name: object.name, sql: object.sql });
      db.exec(`drop index "${object.name}"`);
      continue;
    }
    // The dashboard's moments on the ticket (migration 047): the seed writes them with the ticket.
    const fill = WRITTEN_BY_SEED.includes(object.name) ? 'select 1' : fillFromTrigger(object.sql, object.table);
    if (!fill) continue;
    deferred.triggers.push({ name: object.name, sql: object.sql, fill });
    db.exec(`drop trigger "${object.name}"`);
  }
  return deferred;
}

function restoreIndexes(db: SQLite.Database, deferred: Deferred, log: (s: string) => void, times: Record<string, number>): void {
  for (const index of deferred.indexes) {
    const started = performance.now();
    db.exec(index.sql);
    times[`index ${index.name}`] = Math.round(performance.now() - started);
  }
  log(`indexes: ${deferred.indexes.length} built`);
  for (const trigger of deferred.triggers) {
    const started = performance.now();
    db.exec(trigger.fill);
    db.exec(trigger.sql);
    times[`trigger ${trigger.name}`] = Math.round(performance.now() - started);
    log(`trigger ${trigger.name}: ${trigger.fill}`);
  }
}

/** Builds the SQLite seed file at `file` (replacing it); answers the time of each phase in ms. */
export async function seedSqlite(file: string, log: (s: string) => void = console.log, scale = 1): Promise<Record<string, number>> {
  const times: Record<string, number> = {};
  let started = performance.now();
  const phase = (name: string) => {
    times[name] = Math.round(performance.now() - started);
    started = performance.now();
  };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(`${file}${suffix}`, { force: true });
  // The schema is the product's: its own migrations on a database named as the server names it.
  const tmpDir = fs.mkdtempSync(path.join(path.dirname(file), 'build-'));
  const handle = openDatabase({ databaseUrl: undefined, dataDir: tmpDir });
  await migrateToLatest(handle);
  await handle.close();
  phase('migrations');
  const built = path.join(tmpDir, 'zapdesk.sqlite');
  const db = new SQLite(built);
  // A build that fails is thrown away: no journal, no syncs; the page cache holds the index builds' work.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('locking_mode = EXCLUSIVE');
  db.pragma('cache_size = -524288');
  db.pragma('temp_store = FILE');
  db.exec('begin');
  const deferred = deferIndexes(db);
  await fillSeed(sqliteWriter(db), log, seedShape(scale));
  phase('rows');
  restoreIndexes(db, deferred, log, times);
  db.exec('commit');
  phase('indexes');
  // A clean single file in rollback-journal mode for the benchmark to copy (no statistics: the product gathers none).
  db.pragma('journal_mode = DELETE');
  db.close();
  fs.renameSync(built, file);
  fs.rmSync(tmpDir, { recursive: true, force: true });
  return times;
}
