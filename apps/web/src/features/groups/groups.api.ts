/** Group tools: the connection's groups, creating one, and the actions that run as campaigns. */
import type { TCampaign } from '@zapdesk/shared/campaigns';
import type { TGroupAction, TGroupCreated, TGroupList } from '@zapdesk/shared/groups';
import { request } from '../../core/api/client';

export const groupsKeys = {
  list: (whatsappId: number) => ['groups', whatsappId] as const,
};

export function fetchGroups(whatsappId: number) {
  return request<TGroupList>('/groups', { query: { whatsappId } });
}

export function createGroup(input: { whatsappId: number; title: string; participants: string }) {
  return request<TGroupCreated>('/groups', { method: 'POST', body: input });
}

export function startGroupAction(input: TGroupAction) {
  return request<TCampaign>('/groups/actions', { method: 'POST', body: input });
}
