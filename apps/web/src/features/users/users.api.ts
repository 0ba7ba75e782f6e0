import type { QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { foldText } from '@zapdesk/shared/domain';
import type { ServerToClientEvents } from '@zapdesk/shared/realtime';
import type { ZUserListSchema, TOnlineUsers, TUser, TUserCreate, TUserUpdate } from '@zapdesk/shared/schemas';
import { request, requestVoid } from '../../core/api/client';
import { byText, removeFromPages, upsertInPages, type Page } from '../../core/lists/liveCache';

export const usersKeys = {
  list: ['users', 'list'] as const,
  detail: (id: number) => ['users', 'detail', id] as const,
};

export async function fetchUsersPage(search: string, pageNumber: number): Promise<Page<TUser>> {
  const { users, count, hasMore } = await request<z.output<typeof ZUserListSchema>>('/users', { query: { searchParam: search, pageNumber } });
  return { items: users, count, hasMore };
}

/** Every user, page after page (a team fits in a few; at most 20 pages are read). */
export async function fetchAllUsers(): Promise<TUser[]> {
  const all: TUser[] = [];
  for (let page = 1; page <= 20; page += 1) {
    const { items, hasMore } = await fetchUsersPage('', page);
    all.push(...items);
    if (!hasMore) break;
  }
  return all;
}

/** The ids of the users with the app open now (a live connection to the server). */
export async function fetchOnlineUserIds(): Promise<number[]> {
  return (await request<TOnlineUsers>('/users/online')).userIds;
}

export function fetchUser(id: number) {
  return request<TUser>(`/users/${id}`);
}

export function createUser(input: TUserCreate) {
  return request<TUser>('/users', { method: 'POST', body: input });
}

export function updateUser(id: number, input: TUserUpdate) {
  return request<TUser>(`/users/${id}`, { method: 'PUT', body: input });
}

export function deleteUser(id: number) {
  return requestVoid(`/users/${id}`, { method: 'DELETE' });
}

function matchesSearch(user: TUser, search: string): boolean {
  const needle = foldText(search.trim());
  return needle === '' || foldText(user.name).includes(needle) || foldText(user.email).includes(needle);
}

export function saveUserInCache(queryClient: QueryClient, user: TUser): void {
  upsertInPages(queryClient, { listKey: usersKeys.list, item: user, matches: matchesSearch, compare: byText((row) => row.name) });
  queryClient.setQueryData(usersKeys.detail(user.id), user);
}

export function removeUserFromCache(queryClient: QueryClient, userId: number): void {
  removeFromPages(queryClient, usersKeys.list, userId);
  queryClient.removeQueries({ queryKey: usersKeys.detail(userId) });
}

export function applyUserEvent(queryClient: QueryClient, payload: Parameters<ServerToClientEvents['user']>[0]): void {
  if (payload.action === 'delete') removeUserFromCache(queryClient, payload.userId);
  else saveUserInCache(queryClient, payload.user);
}
