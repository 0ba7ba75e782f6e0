/**
 * The SQL of labels: the admin's list, and the links of labels to tickets and contacts. Other
 * features read the links through the functions here (the ticket list's filter, the payloads,
 * the exports, a campaign's recipients, the reports).
 */
import { foldText } from '@zapdesk/shared/domain';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../core/db/database.js';

export type LabelRow = { id: number; name: string; color: string; createdAt: string; updatedAt: string };
export type LabelRef = { id: number; name: string; color: string };
export type LabelWrite = { name: string; color: string };

const columns = ['id', 'name', 'color', 'createdAt', 'updatedAt'] as const;

export function listLabels(db: Db): Promise<LabelRow[]> {
  return db.selectFrom('labels').select(columns).orderBy('name').orderBy('id').execute();
}

export function findLabelById(db: Db, id: number): Promise<LabelRow | undefined> {
  return db.selectFrom('labels').select(columns).where('id', '=', id).executeTakeFirst();
}

/** The ids among `ids` that name no label. */
export async function missingLabelIds(db: Db, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const found = await db
    .selectFrom('labels')
    .select('id')
    .where('id', 'in', [...ids])
    .execute();
  const existing = new Set(found.map((r) => r.id));
  return ids.filter((id) => !existing.has(id));
}

/** Whether another label already has this name, whatever its case or accents ('Vip' = 'VIP' = 'Víp'). Labels are few: read whole. */
export async function nameTaken(db: Db, name: string, exceptId?: number): Promise<boolean> {
  const wanted = foldText(name.trim());
  const rows = await db.selectFrom('labels').select(['id', 'name']).execute();
  return rows.some((row) => row.id !== exceptId && foldText(row.name.trim()) === wanted);
}

export function insertLabel(db: Db, data: LabelWrite, now: string): Promise<LabelRow> {
  return db
    .insertInto('labels')
    .values({ ...data, createdAt: now, updatedAt: now })
    .returning(columns)
    .executeTakeFirstOrThrow();
}

export function updateLabel(db: Db, id: number, data: LabelWrite, now: string): Promise<LabelRow | undefined> {
  return db
    .updateTable('labels')
    .set({ ...data, updatedAt: now })
    .where('id', '=', id)
    .returning(columns)
    .executeTakeFirst();
}

/** Deletes the label; its links go with it (foreign keys cascade). */
export async function deleteLabel(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('labels').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

// ---------- links ----------

/** Puts a label on a ticket; true when it was not there yet. */
export async function addTicketLabel(db: Db, ticketId: number, labelId: number): Promise<boolean> {
  const result = await db
    .insertInto('ticketLabels')
    .values({ ticketId, labelId })
    .onConflict((oc) => oc.columns(['ticketId', 'labelId']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Takes a label off a ticket; true when it was there. */
export async function removeTicketLabel(db: Db, ticketId: number, labelId: number): Promise<boolean> {
  const result = await db.deleteFrom('ticketLabels').where('ticketId', '=', ticketId).where('labelId', '=', labelId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Puts a label on a contact; true when it was not there yet. */
export async function addContactLabel(db: Db, contactId: number, labelId: number): Promise<boolean> {
  const result = await db
    .insertInto('contactLabels')
    .values({ contactId, labelId })
    .onConflict((oc) => oc.columns(['contactId', 'labelId']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Takes a label off a contact; true when it was there. */
export async function removeContactLabel(db: Db, contactId: number, labelId: number): Promise<boolean> {
  const result = await db.deleteFrom('contactLabels').where('contactId', '=', contactId).where('labelId', '=', labelId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The ids of the tickets that carry a label (the live update after a label's rename or deletion). */
export async function ticketIdsWithLabel(db: Db, labelId: number): Promise<number[]> {
  const rows = await db.selectFrom('ticketLabels').select('ticketId').where('labelId', '=', labelId).execute();
  return rows.map((r) => r.ticketId);
}

/**
 * The numbers of the contacts that carry a label (a campaign's recipients), groups left out;
 * `visible`: only those a condition on `contacts.id` admits.
 */
export async function numbersWithLabel(db: Db, labelId: number, visible?: RawBuilder<SqlBool>): Promise<string[]> {
  let query = db
    .selectFrom('contacts')
    .select('contacts.number')
    .where(contactHasAnyLabel('contacts.id', [labelId]))
    .where('contacts.isGroup', '=', 0);
  if (visible) query = query.where(visible);
  const rows = await query.orderBy('contacts.name').orderBy('contacts.id').execute();
  return rows.map((r) => r.number);
}

// ---------- filters (EXISTS on the link tables' (labelId, ownerId) index) ----------

/**
 * A condition "the ticket carries at least one of `labelIds`", for any query that has the ticket's
 * id under `ticketIdRef` (e.g. 'tickets.id' or 't.id'). `labelIds` must not be empty.
 */
export function ticketHasAnyLabel(ticketIdRef: string, labelIds: readonly number[]): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from ${sql.table('ticketLabels')} as tlf where tlf.${sql.ref('labelId')} in (${sql.join([...labelIds])}) and tlf.${sql.ref('ticketId')} = ${sql.ref(ticketIdRef)})`;
}

/** A condition "the contact carries at least one of `labelIds`" (see `ticketHasAnyLabel`). */
export function contactHasAnyLabel(contactIdRef: string, labelIds: readonly number[]): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from ${sql.table('contactLabels')} as clf where clf.${sql.ref('labelId')} in (${sql.join([...labelIds])}) and clf.${sql.ref('contactId')} = ${sql.ref(contactIdRef)})`;
}
