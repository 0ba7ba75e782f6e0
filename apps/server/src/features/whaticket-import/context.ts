/** What every step of a run shares. */
import type { Db, DbKind } from '../../core/db/database.js';
import type { Progress } from './progress.js';
import type { Report, TableName } from './report.js';
import { pages, type Source, type SourceRow } from './source.js';
import type { Batcher } from './target.js';

export type ImportCtx = {
  /** Reads outside a batch (in a PostgreSQL dry run: the run's transaction). */
  db: Db;
  kind: DbKind;
  /** One transaction per batch: rows and their map rows commit together. */
  batch: Batcher;
  source: Source;
  /** The source's label: the import map's key. */
  key: string;
  report: Report;
  progress: Progress;
  dryRun: boolean;
  /** whaticket's public folder; undefined: media is not carried. */
  mediaFrom: string | undefined;
  /** The product's media store. */
  mediaDir: string;
  batchSize: number;
  /** The zone of a MySQL source's DATETIMEs. */
  offset: string;
  /** Messages: read only those updated since (a rerun after a complete run); the latest updatedAt read, for the next run. */
  messagesSince: Date | undefined;
  messagesWatermark: string | undefined;
};

/** Every page of a source table, with its progress bar; a table the source lacks is reported and passed over. */
export async function eachPage(ctx: ImportCtx, table: TableName, key: string, work: (rows: SourceRow[]) => Promise<void>, since?: Date): Promise<void> {
  if (!(await ctx.source.hasTable(table))) {
    ctx.report.warn(`The source has no ${table} table: nothing imported from it.`);
    return;
  }
  ctx.progress.start(table, await ctx.source.count(table, since));
  for await (const rows of pages(ctx.source, table, ctx.batchSize, key, since)) {
    ctx.report.add(table, 'read', rows.length);
    await work(rows);
    ctx.progress.advance(rows.length);
  }
  ctx.progress.finish();
}

/** A small table read whole, with its progress line. */
export async function wholeTable(ctx: ImportCtx, table: TableName, work: (rows: SourceRow[]) => Promise<void>): Promise<void> {
  if (!(await ctx.source.hasTable(table))) {
    ctx.report.warn(`The source has no ${table} table: nothing imported from it.`);
    return;
  }
  const rows = await ctx.source.all(table);
  ctx.progress.start(table, rows.length);
  ctx.report.add(table, 'read', rows.length);
  await work(rows);
  ctx.progress.advance(rows.length);
  ctx.progress.finish();
}
