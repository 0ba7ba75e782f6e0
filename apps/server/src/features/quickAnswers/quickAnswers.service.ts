import type { TListQuery, TQuickAnswer } from '@zapdesk/shared/schemas';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import * as repo from './quickAnswers.repository.js';

export function listQuickAnswers(ctx: AppContext, query: TListQuery) {
  return repo.listQuickAnswers(ctx.db, query);
}

export async function getQuickAnswer(ctx: AppContext, id: number): Promise<TQuickAnswer> {
  const found = await repo.findQuickAnswerById(ctx.db, id);
  if (!found) throw new AppError('ERR_NO_QUICK_ANSWER_FOUND');
  return found;
}

export async function createQuickAnswer(ctx: AppContext, input: repo.QuickAnswerWrite): Promise<TQuickAnswer> {
  const quickAnswer = await repo.insertQuickAnswer(ctx.db, input, nowIso());
  ctx.events.publish('quickAnswer.saved', { quickAnswer, created: true });
  return quickAnswer;
}

export async function updateQuickAnswer(ctx: AppContext, id: number, input: repo.QuickAnswerWrite): Promise<TQuickAnswer> {
  const quickAnswer = await repo.updateQuickAnswer(ctx.db, id, input, nowIso());
  if (!quickAnswer) throw new AppError('ERR_NO_QUICK_ANSWER_FOUND');
  ctx.events.publish('quickAnswer.saved', { quickAnswer, created: false });
  return quickAnswer;
}

export async function deleteQuickAnswer(ctx: AppContext, id: number): Promise<void> {
  if (!(await repo.deleteQuickAnswer(ctx.db, id))) throw new AppError('ERR_NO_QUICK_ANSWER_FOUND');
  ctx.events.publish('quickAnswer.deleted', { quickAnswerId: id });
}
