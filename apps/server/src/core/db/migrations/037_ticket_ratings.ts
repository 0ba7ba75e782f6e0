import type { Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * Customer satisfaction. `ticketRatings` holds one row per question asked after a ticket was
 * resolved (a ticket resolved twice may be asked twice): the score (1–5) and its time stay null
 * until the customer answers, the comment that may follow has its own time; `expiredAt` is set
 * when the customer wrote something else instead (or too late), so a later digit is not taken for
 * an answer. The connection decides whether the question is asked (`whatsapps.csatEnabled`, off by
 * default), in which language (`csatLanguage`) and with which text (`csatQuestion`, '' = the
 * language's default text).
 */
export function ticketRatingsMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let table = db.schema.createTable('ticketRatings');
      table = kind === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
      await table
        .addColumn('ticketId', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
        .addColumn('whatsappId', 'integer', (c) => c.notNull().references('whatsapps.id').onDelete('cascade'))
        .addColumn('contactId', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
        .addColumn('userId', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('queueId', 'integer', (c) => c.references('queues.id').onDelete('set null'))
        .addColumn('askedAt', ts, (c) => c.notNull())
        .addColumn('score', 'integer')
        .addColumn('answeredAt', ts)
        .addColumn('comment', 'text')
        .addColumn('commentAt', ts)
        .addColumn('expiredAt', ts)
        .execute();
      await db.schema.createIndex('ticketRatings_ticketId').on('ticketRatings').column('ticketId').execute();
      await db.schema.createIndex('ticketRatings_answeredAt').on('ticketRatings').column('answeredAt').execute();
      await db.schema.createIndex('ticketRatings_askedAt').on('ticketRatings').column('askedAt').execute();
      // The inbound pipeline looks up the contact's latest question on each message.
      await db.schema.createIndex('ticketRatings_contact_whatsapp').on('ticketRatings').columns(['contactId', 'whatsappId', 'askedAt']).execute();
      await db.schema
        .alterTable('whatsapps')
        .addColumn('csatEnabled', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('whatsapps')
        .addColumn('csatQuestion', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('whatsapps')
        .addColumn('csatLanguage', 'varchar(2)', (c) => c.notNull().defaultTo('pt'))
        .execute();
    },
  };
}
