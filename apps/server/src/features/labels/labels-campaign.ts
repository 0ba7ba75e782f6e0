/** A bulk send to a label: the numbers of its contacts, read once when the campaign is created. */
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { contactVisibleTo } from '../tickets/tickets-list.repository.js';
import { userQueueIds } from '../tickets/tickets.repository.js';
import * as repo from './labels.repository.js';

type Sender = { userId: number | null; admin: boolean; permissions: ReadonlySet<string> };

/**
 * The numbers of a label's contacts, one per line as if typed, among the contacts the sender may
 * see (an agent's campaign reaches no contact beyond their view; an API token acts as an admin).
 */
export async function labelRecipientLines(ctx: AppContext, sender: Sender, labelId: number): Promise<string> {
  if (!(await repo.findLabelById(ctx.db, labelId))) throw new AppError('ERR_NO_LABEL_FOUND', { fields: { labelId: 'INVALID' } });
  const all = sender.userId === null || sender.admin || sender.permissions.has('allQueues');
  const visible =
    all || sender.userId === null
      ? undefined
      : contactVisibleTo(ctx.db, { userId: sender.userId, admin: false, allQueues: false, showAll: false, queueIds: await userQueueIds(ctx.db, sender.userId) });
  return (await repo.numbersWithLabel(ctx.db, labelId, visible)).join('\n');
}
