import { foldText } from '@zapdesk/shared/domain';
import type { TContact } from '@zapdesk/shared/schemas';
import type { RawBuilder, SqlBool } from 'kysely';
import type { Db, DbKind } from '../../core/db/database.js';
import { memoUntilWrite } from '../../core/db/read-cache.js';
import { bool, pageWindow } from '../../core/db/sql-helpers.js';
import { contactHasAnyLabel } from '../labels/labels.repository.js';
import { readDetails } from './contact-details.repository.js';
import { contactMatches } from './contact-text-match.js';

const columns = ['id', 'name', 'number', 'email', 'profilePicUrl', 'isGroup', 'createdAt', 'updatedAt'] as const;

export type ContactWrite = { name: string; number: string; email: string };
export type ExtraInfoWrite = { name: string; value: string };

export function contactSearchText(data: ContactWrite): string {
  return foldText(`${data.name} ${data.number} ${data.email}`);
}

/** The contact rows with their extra info and labels (one more statement, whatever the number). */
async function withExtraInfo(
  db: Db,
  rows: { id: number; name: string; number: string; email: string; profilePicUrl: string; isGroup: number; createdAt: string; updatedAt: string }[],
): Promise<TContact[]> {
  if (rows.length === 0) return [];
  const details = await readDetails(db, { contactIds: rows.map((r) => r.id) });
  return rows.map((r) => ({ ...r, isGroup: bool(r.isGroup), extraInfo: details.extraInfo.get(r.id) ?? [], labels: details.contactLabels.get(r.id) ?? [] }));
}

/**
 * A page of contacts, optionally narrowed to those `visible` (a condition on `contacts.id`)
 * names; `viewer` keys the memoised count of that narrowed list.
 */
export async function listContacts(
  db: Db,
  kind: DbKind,
  options: { searchParam: string; pageNumber: number; labelIds?: number[] | undefined; visible?: { condition: RawBuilder<SqlBool>; viewer: number } | undefined },
) {
  const term = foldText(options.searchParam);
  let base = term ? db.selectFrom('contacts').where(contactMatches(kind, term)) : db.selectFrom('contacts');
  if (options.visible) base = base.where(options.visible.condition);
  const labels = options.labelIds?.length ? options.labelIds : undefined;
  if (labels) base = base.where(contactHasAnyLabel('contacts.id', labels));
  const { limit, offset } = pageWindow(options.pageNumber);
  // Counting a search over every contact is read again only after a write (see memoUntilWrite).
  const [count, rows] = await Promise.all([
    memoUntilWrite(db, `contacts.count:${options.visible ? `u${options.visible.viewer}` : 'all'}:${labels?.join(',') ?? ''}:${term}`, async () =>
      Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
    ),
    base.select(columns).orderBy('name').orderBy('id').limit(limit).offset(offset).execute(),
  ]);
  return { contacts: await withExtraInfo(db, rows), count, hasMore: count > offset + rows.length };
}

/** Contacts by id, with their extra info and labels, in two statements whatever the number. */
export async function findContactsByIds(db: Db, ids: number[]): Promise<Map<number, TContact>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('contacts').select(columns).where('id', 'in', ids).execute();
  return new Map((await withExtraInfo(db, rows)).map((c) => [c.id, c]));
}

export async function findContactById(db: Db, id: number): Promise<TContact | undefined> {
  const row = await db.selectFrom('contacts').select(columns).where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const [contact] = await withExtraInfo(db, [row]);
  return contact;
}

export async function findContactIdByNumber(db: Db, number: string): Promise<number | undefined> {
  const row = await db.selectFrom('contacts').select('id').where('number', '=', number).executeTakeFirst();
  return row?.id;
}

export async function existingNumbers(db: Db, numbers: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < numbers.length; i += 500) {
    const rows = await db
      .selectFrom('contacts')
      .select('number')
      .where('number', 'in', numbers.slice(i, i + 500))
      .execute();
    for (const r of rows) found.add(r.number);
  }
  return found;
}

