/**
 * whaticket's integration send (POST /api/messages/send): a text, or files with the text as
 * their caption, to a number, through the default connection (or the `whatsappId` given), into
 * the contact's ticket as whaticket's FindOrCreateTicketService picks it: the open or pending
 * ticket; else the one touched in the last two hours, reopened as pending; else a new pending
 * one. The contact is found by number (either Brazilian form) or created, named by its number.
 * Each message takes the outbound path of every send: stored first, then sent.
 */
import { mediaTypeOfMime } from '@zapdesk/shared/domain';
import { numberVariants, readNumber } from '@zapdesk/shared/phone-numbers';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import { findContactByAnyNumber, findContactById, insertChatContactIfAbsent } from '../contacts/contacts.repository.js';
import { defaultCountryCode } from '../settings/typed-numbers.js';
import { findOrCreateTicket } from './inbound/ticket-choice.js';
import type { ReplyContent } from './message-file.js';
import { sendOnTicket } from './outbound.service.js';
import { findTicketById } from '../tickets/tickets.repository.js';
import { findDefaultWhatsappId, findWhatsappById } from '../whatsapps/whatsapps.repository.js';

/** whaticket reopens a contact's ticket touched this recently instead of opening a new one. */
export const REOPEN_WITHIN_SECONDS = 2 * 60 * 60;

export type IntegrationFile = { path: string; size: number; mimetype: string; filename: string };
export type IntegrationSend = { number: string; body: string; whatsappId?: number | undefined; medias?: IntegrationFile[] };

async function connectionFor(ctx: AppContext, whatsappId: number | undefined): Promise<number> {
  if (whatsappId === undefined) {
    const id = await findDefaultWhatsappId(ctx.db);
    if (id === undefined) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
    return id;
  }
  if (!(await findWhatsappById(ctx.db, whatsappId))) throw new AppError('ERR_NO_WAPP_FOUND', { fields: { whatsappId: 'INVALID' } });
  return whatsappId;
}

/**
 * whaticket's callers send full numbers and expect them sent as they are: only one typed without
 * its country code (11977776666) gets the default one. Anything the rule cannot read goes on as
 * sent, and the network answers for it (ERR_WAPP_INVALID_CONTACT), as whaticket did.
 */
async function withDefaultCountryCode(ctx: AppContext, number: string): Promise<string> {
  return readNumber(number, { countryCode: await defaultCountryCode(ctx), rule: 'countryCodeOnly' }).number ?? number;
}

/** The number as the network knows it: ERR_WAPP_INVALID_CONTACT when it has no account. */
async function canonicalNumber(sessions: SessionManager, whatsappId: number, number: string): Promise<string> {
  const driver = await sessions.require(whatsappId);
  if (!driver.connected) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  let found: string | undefined;
  try {
    found = await driver.checkNumber(number);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('ERR_WAPP_CHECK_CONTACT');
  }
  if (found === undefined) throw new AppError('ERR_WAPP_INVALID_CONTACT', { fields: { number: 'INVALID' } });
  return found;
}

async function contactIdFor(ctx: AppContext, number: string): Promise<number> {
  const existing = await findContactByAnyNumber(ctx.db, numberVariants(number));
  if (existing) return existing.id;
  const id = (await insertChatContactIfAbsent(ctx.db, { name: number, number, isGroup: false }, nowIso())) ?? (await findContactByAnyNumber(ctx.db, [number]))?.id;
  if (id === undefined) throw new Error(`contact ${number} vanished while being created`);
  const contact = await findContactById(ctx.db, id);
  if (contact) ctx.events.publish('contact.saved', { contact, created: true });
  return id;
}

/** Sends and answers the ticket it went into with the ids of the stored messages. */
export async function sendFromIntegration(ctx: AppContext, sessions: SessionManager, input: IntegrationSend): Promise<{ ticketId: number; messageIds: number[] }> {
  const whatsappId = await connectionFor(ctx, input.whatsappId);
  const number = await canonicalNumber(sessions, whatsappId, await withDefaultCountryCode(ctx, input.number));
  const contactId = await contactIdFor(ctx, number);
  const ref = await findOrCreateTicket(ctx.db, { contactId, whatsappId, isGroup: false, reopenWithinSeconds: REOPEN_WITHIN_SECONDS });
  const ticket = await findTicketById(ctx.db, ref.id);
  if (!ticket) throw new AppError('ERR_CREATING_TICKET');
  if (ref.created) ctx.events.publish('ticket.saved', { ticket });
  const contents: ReplyContent[] = input.medias?.length
    ? input.medias.map((m) => ({
        kind: 'media',
        mediaType: mediaTypeOfMime(m.mimetype),
        staged: m,
        mimetype: m.mimetype,
        filename: m.filename,
        // whaticket gives every file the text as its caption.
        ...(input.body.trim() ? { caption: input.body } : {}),
      }))
    : [{ kind: 'text', body: input.body }];
  const messageIds: number[] = [];
  // No agent wrote these: they are the product's own sends (automatic), like the tool API's.
  for (const content of contents) messageIds.push(await sendOnTicket(ctx, sessions, { ticket, content }));
  return { ticketId: ticket.id, messageIds };
}
