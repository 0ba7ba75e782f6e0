import type { TQueue, TQueueInput } from '@zapdesk/shared/schemas';
import type { AppContext } from '../../core/context.js';
import { onUniqueViolation } from '../../core/db/database.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import * as repo from './queues.repository.js';

type QueueData = Required<TQueueInput>;

export function listQueues(ctx: AppContext): Promise<TQueue[]> {
  return repo.listQueues(ctx.db);
}

export async function getQueue(ctx: AppContext, id: number): Promise<TQueue> {
  const queue = await repo.findQueueById(ctx.db, id);
  if (!queue) throw new AppError('ERR_NO_QUEUE_FOUND');
  return queue;
}

function normalize(input: QueueData): repo.QueueWrite {
  return { name: input.name, color: input.color.toUpperCase(), greetingMessage: input.greetingMessage };
}

/** The unique index decides a race; the pre-check gives the common case a clear answer. */
function guardColor<T>(work: () => Promise<T>): Promise<T> {
  return onUniqueViolation({ table: 'queues', column: 'color' }, () => new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS'), work);
}

export async function createQueue(ctx: AppContext, input: QueueData): Promise<TQueue> {
  const data = normalize(input);
  if (await repo.nameTaken(ctx.db, data.name)) throw new AppError('ERR_QUEUE_NAME_ALREADY_EXISTS', { fields: { name: 'TAKEN' } });
  if (await repo.colorTaken(ctx.db, data.color)) throw new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS');
  const queue = await guardColor(() => repo.insertQueue(ctx.db, data, nowIso()));
  ctx.events.publish('queue.saved', { queue, created: true });
  return queue;
}

export async function updateQueue(ctx: AppContext, id: number, input: QueueData): Promise<TQueue> {
  const data = normalize(input);
  if (await repo.nameTaken(ctx.db, data.name, id)) throw new AppError('ERR_QUEUE_NAME_ALREADY_EXISTS', { fields: { name: 'TAKEN' } });
  if (await repo.colorTaken(ctx.db, data.color, id)) throw new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS');
  const queue = await guardColor(() => repo.updateQueue(ctx.db, id, data, nowIso()));
  if (!queue) throw new AppError('ERR_NO_QUEUE_FOUND');
  ctx.events.publish('queue.saved', { queue, created: false });
  return queue;
}

export async function deleteQueue(ctx: AppContext, id: number): Promise<void> {
  if (!(await repo.deleteQueue(ctx.db, id))) throw new AppError('ERR_NO_QUEUE_FOUND');
  ctx.events.publish('queue.deleted', { queueId: id });
}
