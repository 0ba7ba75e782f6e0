import { sql, type Kysely } from 'kysely';

/**
 * The list line of a ticket shows the customer: `tickets.customerMessage` holds the line of the
 * customer's last message (a group's members' in a group), written with the message like
 * `lastMessage`, so lists read it from the ticket row and never search messages. Existing
 * tickets take their customer's last text message; a ticket whose customer sent only media, or
 * nothing, keeps '' and its line falls back to `lastMessage` (see tickets.repository.ts).
 */
export function ticketPreviewMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('tickets')
        .addColumn('customerMessage', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await sql`update tickets set "customerMessage" = coalesce((
          select m.body from messages m
          where m."ticketId" = tickets.id and m."fromMe" = 0 and m."isDeleted" = 0 and m."mediaType" is null and m.body <> ''
          order by m."createdAt" desc, m.id desc limit 1), '')`.execute(db);
    },
  };
}
