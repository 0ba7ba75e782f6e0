/**
 * The first-run checklist an admin sees on the dashboard: connect a phone, create a queue, add an
 * agent, send a message. Each step is read from what exists (a CONNECTED connection, a queue, a
 * user who is not an admin, a message an agent wrote in the inbox), so it ticks itself however the
 * thing was done. Closing it is remembered per admin.
 */
import type { TFirstRun } from '@zapdesk/shared/schemas';
import type { AppContext } from '../../core/context.js';
import { nowIso } from '../../core/time.js';
import * as repo from './onboarding.repository.js';

export async function firstRun(ctx: AppContext, userId: number): Promise<TFirstRun> {
  const [steps, dismissed] = await Promise.all([repo.firstRunFacts(ctx.db), repo.checklistDismissed(ctx.db, userId)]);
  return { steps, complete: Object.values(steps).every(Boolean), dismissed };
}

export async function dismissFirstRun(ctx: AppContext, userId: number): Promise<TFirstRun> {
  await repo.dismissChecklist(ctx.db, userId, nowIso());
  return firstRun(ctx, userId);
}
