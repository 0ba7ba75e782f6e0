/** Admins' business hours: the default and each queue's own, with the out-of-hours message. */
import type { TBusinessHoursEntry, TBusinessHoursSettings } from '@zapdesk/shared/business-hours';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import { findQueueById } from '../queues/queues.repository.js';
import * as repo from './business-hours.repository.js';

async function existingQueue(ctx: AppContext, queueId: number | null): Promise<void> {
  if (queueId !== null && !(await findQueueById(ctx.db, queueId))) throw new AppError('ERR_NO_QUEUE_FOUND');
}

/** The default first (set or not), then the queues that have their own hours. */
export async function listHours(ctx: AppContext): Promise<TBusinessHoursEntry[]> {
  const entries = await repo.listEntries(ctx.db);
  const byDefault = entries.find((e) => e.queueId === null) ?? { queueId: null, hours: null, outOfHoursMessage: '' };
  return [byDefault, ...entries.filter((e) => e.queueId !== null).sort((a, b) => (a.queueId ?? 0) - (b.queueId ?? 0))];
}

export async function getHours(ctx: AppContext, queueId: number | null): Promise<TBusinessHoursEntry> {
  await existingQueue(ctx, queueId);
  return repo.findOwnEntry(ctx.db, queueId);
}

export async function saveHours(ctx: AppContext, queueId: number | null, input: TBusinessHoursSettings): Promise<TBusinessHoursEntry> {
  await existingQueue(ctx, queueId);
  const { outOfHoursMessage, ...hours } = input;
  await repo.saveEntry(ctx.db, { queueId, hours, outOfHoursMessage }, nowIso());
  return repo.findOwnEntry(ctx.db, queueId);
}

/** A queue back on the default hours; the default removed: always open. */
export async function removeHours(ctx: AppContext, queueId: number | null): Promise<void> {
  await existingQueue(ctx, queueId);
  await repo.deleteEntry(ctx.db, queueId);
}
