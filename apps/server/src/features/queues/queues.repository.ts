import type { TQueue } from '@zapdesk/shared/schemas';
import type { Db } from '../../core/db/database.js';
import { connectionQueuesChanged } from '../whatsapps/whatsapps.repository.js';

const columns = ['id', 'name', 'color', 'greetingMessage', 'createdAt', 'updatedAt'] as const;

export function listQueues(db: Db): Promise<TQueue[]> {
  return db.selectFrom('queues').select(columns).orderBy('name').orderBy('id').execute();
}

export function findQueueById(db: Db, id: number): Promise<TQueue | undefined> {
  return db.selectFrom('queues').select(columns).where('id', '=', id).executeTakeFirst();
}

/** The ids among `ids` that name no queue. */
export async function missingQueueIds(db: Db, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const found = await db.selectFrom('queues').select('id').where('id', 'in', ids).execute();
  const existing = new Set(found.map((r) => r.id));
  return ids.filter((id) => !existing.has(id));
}

export async function colorTaken(db: Db, color: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('queues').select('id').where('color', '=', color);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** Case and accents of capitals folded the same way on both databases (SQLite's lower() knows only ASCII). */
function foldName(name: string): string {
  return name.trim().normalize('NFC').toLocaleLowerCase('pt-BR');
}

/** Whether another queue already has this name, whatever its case ('Vendas' and 'VENDAS' are one name). Queues are few: read whole. */
export async function nameTaken(db: Db, name: string, exceptId?: number): Promise<boolean> {
  const wanted = foldName(name);
  const rows = await db.selectFrom('queues').select(['id', 'name']).execute();
  return rows.some((row) => row.id !== exceptId && foldName(row.name) === wanted);
}

export type QueueWrite = { name: string; color: string; greetingMessage: string };

export async function insertQueue(db: Db, data: QueueWrite, now: string): Promise<TQueue> {
  return db
    .insertInto('queues')
    .values({ ...data, createdAt: now, updatedAt: now })
    .returning(columns)
    .executeTakeFirstOrThrow();
}

export async function updateQueue(db: Db, id: number, data: QueueWrite, now: string): Promise<TQueue | undefined> {
  const queue = await db
    .updateTable('queues')
    .set({ ...data, updatedAt: now })
    .where('id', '=', id)
    .returning(columns)
    .executeTakeFirst();
  connectionQueuesChanged();
  return queue;
}

export async function deleteQueue(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('queues').where('id', '=', id).executeTakeFirst();
  connectionQueuesChanged();
  return Number(result.numDeletedRows) > 0;
}

export async function findQueueIdByName(db: Db, name: string): Promise<number | undefined> {
  return (await db.selectFrom('queues').select('id').where('name', '=', name).executeTakeFirst())?.id;
}
