import { sql, type Kysely } from 'kysely';

/**
 * The list line of a ticket shows what people wrote, not the product's automatic messages (the
 * greeting, the queue menu, the chatbot, the farewell, notices): `tickets.previewMessage` holds
 * the line of the last message written by a person (the customer, a group's members, an agent in
 * the inbox or on the phone), written with the message like `lastMessage`, so lists read it from
 * the ticket row and never search messages. Existing tickets take their last such text message; a
 * ticket with none keeps '' and its line falls back to `lastMessage` (see tickets.repository.ts).
 */
export function ticketPreviewMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('tickets')
        .addColumn('previewMessage', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await sql`update tickets set "previewMessage" = coalesce((
          select m.body from messages m
          where m."ticketId" = tickets.id and m."automatic" = 0 and m."isDeleted" = 0 and m."mediaType" is null and m.body <> ''
          order by m."createdAt" desc, m.id desc limit 1), '')`.execute(db);
    },
  };
}
