/**
 * Labels: admins define them (name, colour); whoever may see a ticket or a contact puts labels on
 * it and takes them off. Every change is published, so every screen that shows it follows.
 */
import type { TLabel } from '@zapdesk/shared/labels';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TContact } from '@zapdesk/shared/schemas';
import type { AppContext } from '../../core/context.js';
import { onUniqueViolation } from '../../core/db/database.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import { getVisibleContact } from '../contacts/contacts.service.js';
import { findTicketsByIds } from '../tickets/tickets.repository.js';
import { getVisibleTicket } from '../tickets/tickets.service.js';
import type { AuthUser } from '../users/users.repository.js';
import * as repo from './labels.repository.js';

type LabelData = { name: string; color: string };

export function listLabels(ctx: AppContext): Promise<TLabel[]> {
  return repo.listLabels(ctx.db);
}

async function existingLabel(ctx: AppContext, id: number): Promise<TLabel> {
  const label = await repo.findLabelById(ctx.db, id);
  if (!label) throw new AppError('ERR_NO_LABEL_FOUND');
  return label;
}

function nameTakenError(): AppError {
  return new AppError('ERR_LABEL_NAME_ALREADY_EXISTS', { fields: { name: 'TAKEN' } });
}

/** The folded check answers the common case; the unique index decides a race between two identical names. */
function guardName<T>(work: () => Promise<T>): Promise<T> {
  return onUniqueViolation({ table: 'labels', column: 'name' }, nameTakenError, work);
}

export async function createLabel(ctx: AppContext, data: LabelData): Promise<TLabel> {
  if (await repo.nameTaken(ctx.db, data.name)) throw nameTakenError();
  const label = await guardName(() => repo.insertLabel(ctx.db, data, nowIso()));
  ctx.events.publish('label.saved', { label, created: true });
  return label;
}

export async function updateLabel(ctx: AppContext, id: number, data: LabelData): Promise<TLabel> {
  await existingLabel(ctx, id);
  if (await repo.nameTaken(ctx.db, data.name, id)) throw nameTakenError();
  const label = await guardName(() => repo.updateLabel(ctx.db, id, data, nowIso()));
  if (!label) throw new AppError('ERR_NO_LABEL_FOUND');
  ctx.events.publish('label.saved', { label, created: false });
  await republishTickets(ctx, await repo.ticketIdsWithLabel(ctx.db, id));
  return label;
}

/** Deletes a label and takes it off every ticket and contact. */
export async function deleteLabel(ctx: AppContext, id: number): Promise<void> {
  const ticketIds = await repo.ticketIdsWithLabel(ctx.db, id);
  if (!(await repo.deleteLabel(ctx.db, id))) throw new AppError('ERR_NO_LABEL_FOUND');
  ctx.events.publish('label.deleted', { labelId: id });
  await republishTickets(ctx, ticketIds);
}

/** The open lists and chats show the label's new name or colour, or lose it (in pages: a label may be on many tickets). */
async function republishTickets(ctx: AppContext, ids: number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 100) {
    for (const ticket of await findTicketsByIds(ctx.db, ids.slice(i, i + 100))) ctx.events.publish('ticket.saved', { ticket });
  }
}

// ---------- on tickets and contacts ----------

export async function labelTicket(ctx: AppContext, actor: AuthUser, ticketId: number, labelId: number, on: boolean): Promise<TTicket> {
  await getVisibleTicket(ctx, actor, ticketId);
  await existingLabel(ctx, labelId);
  const changed = on ? await repo.addTicketLabel(ctx.db, ticketId, labelId) : await repo.removeTicketLabel(ctx.db, ticketId, labelId);
  const ticket = await getVisibleTicket(ctx, actor, ticketId);
  if (changed) ctx.events.publish('ticket.saved', { ticket });
  return ticket;
}

export async function labelContact(ctx: AppContext, actor: AuthUser, contactId: number, labelId: number, on: boolean): Promise<TContact> {
  await getVisibleContact(ctx, actor, contactId);
  await existingLabel(ctx, labelId);
  const changed = on ? await repo.addContactLabel(ctx.db, contactId, labelId) : await repo.removeContactLabel(ctx.db, contactId, labelId);
  const contact = await getVisibleContact(ctx, actor, contactId);
  if (changed) ctx.events.publish('contact.saved', { contact, created: false });
  return contact;
}
