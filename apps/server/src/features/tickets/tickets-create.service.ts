/** 'Novo ticket': a ticket an agent opens for a contact, picked from the list or by a number typed in full. */
import { isAdminProfile } from '@zapdesk/shared/domain';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { AppContext } from '../../core/context.js';
import { isUniqueViolation } from '../../core/db/database.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import { getVisibleContact, personIdByNumber } from '../contacts/contacts.service.js';
import { findQueueById } from '../queues/queues.repository.js';
import type { AuthUser } from '../users/users.repository.js';
import { findDefaultWhatsappId, findWhatsappById } from '../whatsapps/whatsapps.repository.js';
import * as repo from './tickets.repository.js';

/** The queue a new ticket goes to: one of the opener's (an admin's: any); none when not told. */
async function openerQueue(ctx: AppContext, actor: AuthUser, queueId: number | null | undefined): Promise<number | null> {
  if (queueId === undefined || queueId === null) return null;
  if (isAdminProfile(actor.profile) ? !(await findQueueById(ctx.db, queueId)) : !(await repo.userQueueIds(ctx.db, actor.id)).includes(queueId)) {
    throw new AppError('ERR_NO_QUEUE_FOUND', { fields: { queueId: 'INVALID' } });
  }
  return queueId;
}

/**
 * A ticket opened by an agent for a contact: open and theirs, on the default connection unless
 * told, in one of their queues when told. For a contact picked by id: only one they may see,
 * asked first (a ticket would let them read the contact and write to it, and the later answers
 * would tell them about it). For a number typed in full: the person with it, whoever's queue
 * she is in (knowing the number is what it takes to write to her). Her older tickets stay as
 * the visibility rule has them (shared/visibility.ts): the new chat shows its own messages only.
 */
export async function createTicket(
  ctx: AppContext,
  actor: AuthUser,
  input: { contactId?: number | undefined; number?: string | undefined; whatsappId?: number | undefined; queueId?: number | null | undefined },
): Promise<TTicket> {
  let contactId: number;
  if (input.contactId !== undefined) contactId = (await getVisibleContact(ctx, actor, input.contactId)).id;
  else contactId = await personIdByNumber(ctx, input.number ?? '');
  const queueId = await openerQueue(ctx, actor, input.queueId);
  const whatsappId = input.whatsappId ?? (await findDefaultWhatsappId(ctx.db));
  if (whatsappId === undefined) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
  if (input.whatsappId !== undefined && !(await findWhatsappById(ctx.db, whatsappId))) throw new AppError('ERR_NO_WAPP_FOUND');
  if (await repo.findActiveTicketId(ctx.db, contactId, whatsappId)) throw new AppError('ERR_OTHER_OPEN_TICKET');
  let id: number;
  try {
    id = await repo.insertTicket(ctx.db, { contactId, whatsappId, isGroup: false, status: 'open', userId: actor.id, queueId }, nowIso());
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('ERR_OTHER_OPEN_TICKET');
    throw error;
  }
  const ticket = await repo.findTicketById(ctx.db, id);
  if (!ticket) throw new AppError('ERR_CREATING_TICKET');
  ctx.events.publish('ticket.saved', { ticket });
  return ticket;
}
