import type { Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * Labels that admins define (name, colour) and agents put on tickets and contacts. A link row is
 * removed with its label, its ticket or its contact. The `(labelId, ticketId)` index serves the
 * list filters' EXISTS and the reports' joins; the primary key serves "the labels of this ticket".
 * A name is unique whatever its case or accents: the service checks the folded name; the exact
 * unique index decides a race between two identical names.
 */
export function labelsMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let table = db.schema.createTable('labels');
      table = kind === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
      await table
        .addColumn('name', 'varchar(50)', (c) => c.notNull())
        .addColumn('color', 'varchar(9)', (c) => c.notNull())
        .addColumn('createdAt', ts, (c) => c.notNull())
        .addColumn('updatedAt', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('labels_name_unique').on('labels').column('name').unique().execute();

      await db.schema
        .createTable('ticketLabels')
        .addColumn('ticketId', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
        .addColumn('labelId', 'integer', (c) => c.notNull().references('labels.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('ticketLabels_pk', ['ticketId', 'labelId'])
        .execute();
      await db.schema.createIndex('ticketLabels_labelId_ticketId').on('ticketLabels').columns(['labelId', 'ticketId']).execute();

      await db.schema
        .createTable('contactLabels')
        .addColumn('contactId', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
        .addColumn('labelId', 'integer', (c) => c.notNull().references('labels.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('contactLabels_pk', ['contactId', 'labelId'])
        .execute();
      await db.schema.createIndex('contactLabels_labelId_contactId').on('contactLabels').columns(['labelId', 'contactId']).execute();
    },
  };
}
