import { isAdminProfile } from '@zapdesk/shared/domain';
import { numberVariants, type NumberRule } from '@zapdesk/shared/phone-numbers';
import type { TContactListQuery } from '@zapdesk/shared/labels';
import type { TContact, TContactByNumber, TContactImportResult } from '@zapdesk/shared/schemas';
import type { AppContext } from '../../core/context.js';
import { onUniqueViolation } from '../../core/db/database.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import { contactVisibleTo } from '../tickets/tickets-list.repository.js';
import { userQueueIds } from '../tickets/tickets.repository.js';
import { PROBLEM_CODES, typedNumber, typedNumberReader } from '../settings/typed-numbers.js';
import type { AuthUser } from '../users/users.repository.js';
import { readDetails } from './contact-details.repository.js';
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

export async function listContacts(ctx: AppContext, actor: AuthUser, query: TContactListQuery) {
  const condition = await visibility(ctx, actor);
  return repo.listContacts(ctx.db, ctx.dbKind, { ...query, visible: condition && { condition, viewer: actor.id } });
}

/** The contacts the user may see, as the CSV the contacts page downloads. */
export async function exportContactsCsv(ctx: AppContext, actor: AuthUser): Promise<string> {
  let csv = '';
  let first = true;
  for await (const rows of repo.allContacts(ctx.db, await visibility(ctx, actor))) {
    const { contactLabels: labels } = await readDetails(ctx.db, { contactIds: rows.map((r) => r.id), labelsOnly: true });
    csv += contactsCsvChunk(
      rows.map((r) => ({ ...r, labels: (labels.get(r.id) ?? []).map((l) => l.name).join(', ') })),
      first,
    );
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

/**
 * The number of a contact as typed, read by the number rule with the default country code
 * (phone-numbers.ts): `11 97777-6666` is stored as 5511977776666. `rule` countryCodeOnly: whaticket's
 * integration route, whose callers send full numbers and expect them kept.
 */
async function withTypedNumber(ctx: AppContext, input: ContactData, rule: NumberRule = 'whatsapp'): Promise<ContactData> {
  return { ...input, number: await typedNumber(ctx, input.number, { rule }) };
}

/** POST /contacts: a person typed into the contact form (or whaticket's). Taken in any of its forms, the number is taken. */
export async function createTypedContact(ctx: AppContext, input: ContactData): Promise<TContact> {
  if (await storedAsWritten(ctx, input.number)) throw new AppError('ERR_DUPLICATED_CONTACT');
  const data = await withTypedNumber(ctx, input);
  if (await repo.findPersonByAnyNumber(ctx.db, numberVariants(data.number))) throw new AppError('ERR_DUPLICATED_CONTACT');
  return createContact(ctx, data);
}

/** The person stored under a number exactly as written, digits only (one the network gave in another form than the rule's). */
function storedAsWritten(ctx: AppContext, typed: string): Promise<{ id: number; number: string } | undefined> {
  return repo.findPersonByAnyNumber(ctx.db, [typed.replace(/\D/g, '')]);
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
export async function findOrCreateContact(ctx: AppContext, actor: AuthUser, typed: ContactData): Promise<TContact> {
  const asWritten = await storedAsWritten(ctx, typed.number);
  if (asWritten) return visibleByNumber(ctx, actor, asWritten.id);
  const input = await withTypedNumber(ctx, typed, 'countryCodeOnly');
  const existing = (await repo.findPersonByAnyNumber(ctx.db, numberVariants(input.number)))?.id;
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
export async function updateContact(ctx: AppContext, actor: AuthUser, id: number, typed: ContactData): Promise<TContact> {
  const current = await getVisibleContact(ctx, actor, id);
  // A number sent back as stored stays as stored (a contact the network named another way).
  const input = typed.number.replace(/\D/g, '') === current.number ? { ...typed, number: current.number } : await withTypedNumber(ctx, typed);
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
export async function importContacts(ctx: AppContext, typedRows: { line: number; data: repo.ContactWrite }[], invalid: TContactImportResult['skipped']): Promise<TContactImportResult> {
  const skipped = [...invalid];
  // A number stored as written (a file the product exported) is that contact; any other is read
  // by the rule with the default country code, and one that stays ambiguous is skipped with its reason.
  const asWritten = await repo.existingNumbers(
    ctx.db,
    typedRows.map((r) => r.data.number.replace(/\D/g, '')),
  );
  const read = await typedNumberReader(ctx);
  const rows: typeof typedRows = [];
  for (const row of typedRows) {
    const digits = row.data.number.replace(/\D/g, '');
    const result = asWritten.has(digits) ? { number: digits } : read(row.data.number);
    if (result.number === undefined) skipped.push({ line: row.line, reason: `number: ${PROBLEM_CODES[result.problem]}` });
    else rows.push({ line: row.line, data: { ...row.data, number: result.number } });
  }
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

/**
 * 'Novo ticket' searched by an exact number (as typed, read with the default country code): the
 * person stored under it in any of its forms, whoever's queue she is in. Someone who may not
 * see her learns only that the number is a customer's (no name, no id): knowing the number, they
 * may open a ticket for her (tickets-create.service.ts), and then see her as any ticket holder.
 */
export async function findByNumber(ctx: AppContext, actor: AuthUser, typed: string): Promise<TContactByNumber> {
  const asWritten = await storedAsWritten(ctx, typed);
  const number = asWritten?.number ?? (await typedNumber(ctx, typed));
  const found = asWritten ?? (await repo.findPersonByAnyNumber(ctx.db, numberVariants(number)));
  if (!found) return { number, found: false, contact: null };
  const contact = (await maySeeContact(ctx, actor, found.id)) ? await getContact(ctx, found.id) : null;
  return { number: found.number, found: true, contact };
}

/** The person a ticket is opened for by number: ERR_NO_CONTACT_FOUND when nobody has it. */
export async function personIdByNumber(ctx: AppContext, typed: string): Promise<number> {
  const asWritten = await storedAsWritten(ctx, typed);
  if (asWritten) return asWritten.id;
  const number = await typedNumber(ctx, typed);
  const found = await repo.findPersonByAnyNumber(ctx.db, numberVariants(number));
  if (!found) throw new AppError('ERR_NO_CONTACT_FOUND', { fields: { number: 'INVALID' } });
  return found.id;
}
