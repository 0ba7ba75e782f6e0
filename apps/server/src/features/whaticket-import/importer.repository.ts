/** The importer's writes to the product's tables (multi-row where the volume is: contacts, messages). */
import { foldText, type TicketStatus } from '@zapdesk/shared/domain';
import { sql } from 'kysely';
import type { Db, DbKind } from '../../core/db/database.js';
import type { MessageRow } from '../messages/messages.repository.js';

const CHUNK = 500;
function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export async function findQueueByName(db: Db, name: string): Promise<number | undefined> {
  return (await db.selectFrom('queues').select('id').where('name', '=', name).executeTakeFirst())?.id;
}

export async function usedQueueColors(db: Db): Promise<Set<string>> {
  return new Set((await db.selectFrom('queues').select('color').execute()).map((r) => r.color.toLowerCase()));
}

export async function insertQueue(db: Db, data: { name: string; color: string; greetingMessage: string; createdAt: string; updatedAt: string }): Promise<number> {
  return (await db.insertInto('queues').values(data).returning('id').executeTakeFirstOrThrow()).id;
}

export async function findWhatsappByName(db: Db, name: string): Promise<number | undefined> {
  return (await db.selectFrom('whatsapps').select('id').where('name', '=', name).executeTakeFirst())?.id;
}

export async function defaultWhatsappId(db: Db): Promise<number | undefined> {
  return (await db.selectFrom('whatsapps').select('id').where('isDefault', '=', 1).orderBy('id').executeTakeFirst())?.id;
}

export async function firstWhatsappId(db: Db): Promise<number | undefined> {
  return (await db.selectFrom('whatsapps').select('id').orderBy('id').executeTakeFirst())?.id;
}

