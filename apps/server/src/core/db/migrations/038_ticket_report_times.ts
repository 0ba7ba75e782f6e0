import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * The moments the Reports page measures, kept on the ticket when they happen so a report over
 * 100,000 tickets never searches their messages: `firstResponseAt`, an agent's first message
 * written in the inbox (not the product's automatic ones, not one typed on the phone, not a
 * private note), and `closedAt`, the ticket's last close (cleared when it is reopened).
 * Existing tickets take them from their messages, and a closed ticket's last change as its close.
 */
export function ticketReportTimesMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('tickets').addColumn('firstResponseAt', ts).execute();
      await db.schema.alterTable('tickets').addColumn('closedAt', ts).execute();
      await sql`update tickets set "firstResponseAt" = (
          select min(m."createdAt") from messages m
          where m."ticketId" = tickets.id and m."fromMe" = 1 and m."automatic" = 0 and m."userId" is not null and m."isNote" = 0 and m."createdAt" >= tickets."createdAt")`.execute(db);
      await sql`update tickets set "closedAt" = "updatedAt" where status = 'closed'`.execute(db);
      // Covering: a report's range and its durations are read from the index alone.
      await db.schema.createIndex('tickets_createdAt_firstResponseAt').on('tickets').columns(['createdAt', 'firstResponseAt']).execute();
      await db.schema.createIndex('tickets_closedAt_createdAt').on('tickets').columns(['closedAt', 'createdAt']).where(sql.ref('closedAt'), 'is not', null).execute();
    },
  };
}