export async function insertContact(db: Db, data: ContactWrite, now: string): Promise<number> {
  const row = await db
    .insertInto('contacts')
    .values({ ...data, profilePicUrl: '', isGroup: 0, searchText: contactSearchText(data), createdAt: now, updatedAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateContact(db: Db, id: number, data: ContactWrite, now: string): Promise<boolean> {
  const result = await db
    .updateTable('contacts')
    .set({ ...data, searchText: contactSearchText(data), updatedAt: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Gives a contact the name WhatsApp knows them by, only while it is still named by its number:
 * a name someone typed (an agent, an import) is never overwritten by the network's.
 */
export async function nameUnnamedContact(db: Db, id: number, name: string, now: string): Promise<boolean> {
  const current = await db.selectFrom('contacts').select(['name', 'number', 'email']).where('id', '=', id).executeTakeFirst();
  if (!current || current.name !== current.number) return false;
  const result = await db
    .updateTable('contacts')
    .set({ name, searchText: contactSearchText({ name, number: current.number, email: current.email }), updatedAt: now })
    .where('id', '=', id)
    .whereRef('name', '=', 'number')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Stores a contact's profile picture address ('' when removed); true when it changed. */
export async function setProfilePicture(db: Db, id: number, url: string, now: string): Promise<boolean> {
  const result = await db.updateTable('contacts').set({ profilePicUrl: url, updatedAt: now }).where('id', '=', id).where('profilePicUrl', '!=', url).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function replaceExtraInfo(db: Db, contactId: number, extraInfo: ExtraInfoWrite[]): Promise<void> {
  await db.deleteFrom('contactExtraInfo').where('contactId', '=', contactId).execute();
  if (extraInfo.length > 0) {
    await db
      .insertInto('contactExtraInfo')
      .values(extraInfo.map((e) => ({ contactId, name: e.name, value: e.value })))
      .execute();
  }
}

export async function deleteContact(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('contacts').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whether the contact meets the `visible` condition (see listContacts). */
export async function contactMeets(db: Db, id: number, visible: RawBuilder<SqlBool>): Promise<boolean> {
  return (await db.selectFrom('contacts').select('id').where('id', '=', id).where(visible).executeTakeFirst()) !== undefined;
}

/** Whether any ticket, of any status, is a conversation with this contact. */
export async function contactHasTickets(db: Db, id: number): Promise<boolean> {
  return (await db.selectFrom('tickets').select('id').where('contactId', '=', id).limit(1).executeTakeFirst()) !== undefined;
}

/** Streams every contact (or those `visible`) in pages, for the CSV export. */
export async function* allContacts(db: Db, visible?: RawBuilder<SqlBool>, batch = 1000): AsyncGenerator<{ id: number; name: string; number: string; email: string }[]> {
  let lastId = 0;
  for (;;) {
    let query = db.selectFrom('contacts').select(['id', 'name', 'number', 'email']).where('id', '>', lastId).where('isGroup', '=', 0);
    if (visible) query = query.where(visible);
    const rows = await query.orderBy('id').limit(batch).execute();
    if (rows.length === 0) return;
    lastId = rows[rows.length - 1]?.id ?? lastId;
    yield rows;
  }
}

export async function findContactByNumber(db: Db, number: string): Promise<{ id: number; name: string } | undefined> {
  return db.selectFrom('contacts').select(['id', 'name']).where('number', '=', number).executeTakeFirst();
}

/** The first of these numbers that is a contact, in the order given. */
export async function findContactByAnyNumber(db: Db, numbers: string[]): Promise<{ id: number; name: string } | undefined> {
  if (numbers.length === 0) return undefined;
  const rows = await db.selectFrom('contacts').select(['id', 'name', 'number']).where('number', 'in', numbers).execute();
  for (const number of numbers) {
    const row = rows.find((r) => r.number === number);
    if (row) return { id: row.id, name: row.name };
  }
  return undefined;
}

/** The person (not a group) stored under one of these numbers (the forms of one number), in the order given. */
export async function findPersonByAnyNumber(db: Db, numbers: string[]): Promise<{ id: number; number: string } | undefined> {
  if (numbers.length === 0) return undefined;
  const rows = await db.selectFrom('contacts').select(['id', 'number']).where('number', 'in', numbers).where('isGroup', '=', 0).execute();
  for (const number of numbers) {
    const row = rows.find((r) => r.number === number);
    if (row) return row;
  }
  return undefined;
}

/** People among these contacts (groups left out), with their numbers; only those `visible` when given. */
export async function contactNumbers(db: Db, ids: number[], visible?: RawBuilder<SqlBool>): Promise<{ id: number; name: string; number: string }[]> {
  if (ids.length === 0) return [];
  let query = db
    .selectFrom('contacts')
    .select(['id', 'name', 'number'])
    .where('id', 'in', [...new Set(ids)])
    .where('isGroup', '=', 0);
  if (visible) query = query.where(visible);
  return query.orderBy('id').execute();
}

/** The contact that stands for a group (its number is the group id), when someone wrote in it. */
export async function findGroupContact(db: Db, groupId: string): Promise<{ id: number; name: string } | undefined> {
  return db.selectFrom('contacts').select(['id', 'name']).where('number', '=', groupId).where('isGroup', '=', 1).executeTakeFirst();
}

/** A contact first seen in a chat; undefined when another writer stored the number first. */
export async function insertChatContactIfAbsent(db: Db, data: { name: string; number: string; isGroup: boolean }, now: string): Promise<number | undefined> {
  const inserted = await db
    .insertInto('contacts')
    .values({ name: data.name, number: data.number, email: '', profilePicUrl: '', isGroup: data.isGroup ? 1 : 0, searchText: foldText(`${data.name} ${data.number}`), createdAt: now, updatedAt: now })
    .onConflict((oc) => oc.column('number').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id;
}

/** Names of contacts by id, for the sender line of messages. */
export async function contactNamesByIds(db: Db, ids: number[]): Promise<Map<number, { id: number; name: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('contacts').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((c) => [c.id, c]));
}

/** Every person contact, briefly: the tool API's contact list. */
export async function listContactsBrief(db: Db): Promise<{ id: number; name: string; number: string }[]> {
  return db.selectFrom('contacts').select(['id', 'name', 'number']).where('isGroup', '=', 0).orderBy('id').execute();
}

/**
 * Deletes the contacts nobody talked with: no ticket, no message (as a group participant). Those
 * with a conversation stay. Returns their ids.
 */
export async function deleteContactsWithoutConversations(db: Db): Promise<number[]> {
  const rows = await db
    .deleteFrom('contacts')
    .where((eb) => eb.not(eb.exists(eb.selectFrom('tickets').select('tickets.id').whereRef('tickets.contactId', '=', 'contacts.id'))))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('messages').select('messages.id').whereRef('messages.contactId', '=', 'contacts.id'))))
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}