export async function insertWhatsapp(db: Db, data: { name: string; isDefault: boolean; greetingMessage: string; farewellMessage: string; createdAt: string; updatedAt: string }): Promise<number> {
  const row = await db
    .insertInto('whatsapps')
    .values({ ...data, channel: 'whatsapp', status: 'DISCONNECTED', qrcode: '', retries: 0, isDefault: data.isDefault ? 1 : 0, leaseOwner: null, leaseUntil: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A link row; false when it was there already. */
export async function insertWhatsappQueue(db: Db, whatsappId: number, queueId: number): Promise<boolean> {
  const r = await db
    .insertInto('whatsappQueues')
    .values({ whatsappId, queueId })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function insertUserQueue(db: Db, userId: number, queueId: number): Promise<boolean> {
  const exists = await db.selectFrom('userQueues').select('userId').where('userId', '=', userId).where('queueId', '=', queueId).executeTakeFirst();
  if (exists) return false;
  await db.insertInto('userQueues').values({ userId, queueId }).execute();
  return true;
}

export async function findUserByEmail(db: Db, email: string): Promise<number | undefined> {
  return (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst())?.id;
}

export async function contactsByNumbers(db: Db, numbers: string[]): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const part of chunks([...new Set(numbers)])) {
    for (const r of await db.selectFrom('contacts').select(['id', 'number']).where('number', 'in', part).execute()) found.set(r.number, r.id);
  }
  return found;
}

export type ContactInsert = { name: string; number: string; email: string; profilePicUrl: string; isGroup: boolean; createdAt: string; updatedAt: string };

/** Inserts contacts (numbers known to be free); returns number → new id. */
export async function insertContacts(db: Db, rows: ContactInsert[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const part of chunks(rows, 200)) {
    const values = part.map((c) => ({ ...c, isGroup: c.isGroup ? 1 : 0, searchText: foldText(`${c.name} ${c.number} ${c.email}`) }));
    for (const r of await db.insertInto('contacts').values(values).returning(['id', 'number']).execute()) ids.set(r.number, r.id);
  }
  return ids;
}

export async function insertExtraInfo(db: Db, data: { contactId: number; name: string; value: string }): Promise<number> {
  return (await db.insertInto('contactExtraInfo').values(data).returning('id').executeTakeFirstOrThrow()).id;
}

export async function findActiveTicket(db: Db, contactId: number, whatsappId: number): Promise<{ id: number; updatedAt: string } | undefined> {
  // 'open or pending' spelled with literals, as the partial unique index spells it: with parameters
  // SQLite may scan every ticket of the connection instead (quadratic over an import).
  return db
    .selectFrom('tickets')
    .select(['id', 'updatedAt'])
    .where('contactId', '=', contactId)
    .where('whatsappId', '=', whatsappId)
    .where(sql<boolean>`${sql.ref('status')} in (${sql.lit('open')}, ${sql.lit('pending')})`)
    .executeTakeFirst();
}

/** Open tickets not touched since `cutoff`: those the product's auto-close closes at its next start. */
export async function countOpenTicketsIdleSince(db: Db, cutoff: string): Promise<number> {
  const row = await db
    .selectFrom('tickets')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', '=', 'open')
    .where('updatedAt', '<', cutoff)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function closeTicket(db: Db, id: number): Promise<void> {
  await db
    .updateTable('tickets')
    .set((eb) => ({ status: 'closed', closedAt: eb.ref('updatedAt') }))
    .where('id', '=', id)
    .execute();
}

export type TicketInsert = {
  status: TicketStatus;
  contactId: number;
  whatsappId: number;
  userId: number | null;
  queueId: number | null;
  lastMessage: string;
  unreadMessages: number;
  isGroup: boolean;
  createdAt: string;
  updatedAt: string;
};

export async function insertTicket(db: Db, data: TicketInsert): Promise<number> {
  return (
    await db
      .insertInto('tickets')
      .values({ ...data, isGroup: data.isGroup ? 1 : 0, closedAt: data.status === 'closed' ? data.updatedAt : null })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

export async function refreshTicket(db: Db, id: number, data: Pick<TicketInsert, 'status' | 'userId' | 'queueId' | 'lastMessage' | 'unreadMessages' | 'updatedAt'>): Promise<void> {
  // A whaticket ticket's close is its last change there (the reports' closedAt).
  await db
    .updateTable('tickets')
    .set({ ...data, closedAt: data.status === 'closed' ? data.updatedAt : null })
    .where('id', '=', id)
    .execute();
}

export async function findTicketRef(db: Db, id: number): Promise<{ contactId: number; whatsappId: number } | undefined> {
  return db.selectFrom('tickets').select(['contactId', 'whatsappId']).where('id', '=', id).executeTakeFirst();
}

export async function ticketConnections(db: Db, ids: number[]): Promise<Map<number, number>> {
  const found = new Map<number, number>();
  for (const part of chunks([...new Set(ids)])) {
    for (const r of await db.selectFrom('tickets').select(['id', 'whatsappId']).where('id', 'in', part).execute()) found.set(r.id, r.whatsappId);
  }
  return found;
}

/** A message as the importer writes it: the product's row, less what only the product sets. */
export type MessageInsert = Pick<
  MessageRow,
  | 'ticketId'
  | 'whatsappId'
  | 'providerId'
  | 'contactId'
  | 'body'
  | 'fromMe'
  | 'read'
  | 'ack'
  | 'mediaType'
  | 'mediaPath'
  | 'mediaName'
  | 'mediaSize'
  | 'quotedMsgId'
  | 'isDeleted'
  | 'createdAt'
  | 'updatedAt'
>;

/** Multi-row insert; a provider id the connection already has is left alone. Returns `whatsappId:providerId` → id of the new rows. */
export async function insertMessages(db: Db, rows: MessageInsert[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const part of chunks(rows, 250)) {
    const values = part.map((m) => ({
      ...m,
      fromMe: m.fromMe ? 1 : 0,
      read: m.read ? 1 : 0,
      isDeleted: m.isDeleted ? 1 : 0,
      searchText: foldText(m.body),
      sendStatus: 'sent',
    }));
    const inserted = await db
      .insertInto('messages')
      .values(values)
      .onConflict((oc) => oc.columns(['whatsappId', 'providerId']).doNothing())
      .returning(['id', 'whatsappId', 'providerId'])
      .execute();
    for (const r of inserted) ids.set(`${r.whatsappId}:${r.providerId}`, r.id);
  }
  return ids;
}

export async function setQuoted(db: Db, messageId: number, quotedMsgId: number): Promise<void> {
  await db.updateTable('messages').set({ quotedMsgId }).where('id', '=', messageId).execute();
}

/** Messages of a connection by WhatsApp id: the id here and when it last changed. */
export async function messagesByProviderIds(db: Db, whatsappId: number, providerIds: string[]): Promise<Map<string, { id: number; updatedAt: string }>> {
  const found = new Map<string, { id: number; updatedAt: string }>();
  for (const part of chunks([...new Set(providerIds)])) {
    const rows = await db.selectFrom('messages').select(['id', 'providerId', 'updatedAt']).where('whatsappId', '=', whatsappId).where('providerId', 'in', part).execute();
    for (const r of rows) found.set(r.providerId, { id: r.id, updatedAt: r.updatedAt });
  }
  return found;
}

export async function providerIdsOf(db: Db, ids: number[]): Promise<Map<number, string>> {
  const found = new Map<number, string>();
  for (const part of chunks([...new Set(ids)])) {
    for (const r of await db.selectFrom('messages').select(['id', 'providerId']).where('id', 'in', part).execute()) found.set(r.id, r.providerId);
  }
  return found;
}

export async function findMessageId(db: Db, whatsappId: number, providerId: string): Promise<number | undefined> {
  return (await db.selectFrom('messages').select('id').where('whatsappId', '=', whatsappId).where('providerId', '=', providerId).executeTakeFirst())?.id;
}

export async function refreshMessage(db: Db, id: number, data: { ack: number; read: boolean; isDeleted: boolean; body: string; updatedAt: string }): Promise<void> {
  await db
    .updateTable('messages')
    .set({ ack: data.ack, read: data.read ? 1 : 0, isDeleted: data.isDeleted ? 1 : 0, body: data.body, searchText: foldText(data.body), updatedAt: data.updatedAt })
    .where('id', '=', id)
    .execute();
}

export async function findQuickAnswer(db: Db, shortcut: string, message: string): Promise<number | undefined> {
  return (await db.selectFrom('quickAnswers').select('id').where('shortcut', '=', shortcut).where('message', '=', message).executeTakeFirst())?.id;
}

/**
 * PostgreSQL plans by its statistics; tables that grew from nothing during the import still look
 * empty to it, and a lookup by WhatsApp id then reads the whole connection's messages. Refreshed
 * between steps and every so many pages (ANALYZE samples; it is cheap). SQLite plans without.
 */
export async function refreshStatistics(db: Db, kind: DbKind, tables: readonly string[]): Promise<void> {
  if (kind !== 'postgres') return;
  for (const table of tables) await sql`analyze ${sql.table(table)}`.execute(db);
}
