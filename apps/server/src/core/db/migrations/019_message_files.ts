import type { Kysely } from 'kysely';

/**
 * A file message keeps the file's own name and its size in bytes, so that a document shows as
 * 'contrato.pdf, 1.2 MB' without reading the file. Messages stored before stay without them.
 */
export function messageFilesMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('messages').addColumn('mediaName', 'text').execute();
      await db.schema.alterTable('messages').addColumn('mediaSize', 'bigint').execute();
    },
  };
}
