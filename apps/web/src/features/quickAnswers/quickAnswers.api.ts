import type { QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { foldText } from '@zapdesk/shared/domain';
import type { ServerToClientEvents } from '@zapdesk/shared/realtime';
import type { ZQuickAnswerListSchema, TQuickAnswer, TQuickAnswerInput } from '@zapdesk/shared/schemas';
import { request, requestVoid } from '../../core/api/client';
import { byText, removeFromPages, upsertInPages, type Page } from '../../core/lists/liveCache';

export const quickAnswersKeys = { list: ['quickAnswers', 'list'] as const };

export async function fetchQuickAnswersPage(search: string, pageNumber: number): Promise<Page<TQuickAnswer>> {
  const { quickAnswers, count, hasMore } = await request<z.output<typeof ZQuickAnswerListSchema>>('/quickAnswers', { query: { searchParam: search, pageNumber } });
  return { items: quickAnswers, count, hasMore };
}

export function createQuickAnswer(input: TQuickAnswerInput) {
  return request<TQuickAnswer>('/quickAnswers', { method: 'POST', body: input });
}

export function updateQuickAnswer(id: number, input: TQuickAnswerInput) {
  return request<TQuickAnswer>(`/quickAnswers/${id}`, { method: 'PUT', body: input });
}

export function deleteQuickAnswer(id: number) {
  return requestVoid(`/quickAnswers/${id}`, { method: 'DELETE' });
}

function matchesSearch(answer: TQuickAnswer, search: string): boolean {
  const needle = foldText(search.trim());
  return needle === '' || foldText(answer.shortcut).includes(needle) || foldText(answer.message).includes(needle);
}

export function saveQuickAnswerInCache(queryClient: QueryClient, answer: TQuickAnswer): void {
  upsertInPages(queryClient, { listKey: quickAnswersKeys.list, item: answer, matches: matchesSearch, compare: byText((row) => row.shortcut) });
}

export function applyQuickAnswerEvent(queryClient: QueryClient, payload: Parameters<ServerToClientEvents['quickAnswer']>[0]): void {
  if (payload.action === 'delete') removeFromPages(queryClient, quickAnswersKeys.list, payload.quickAnswerId);
  else saveQuickAnswerInCache(queryClient, payload.quickAnswer);
}
