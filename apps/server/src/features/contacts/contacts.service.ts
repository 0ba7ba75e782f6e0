import { isAdminProfile } from '@zapdesk/shared/domain';
import type { TContact, TContactImportResult, TListQuery } from '@zapdesk/shared/schemas';
import type { AppContext } from '../../core/context.js';
import { onUniqueViolation } from '../../core/db/database.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import { contactVisibleTo } from '../tickets/tickets-list.repository.js';
import { userQueueIds } from '../tickets/tickets.repository.js';
import type { AuthUser } from '../users/users.repository.js';
import { contactsCsvChunk } from './contacts.csv.js';
import * as repo from './contacts.repository.js';

export type ContactData = repo.ContactWrite & { extraInfo?: repo.ExtraInfoWrite[] | undefined };

/**
 * Which contacts a user may see and edit: admins all; others a contact without any ticket (the
 * team's address book, which they may also add to) or one with a ticket they may see.
 */
async function visibility(ctx: AppContext, actor: AuthUser) {
  // Who may see every ticket (admins, the allQueues permission) may see every contact.
  const admin = isAdminProfile(actor.profile) || actor.permissions.has('allQueues');
  return contactVisibleTo(ctx.db, { userId: actor.id, admin, allQueues: admin, showAll: false, queueIds: admin ? [] : await userQueueIds(ctx.db, actor.id) });
}

export async function listContacts(ctx: AppContext, actor: AuthUser, query: TListQuery) {
  const condition = await visibility(ctx, actor);
  return repo.listContacts(ctx.db, { ...query, visible: condition && { condition, viewer: actor.id } });
}

/** The contacts the user may see, as the CSV the contacts page downloads. */
export async function exportContactsCsv(ctx: AppContext, actor: AuthUser): Promise<string> {
  let csv = '';
  let first = true;
  for await (const rows of repo.allContacts(ctx.db, await visibility(ctx, actor))) {
    csv += contactsCsvChunk(rows, first);
    first = false;
  }
  return first ? contactsCsvChunk([], true) : csv;
}

export async function getContact(ctx: AppContext, id: number): Promise<TContact> {
  const contact = await repo.findContactById(ctx.db, id);
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  return contact;
}

/** Whether the user may see this contact (false for one that does not exist). */
async function maySeeContact(ctx: AppContext, actor: AuthUser, id: number): Promise<boolean> {
  const condition = await visibility(ctx, actor);
  return condition ? repo.contactMeets(ctx.db, id, condition) : (await repo.findContactById(ctx.db, id)) !== undefined;
}

/**
 * A contact the user may see. One they may not see answers exactly as one that does not exist
 * (ERR_NO_CONTACT_FOUND), and is asked about first: no later check (a number taken, an open
 * ticket, a connection) may tell them what lies beyond what they see.
 */
export async function getVisibleContact(ctx: AppContext, actor: AuthUser, id: number): Promise<TContact> {
  if (!(await maySeeContact(ctx, actor, id))) throw new AppError('ERR_NO_CONTACT_FOUND');
  return getContact(ctx, id);
}

/**
 * The people among these contacts, with their numbers, when the user may see every one; else
 * ERR_NO_CONTACT_FOUND, the same whether an id is unknown or beyond what they see.
 */
export async function visibleContactNumbers(ctx: AppContext, actor: AuthUser, ids: number[]): Promise<{ id: number; name: string; number: string }[]> {
  const found = await repo.contactNumbers(ctx.db, ids, await visibility(ctx, actor));
  if (found.length !== new Set(ids).size) throw new AppError('ERR_NO_CONTACT_FOUND', { fields: { contactIds: 'INVALID' } });
  return found;
}

function guardNumber<T>(work: () => Promise<T>): Promise<T> {
  return onUniqueViolation({ table: 'contacts', column: 'number' }, () => new AppError('ERR_DUPLICATED_CONTACT'), work);
}

export async function createContact(ctx: AppContext, input: ContactData): Promise<TContact> {
  if (await repo.findContactIdByNumber(ctx.db, input.number)) throw new AppError('ERR_DUPLICATED_CONTACT');
  const id = await guardNumber(() =>
    ctx.db.transaction().execute(async (trx) => {
      const newId = await repo.insertContact(trx, { name: input.name, number: input.number, email: input.email }, nowIso());
      await repo.replaceExtraInfo(trx, newId, input.extraInfo ?? []);
      return newId;
    }),
  );
  const contact = await getContact(ctx, id);
  ctx.events.publish('contact.saved', { contact, created: true });
  return contact;
}

