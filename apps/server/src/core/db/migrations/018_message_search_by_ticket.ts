import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * SQLite: the full-text index of messages names each message's ticket, so that a search learns
 * which tickets hold a word from the index alone. A common word is in a fifth of the messages;
 * reading each of those rows to find its ticket cost four fifths of such a search. The index's
 * row id is the ticket id times 2^32 plus the message id (`(ticketId << 32) | id`, unique, and in
 * ticket order), for message ids below 2^32. It is contentless (the text is in messages) and
 * holds only messages that are not deleted: triggers keep it in step. It replaces the index of
 * migration 003. PostgreSQL keeps its GIN index.
 */
export function messageSearchByTicketMigration(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (kind !== 'sqlite') return;
      await sql`create virtual table message_words using fts5("searchText", content='', contentless_delete=1, tokenize='unicode61')`.execute(db);
      await sql`insert into message_words(rowid, "searchText") select ("ticketId" << 32) | id, "searchText" from messages where "isDeleted" = 0`.execute(db);
      await sql`create trigger message_words_insert after insert on messages when new."isDeleted" = 0 begin
        insert into message_words(rowid, "searchText") values ((new."ticketId" << 32) | new.id, new."searchText"); end`.execute(db);
      await sql`create trigger message_words_delete after delete on messages when old."isDeleted" = 0 begin
        delete from message_words where rowid = (old."ticketId" << 32) | old.id; end`.execute(db);
      await sql`create trigger message_words_update after update of "searchText", "isDeleted", "ticketId" on messages begin
        delete from message_words where rowid = (old."ticketId" << 32) | old.id;
        insert into message_words(rowid, "searchText") select (new."ticketId" << 32) | new.id, new."searchText" where new."isDeleted" = 0; end`.execute(db);
      for (const trigger of ['messages_fts_insert', 'messages_fts_delete', 'messages_fts_update']) await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
      await sql`drop table if exists messages_fts`.execute(db);
    },
  };
}
