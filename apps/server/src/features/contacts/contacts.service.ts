import type { TContact, TContactImportResult, TListQuery } from '@zapdesk/shared/schemas';
import type { AppContext } from '../../core/context.js';
import { onUniqueViolation } from '../../core/db/database.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import * as repo from './contacts.repository.js';

export type ContactData = repo.ContactWrite & { extraInfo?: repo.ExtraInfoWrite[] | undefined };

export function listContacts(ctx: AppContext, query: TListQuery) {
  return repo.listContacts(ctx.db, query);
}

export async function getContact(ctx: AppContext, id: number): Promise<TContact> {
  const contact = await repo.findContactById(ctx.db, id);
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  return contact;
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

/** POST /contact: the contact with this number, created when there is none. */
export async function findOrCreateContact(ctx: AppContext, input: ContactData): Promise<TContact> {
  const existing = await repo.findContactIdByNumber(ctx.db, input.number);
  if (existing) return getContact(ctx, existing);
  try {
    return await createContact(ctx, input);
  } catch (error) {
    // Another request created it meanwhile: that one is the contact.
    const raced = error instanceof AppError && error.code === 'ERR_DUPLICATED_CONTACT' ? await repo.findContactIdByNumber(ctx.db, input.number) : undefined;
    if (raced) return getContact(ctx, raced);
    throw error;
  }
}

export async function updateContact(ctx: AppContext, id: number, input: ContactData): Promise<TContact> {
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
  const existing = await repo.existingNumbers(ctx.db, rows.map((r) => r.data.number));
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
