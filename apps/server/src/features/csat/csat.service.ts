/**
 * Customer satisfaction: the connection's question settings, the question asked after
 * 'Resolver'. The customer's reply is read in csat-inbound.ts, a ticket's ratings shown by ticket-ratings.service.ts.
 */
import { asCsatLanguage, csatQuestionText, type TCsatSettings, type TCsatSettingsInput } from '@zapdesk/shared/csat';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import { queueOnTicket } from '../messages/outbound.service.js';
import * as repo from './csat.repository.js';

function present(row: repo.CsatSettingsRow): TCsatSettings {
  const settings = { enabled: row.csatEnabled === 1, question: row.csatQuestion, language: asCsatLanguage(row.csatLanguage) };
  return { ...settings, effectiveQuestion: csatQuestionText(settings) };
}

export async function getCsatSettings(ctx: AppContext, whatsappId: number): Promise<TCsatSettings> {
  const row = await repo.findCsatSettings(ctx.db, whatsappId);
  if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
  return present(row);
}

export async function updateCsatSettings(ctx: AppContext, whatsappId: number, input: TCsatSettingsInput): Promise<TCsatSettings> {
  if (!(await repo.findCsatSettings(ctx.db, whatsappId))) throw new AppError('ERR_NO_WAPP_FOUND');
  await repo.updateCsatSettings(ctx.db, whatsappId, { csatEnabled: input.enabled ? 1 : 0, csatQuestion: input.question.trim(), csatLanguage: input.language, updatedAt: nowIso() });
  return getCsatSettings(ctx, whatsappId);
}

/**
 * After 'Resolver' (and 'Protocolo', which resolves too): when the connection asks, the customer
 * gets the question after the farewell, through the outbound queue. Not for groups, not for a
 * ticket closed while waiting (nobody served it), not for 'Close all' nor automatic closes
 * (they never come here). The question is recorded before it is queued, so an answer that comes
 * back quickly finds it; when it cannot be queued (the phone is off) the record goes too.
 */
export async function askAfterResolve(ctx: AppContext, sessions: SessionManager, options: { ticket: TTicket; resolvedBy: number }): Promise<void> {
  const { ticket } = options;
  if (ticket.status !== 'open' || ticket.isGroup) return;
  const settings = await repo.findCsatSettings(ctx.db, ticket.whatsappId);
  if (!settings || settings.csatEnabled !== 1) return;
  if (!(await sessions.use(ticket.whatsappId).catch(() => undefined))) return;
  const question = csatQuestionText({ question: settings.csatQuestion, language: asCsatLanguage(settings.csatLanguage) });
  const id = await repo.insertRating(ctx.db, {
    ticketId: ticket.id,
    whatsappId: ticket.whatsappId,
    contactId: ticket.contactId,
    userId: options.resolvedBy,
    queueId: ticket.queueId,
    askedAt: nowIso(),
  });
  try {
    await queueOnTicket(ctx, sessions, { ticket, content: { kind: 'text', body: question } });
  } catch (error) {
    await repo.deleteRating(ctx.db, id);
    ctx.events.publish('channel.error', { whatsappId: ticket.whatsappId, error });
  }
}
