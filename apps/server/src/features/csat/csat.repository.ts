/** The only SQL of customer satisfaction: the `ticketRatings` rows and the connection's question settings. */
import type { Db } from '../../core/db/database.js';

export type RatingRow = {
  id: number;
  ticketId: number;
  whatsappId: number;
  contactId: number;
  userId: number | null;
  queueId: number | null;
  askedAt: string;
  score: number | null;
  answeredAt: string | null;
  comment: string | null;
  commentAt: string | null;
  expiredAt: string | null;
};

const ratingColumns = ['id', 'ticketId', 'whatsappId', 'contactId', 'userId', 'queueId', 'askedAt', 'score', 'answeredAt', 'comment', 'commentAt', 'expiredAt'] as const;

export type NewRating = { ticketId: number; whatsappId: number; contactId: number; userId: number | null; queueId: number | null; askedAt: string };

/** Records a question asked; the same contact's earlier questions on this connection no longer take an answer. */
export async function insertRating(db: Db, row: NewRating): Promise<number> {
  await db
    .updateTable('ticketRatings')
    .set({ expiredAt: row.askedAt })
    .where('contactId', '=', row.contactId)
    .where('whatsappId', '=', row.whatsappId)
    .where('score', 'is', null)
    .where('expiredAt', 'is', null)
    .execute();
  const inserted = await db.insertInto('ticketRatings').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

/** The contact's latest question on this connection, whatever its state (the caller decides what it still takes). */
export async function findLatestRating(db: Db, contactId: number, whatsappId: number): Promise<RatingRow | undefined> {
  return db
    .selectFrom('ticketRatings')
    .select(ratingColumns)
    .where('contactId', '=', contactId)
    .where('whatsappId', '=', whatsappId)
    .orderBy('askedAt', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function findRatingById(db: Db, id: number): Promise<RatingRow | undefined> {
  return db.selectFrom('ticketRatings').select(ratingColumns).where('id', '=', id).executeTakeFirst();
}

/** Stores the score once: answers true when this call stored it (a redelivered message does not store it twice). */
export async function answerRating(db: Db, id: number, answer: { score: number; at: string; comment: string | null }): Promise<boolean> {
  const result = await db
    .updateTable('ticketRatings')
    .set({ score: answer.score, answeredAt: answer.at, comment: answer.comment, commentAt: answer.comment === null ? null : answer.at })
    .where('id', '=', id)
    .where('score', 'is', null)
    .where('expiredAt', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Stores the comment that followed the score, once. */
export async function commentRating(db: Db, id: number, comment: { text: string; at: string }): Promise<boolean> {
  const result = await db
    .updateTable('ticketRatings')
    .set({ comment: comment.text, commentAt: comment.at })
    .where('id', '=', id)
    .where('score', 'is not', null)
    .where('comment', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function expireRating(db: Db, id: number, at: string): Promise<void> {
  await db.updateTable('ticketRatings').set({ expiredAt: at }).where('id', '=', id).where('score', 'is', null).where('expiredAt', 'is', null).execute();
}

/** A ticket's questions, oldest first. */
export async function listTicketRatings(db: Db, ticketId: number): Promise<RatingRow[]> {
  return db.selectFrom('ticketRatings').select(ratingColumns).where('ticketId', '=', ticketId).orderBy('askedAt').orderBy('id').execute();
}

export type CsatSettingsRow = { csatEnabled: number; csatQuestion: string; csatLanguage: string };

export async function findCsatSettings(db: Db, whatsappId: number): Promise<CsatSettingsRow | undefined> {
  return db.selectFrom('whatsapps').select(['csatEnabled', 'csatQuestion', 'csatLanguage']).where('id', '=', whatsappId).executeTakeFirst();
}

export async function updateCsatSettings(db: Db, whatsappId: number, settings: CsatSettingsRow & { updatedAt: string }): Promise<void> {
  await db.updateTable('whatsapps').set(settings).where('id', '=', whatsappId).execute();
}

export async function deleteRating(db: Db, id: number): Promise<void> {
  await db.deleteFrom('ticketRatings').where('id', '=', id).execute();
}
