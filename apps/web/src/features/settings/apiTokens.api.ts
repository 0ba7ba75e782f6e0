import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { TApiToken, TApiTokenCreate, TApiTokenCreated, TApiTokenList } from '@zapdesk/shared/api-tokens';
import { request } from '../../core/api/client';

export const apiTokensKey = ['api-tokens'] as const;

export function useApiTokens() {
  return useQuery({ queryKey: apiTokensKey, queryFn: () => request<TApiTokenList>('/api-tokens') });
}

export function createApiToken(input: TApiTokenCreate) {
  return request<TApiTokenCreated>('/api-tokens', { method: 'POST', body: input });
}

export function revokeApiToken(id: number) {
  return request<TApiToken>(`/api-tokens/${id}`, { method: 'DELETE' });
}

/** Puts a token as the server answered it in the list: a new one first, a changed one in its place. */
export function saveApiTokenInCache(queryClient: QueryClient, token: TApiToken): void {
  queryClient.setQueryData<TApiTokenList>(apiTokensKey, (list) => {
    if (!list) return list;
    const known = list.apiTokens.some((row) => row.id === token.id);
    return { apiTokens: known ? list.apiTokens.map((row) => (row.id === token.id ? token : row)) : [token, ...list.apiTokens] };
  });
}