/**
 * The stored contact with a number, when the user may see it. One they may not see answers as
 * creating it would (ERR_DUPLICATED_CONTACT, the spec's 'already exists'): the number is taken,
 * and nothing of the contact is told.
 */
async function visibleByNumber(ctx: AppContext, actor: AuthUser, id: number): Promise<TContact> {
  if (!(await maySeeContact(ctx, actor, id))) throw new AppError('ERR_DUPLICATED_CONTACT');
  return getContact(ctx, id);
}

/** POST /contact: the contact with this number (if the user may see it), created when there is none. */
export async function findOrCreateContact(ctx: AppContext, actor: AuthUser, input: ContactData): Promise<TContact> {
  const existing = await repo.findContactIdByNumber(ctx.db, input.number);
  if (existing) return visibleByNumber(ctx, actor, existing);
  try {
    return await createContact(ctx, input);
  } catch (error) {
    // Another request created it meanwhile: that one is the contact.
    const raced = error instanceof AppError && error.code === 'ERR_DUPLICATED_CONTACT' ? await repo.findContactIdByNumber(ctx.db, input.number) : undefined;
    if (raced) return visibleByNumber(ctx, actor, raced);
    throw error;
  }
}

/**
 * A user edits the contacts they may see. The number of a contact that has a conversation is
 * where the agents' replies go: changing it is for admins.
 */
export async function updateContact(ctx: AppContext, actor: AuthUser, id: number, input: ContactData): Promise<TContact> {
  const current = await getVisibleContact(ctx, actor, id);
  if (input.number !== current.number && !isAdminProfile(actor.profile) && (await repo.contactHasTickets(ctx.db, id))) {
    throw new AppError('ERR_NO_PERMISSION', { message: "Only an admin may change the number of a contact that has tickets: the agents' replies go to it.", fields: { number: 'INVALID' } });
  }
  const other = await repo.findContactIdByNumber(ctx.db, input.number);
  if (other !== undefined && other !== id) throw new AppError('ERR_DUPLICATED_CONTACT');
  const found = await guardNumber(() =>
    ctx.db.transaction().execute(async (trx) => {
      const updated = await repo.updateContact(trx, id, { name: input.name, number: input.number, email: input.email }, nowIso());
      if (updated && input.extraInfo) await repo.replaceExtraInfo(trx, id, input.extraInfo);
      return updated;
    }),
  );
  if (!found) throw new AppError('ERR_NO_CONTACT_FOUND');
  const contact = await getContact(ctx, id);
  ctx.events.publish('contact.saved', { contact, created: false });
  return contact;
}

export async function deleteContact(ctx: AppContext, id: number): Promise<void> {
  if (!(await repo.deleteContact(ctx.db, id))) throw new AppError('ERR_NO_CONTACT_FOUND');
  ctx.events.publish('contact.deleted', { contactId: id });
}

/**
 * Imports parsed rows in one transaction. Numbers already stored are skipped, never
 * overwritten: an import cannot lose what a user saved.
 */
export async function importContacts(ctx: AppContext, rows: { line: number; data: repo.ContactWrite }[], invalid: TContactImportResult['skipped']): Promise<TContactImportResult> {
  const skipped = [...invalid];
  const existing = await repo.existingNumbers(
    ctx.db,
    rows.map((r) => r.data.number),
  );
  const seen = new Set<string>();
  const fresh: typeof rows = [];
  for (const row of rows) {
    if (existing.has(row.data.number)) skipped.push({ line: row.line, reason: 'ERR_DUPLICATED_CONTACT' });
    else if (seen.has(row.data.number)) skipped.push({ line: row.line, reason: 'DUPLICATED_IN_FILE' });
    else {
      seen.add(row.data.number);
      fresh.push(row);
    }
  }
  const now = nowIso();
  const ids = await guardNumber(() =>
    ctx.db.transaction().execute(async (trx) => {
      const created: number[] = [];
      for (const row of fresh) created.push(await repo.insertContact(trx, row.data, now));
      return created;
    }),
  );
  for (const id of ids) {
    const contact = await repo.findContactById(ctx.db, id);
    if (contact) ctx.events.publish('contact.saved', { contact, created: true });
  }
  skipped.sort((a, b) => a.line - b.line);
  return { created: ids.length, skipped };
}
