import type { Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * The whaticket importer's memory (features/whaticket-import). `importMap`: each source row
 * imported (or matched to a row the product already had), by source, table and source id, with
 * the target id; written in the same transaction as the row, so a rerun after an interruption
 * skips exactly what was committed. `importRuns`: one row per run with its report.
 * `importRuns.messagesWatermark`: the latest Messages.updatedAt a complete run read; the next
 * run reads only the messages updated since (less a margin). `importPendingQuotes`: a message quoting one not imported yet (the source is read by id, not
 * by date), resolved when the quoted one arrives.
 */
export function whaticketImportMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('importMap')
        .addColumn('source', 'varchar(200)', (c) => c.notNull())
        .addColumn('sourceTable', 'varchar(40)', (c) => c.notNull())
        .addColumn('sourceId', 'varchar(255)', (c) => c.notNull())
        .addColumn('targetId', 'integer', (c) => c.notNull())
        .addColumn('sourceUpdatedAt', ts)
        .addPrimaryKeyConstraint('importMap_pk', ['source', 'sourceTable', 'sourceId'])
        .execute();
      let runs = db.schema.createTable('importRuns');
      runs = kind === 'postgres' ? runs.addColumn('id', 'serial', (c) => c.primaryKey()) : runs.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
      await runs
        .addColumn('source', 'varchar(200)', (c) => c.notNull())
        .addColumn('startedAt', ts, (c) => c.notNull())
        .addColumn('finishedAt', ts)
        .addColumn('report', 'text')
        .addColumn('messagesWatermark', ts)
        .execute();
      await db.schema
        .createTable('importPendingQuotes')
        .addColumn('source', 'varchar(200)', (c) => c.notNull())
        .addColumn('messageId', 'integer', (c) => c.notNull().references('messages.id').onDelete('cascade'))
        .addColumn('quotedSourceId', 'varchar(255)', (c) => c.notNull())
        .addPrimaryKeyConstraint('importPendingQuotes_pk', ['source', 'messageId'])
        .execute();
      await db.schema.createIndex('importPendingQuotes_quoted').on('importPendingQuotes').columns(['source', 'quotedSourceId']).execute();
    },
  };
}
