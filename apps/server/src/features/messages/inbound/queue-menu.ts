/** Step: the queue of a new ticket, and the greeting or numbered menu that answers it. */
import { renderVariables } from '@zapdesk/shared/variables';
import type { Db } from '../../../core/db/database.js';
import { contactNamesByIds } from '../../contacts/contacts.repository.js';
import { findWhatsappById } from '../../whatsapps/whatsapps.repository.js';
import type { ConnectionQueue, PipelineSettings } from './pipeline-settings.js';
import { closedQueueMarks } from '../../business-hours/out-of-hours.js';

/**
 * With one queue the ticket takes it. With several, the greeting lists them numbered and the
 * contact's numeric reply picks one, which answers with that queue's greeting. Returns the queue
 * the ticket takes, if any, and what to answer.
 */
export async function routeToQueue(
  db: Db,
  ticket: { ticketId: number; whatsappId: number; contactId: number; queues: ConnectionQueue[] },
  body: string,
  isNewTicket: boolean,
  rules: Pick<PipelineSettings, 'ruleOf' | 'closedNowSuffix'>,
): Promise<{ queueId?: number; reply: string }> {
  const { queues } = ticket;
  // The common case, a queue-less connection in an ongoing chat, needs nothing more.
  if (queues.length === 0 && !isNewTicket) return { reply: '' };
  const connection = await findWhatsappById(db, ticket.whatsappId);
  if (!connection) return { reply: '' };
  const contact = (await contactNamesByIds(db, [ticket.contactId])).get(ticket.contactId);
  const values = (queue?: string) => ({ name: contact?.name ?? '', ticketId: ticket.ticketId, connection: connection.name, ...(queue ? { queue } : {}) });

  if (queues.length === 0) return { reply: renderVariables(connection.greetingMessage, values()) };
  const choice = queues.length === 1 ? queues[0] : /^\s*\d+\s*$/.test(body) ? queues[Number.parseInt(body.trim(), 10) - 1] : undefined;
  if (choice) {
    const greeting = choice.greetingMessage || (queues.length === 1 && isNewTicket ? connection.greetingMessage : '');
    return { queueId: choice.id, reply: queues.length === 1 && !isNewTicket ? '' : renderVariables(greeting, values(choice.name)) };
  }
  const closed = closedQueueMarks(queues, rules);
  const menu = queues.map((q, i) => `*${i + 1}* - ${q.name}${closed.get(q.id) ?? ''}`).join('\n');
  return { reply: `${renderVariables(connection.greetingMessage, values())}\n\n${menu}` };
}
