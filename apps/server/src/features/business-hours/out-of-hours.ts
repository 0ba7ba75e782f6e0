/**
 * Inbound steps of business hours: the out-of-hours reply (once per conversation) and the
 * queue menu's 'closed now' marks. The pipeline calls these; the rules live here.
 */
import { isOpenAt } from '@zapdesk/shared/business-hours';
import { renderVariables } from '@zapdesk/shared/variables';
import type { Db } from '../../core/db/database.js';
import { contactNamesByIds } from '../contacts/contacts.repository.js';
import { findQueueById } from '../queues/queues.repository.js';
import { getSettingValue } from '../settings/settings.repository.js';
import { findWhatsappById } from '../whatsapps/whatsapps.repository.js';
import { claimOutOfHoursReply, forgetOutOfHoursReply, type QueueRule } from './business-hours.repository.js';

export type OutOfHoursInput = {
  ticket: { id: number; created: boolean; reopened?: boolean; queueId: number | null; userId: number | null };
  /** The queue this message's routing gave the ticket, if any. */
  routedQueueId: number | undefined;
  whatsappId: number;
  contactId: number;
  /**
   * The connection's queues (a ticket without a queue follows the connection's only queue), and
   * each queue's rule, read once for the batch (readQueueRules).
   */
  settings: { queues: readonly { id: number }[]; ruleOf: (queueId: number | null) => QueueRule };
  message: { fromMe: boolean; chat: { kind: string } };
  /** The chatbot answered this message: it speaks for the product, no second answer. */
  botTook: boolean;
  now: string;
};

/**
 * The out-of-hours message to send for this inbound message, or '' for none. Sent to a waiting
 * customer (no agent on the ticket; groups never) when the hours of the ticket's queue say
 * closed, once per conversation: a ticket that got it gets nothing more until it is resolved
 * and a new conversation starts (a new ticket, or the old one reopened by a message).
 */
export async function outOfHoursReply(db: Db, input: OutOfHoursInput): Promise<string> {
  const { ticket, message } = input;
  if (message.chat.kind === 'group' || message.fromMe || input.botTook || ticket.userId !== null) return '';
  if (ticket.reopened) await forgetOutOfHoursReply(db, ticket.id);
  const connectionQueues = input.settings.queues;
  const queueId = input.routedQueueId ?? ticket.queueId ?? (connectionQueues.length === 1 ? (connectionQueues[0]?.id ?? null) : null);
  const rule = input.settings.ruleOf(queueId);
  if (!rule.hours || rule.message.trim() === '' || isOpenAt(rule.hours, Date.parse(input.now))) return '';
  if (!(await claimOutOfHoursReply(db, ticket.id, input.now))) return '';
  const [contact, queue, connection] = await Promise.all([
    contactNamesByIds(db, [input.contactId]).then((names) => names.get(input.contactId)),
    queueId === null ? undefined : findQueueById(db, queueId),
    findWhatsappById(db, input.whatsappId),
  ]);
  return renderVariables(rule.message, { name: contact?.name ?? '', ticketId: ticket.id, queue: queue?.name ?? '', connection: connection?.name ?? '' });
}

const CLOSED_NOW = { pt: ' (fechado agora)', en: ' (closed now)', es: ' (cerrado ahora)' } as const;

/**
 * The suffix the numbered menu puts after a queue closed now, in the product's default language
 * (the emailLanguage setting), or '' when `businessHoursInMenu` is disabled.
 */
export async function closedNowSuffix(db: Db): Promise<string> {
  if ((await getSettingValue(db, 'businessHoursInMenu')) !== 'enabled') return '';
  const language = await getSettingValue(db, 'emailLanguage');
  return language === 'en' || language === 'es' ? CLOSED_NOW[language] : CLOSED_NOW.pt;
}

/** Each queue closed now and its suffix in the menu, by the rules read for the batch. */
export function closedQueueMarks(queues: readonly { id: number }[], rules: { ruleOf: (queueId: number | null) => QueueRule; closedNowSuffix: string }, now = Date.now()): Map<number, string> {
  const marks = new Map<number, string>();
  if (rules.closedNowSuffix === '') return marks;
  for (const queue of queues) {
    const { hours } = rules.ruleOf(queue.id);
    if (hours && !isOpenAt(hours, now)) marks.set(queue.id, rules.closedNowSuffix);
  }
  return marks;
}
