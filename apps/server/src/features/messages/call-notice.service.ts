/**
 * The `call` setting. Enabled: an incoming call is rejected and the caller gets the
 * `callMessage` text in their ticket, stored and sent like any message of the system. Disabled
 * (the default): the call rings on the phone as usual. Group calls are left alone.
 */
import type { TTicket } from '@zapdesk/shared/messaging';
import { BoundedMap } from '../../channels/bounded-map.js';
import type { InboundCall } from '../../channels/channel.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { getSettingValue } from '../settings/settings.repository.js';
import { findTicketById } from '../tickets/tickets.repository.js';
import { emptyOutbox, publishContact } from './inbound/batch-outbox.js';
import { upsertChatContact } from './inbound/chat-contact.js';
import { findOrCreateTicket } from './inbound/ticket-choice.js';
import { sendOnTicket } from './outbound.service.js';

/** How many calls are remembered as answered: WhatsApp may offer the same call again. */
const ANSWERED_CALLS_MAX = 5_000;

/** The caller's ticket on the connection, found, reopened or opened as for a first message. */
async function callerTicket(ctx: AppContext, whatsappId: number, number: string): Promise<TTicket> {
  const outbox = emptyOutbox();
  const contact = await upsertChatContact(ctx.db, { chat: { kind: 'person', number }, fromMe: false }, outbox);
  const reopenWithinSeconds = Number(await getSettingValue(ctx.db, 'timeCreateNewTicket')) || 0;
  const ref = await findOrCreateTicket(ctx.db, { contactId: contact.id, whatsappId, isGroup: false, reopenWithinSeconds });
  for (const [id, created] of outbox.contacts) await publishContact(ctx, id, created);
  const ticket = await findTicketById(ctx.db, ref.id);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  return ticket;
}

/** Answers the calls of every connection this node runs; one call is answered once. */
export function createCallHandler(ctx: AppContext, sessions: SessionManager): (whatsappId: number, call: InboundCall) => Promise<void> {
  const answered = new BoundedMap<string, true>(ANSWERED_CALLS_MAX);

  return async (whatsappId, call) => {
    if (call.isGroup || (await getSettingValue(ctx.db, 'call')) !== 'enabled') return;
    const key = `${whatsappId}:${call.callId}`;
    if (answered.has(key)) return;
    answered.set(key, true);
    const driver = sessions.requireDriver(whatsappId);
    // A call that could not be rejected (it ended meanwhile) still gets the notice.
    await driver.rejectCall(call.callId, call.from).catch((error: unknown) => ctx.events.publish('channel.error', { whatsappId, error }));
    const body = await getSettingValue(ctx.db, 'callMessage');
    if (!body.trim()) return;
    const ticket = await callerTicket(ctx, whatsappId, call.from);
    await sendOnTicket(ctx, sessions, { ticket, content: { kind: 'text', body } });
  };
}
