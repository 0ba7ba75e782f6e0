import { useQuery } from '@tanstack/react-query';
import type { TRole, TRoleInput, TRoleList } from '@zapdesk/shared/roles';
import { request, requestVoid } from '../../core/api/client';

export const rolesKey = ['roles'] as const;

export function useRoles(enabled = true) {
  return useQuery({ queryKey: rolesKey, queryFn: async () => (await request<TRoleList>('/roles')).roles, enabled });
}

export function createRole(input: TRoleInput) {
  return request<TRole>('/roles', { method: 'POST', body: input });
}

export function updateRole(id: number, input: TRoleInput) {
  return request<TRole>(`/roles/${id}`, { method: 'PUT', body: input });
}

export function deleteRole(id: number) {
  return requestVoid(`/roles/${id}`, { method: 'DELETE' });
}
