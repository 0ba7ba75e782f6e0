import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * The two moments of the dashboard's first-response figure, kept on the ticket when its messages
 * are stored, so the dashboard reads one range of tickets instead of two look-ups in `messages`
 * per ticket (at 1,000,000 tickets a busy day held 170,000 of them: seconds per dashboard):
 * - `askedAt`: the contact's first message on the ticket (its earliest `fromMe = 0`);
 * - `answeredAt` / `answeredBy`: the inbox's first answer at or after it, earliest by (createdAt,
 *   id), a message of the inbox that is no product message (bot, greeting, menu, notice:
 *   `fromBot`, `automatic`) and no team note; `answeredBy` is its sender, null for one typed on
 *   the phone or stored before senders were kept (migration 020).
 * Two insert triggers on `messages` keep them, whatever stores the message (the pipeline, the
 * outbound queue, history and whaticket imports): a contact's message earlier than the kept one
 * (an import of older history) moves `askedAt` back and looks the first answer up again; an
 * answer earlier than the kept one (and not before `askedAt`) replaces it. Messages never change
 * ticket, sender side or time after they are stored, and are only deleted with their ticket.
 * Existing tickets take both from their messages.
 */
const ANSWER_NEW = sql.raw('new."fromMe" = 1 and new."fromBot" = 0 and new."isNote" = 0 and new."automatic" = 0');

function firstAnswer(ticketId: string, since: string) {
  return sql`(select m."createdAt", m."userId" from messages m
      where m."ticketId" = ${sql.raw(ticketId)} and m."fromMe" = 1 and m."fromBot" = 0 and m."isNote" = 0 and m."automatic" = 0
        and m."createdAt" >= ${sql.raw(since)}
      order by m."createdAt", m.id limit 1)`;
}

export function ticketFirstAnswerMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  const asked = sql`update tickets set "askedAt" = new."createdAt", ("answeredAt", "answeredBy") = ${firstAnswer('new."ticketId"', 'new."createdAt"')}
      where id = new."ticketId" and ("askedAt" is null or "askedAt" > new."createdAt")`;
  const answered = sql`update tickets set "answeredAt" = new."createdAt", "answeredBy" = new."userId"
      where id = new."ticketId" and "askedAt" <= new."createdAt" and ("answeredAt" is null or "answeredAt" > new."createdAt")`;
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('tickets').addColumn('askedAt', ts).execute();
      await db.schema.alterTable('tickets').addColumn('answeredAt', ts).execute();
      await db.schema.alterTable('tickets').addColumn('answeredBy', 'integer').execute();
      await sql`update tickets set "askedAt" = (select min(m."createdAt") from messages m where m."ticketId" = tickets.id and m."fromMe" = 0)`.execute(db);
      await sql`update tickets set ("answeredAt", "answeredBy") = ${firstAnswer('tickets.id', 'tickets."askedAt"')} where "askedAt" is not null`.execute(db);
      if (kind === 'postgres') {
        await sql`create function ticket_asked() returns trigger language plpgsql as $$ begin ${asked}; return null; end $$`.execute(db);
        await sql`create function ticket_answered() returns trigger language plpgsql as $$ begin ${answered}; return null; end $$`.execute(db);
        await sql`create trigger messages_ticket_asked after insert on messages for each row when (new."fromMe" = 0) execute function ticket_asked()`.execute(db);
        await sql`create trigger messages_ticket_answered after insert on messages for each row when (${ANSWER_NEW}) execute function ticket_answered()`.execute(db);
      } else {
        await sql`create trigger messages_ticket_asked after insert on messages when new."fromMe" = 0 begin ${asked}; end`.execute(db);
        await sql`create trigger messages_ticket_answered after insert on messages when ${ANSWER_NEW} begin ${answered}; end`.execute(db);
      }
      // The dashboard's range: the tickets created in a period that the contact wrote to, read
      // from the index alone.
      await db.schema
        .createIndex('tickets_first_answer')
        .on('tickets')
        .columns(['createdAt', 'askedAt', 'answeredAt', 'answeredBy', 'queueId', 'userId'])
        .where(sql.ref('askedAt'), 'is not', null)
        .execute();
    },
  };
}
