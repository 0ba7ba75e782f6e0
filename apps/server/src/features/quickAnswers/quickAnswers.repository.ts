import { foldText } from '@zapdesk/shared/domain';
import type { TQuickAnswer } from '@zapdesk/shared/schemas';
import type { Db } from '../../core/db/database.js';
import { containsLike, pageWindow } from '../../core/db/sql-helpers.js';
import { sql } from 'kysely';

const columns = ['id', 'shortcut', 'message', 'createdAt', 'updatedAt'] as const;

export async function listQuickAnswers(db: Db, options: { searchParam: string; pageNumber: number }) {
  const term = foldText(options.searchParam);
  const base = term ? db.selectFrom('quickAnswers').where(containsLike(sql.ref('searchText'), term)) : db.selectFrom('quickAnswers');
  const { limit, offset } = pageWindow(options.pageNumber);
  const [countRow, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    base.select(columns).orderBy('shortcut').orderBy('id').limit(limit).offset(offset).execute(),
  ]);
  const count = Number(countRow.n);
  return { quickAnswers: rows, count, hasMore: count > offset + rows.length };
}

export function findQuickAnswerById(db: Db, id: number): Promise<TQuickAnswer | undefined> {
  return db.selectFrom('quickAnswers').select(columns).where('id', '=', id).executeTakeFirst();
}

export type QuickAnswerWrite = { shortcut: string; message: string };

function searchText(data: QuickAnswerWrite): string {
  return foldText(`${data.shortcut} ${data.message}`);
}

export function insertQuickAnswer(db: Db, data: QuickAnswerWrite, now: string): Promise<TQuickAnswer> {
  return db
    .insertInto('quickAnswers')
    .values({ ...data, searchText: searchText(data), createdAt: now, updatedAt: now })
    .returning(columns)
    .executeTakeFirstOrThrow();
}

export function updateQuickAnswer(db: Db, id: number, data: QuickAnswerWrite, now: string): Promise<TQuickAnswer | undefined> {
  return db
    .updateTable('quickAnswers')
    .set({ ...data, searchText: searchText(data), updatedAt: now })
    .where('id', '=', id)
    .returning(columns)
    .executeTakeFirst();
}

export async function deleteQuickAnswer(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('quickAnswers').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
