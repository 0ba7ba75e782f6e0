import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { SettingKey } from '@zapdesk/shared/domain';
import type { ServerToClientEvents } from '@zapdesk/shared/realtime';
import type { TSetting } from '@zapdesk/shared/schemas';
import { request } from '../../core/api/client';

export const settingsKey = ['settings'] as const;

export function useSettings() {
  return useQuery({ queryKey: settingsKey, queryFn: () => request<TSetting[]>('/settings') });
}

export function updateSetting(key: SettingKey, value: string) {
  return request<TSetting>(`/settings/${key}`, { method: 'PUT', body: { value } });
}

export function regenerateApiToken() {
  return request<TSetting>('/settings/userApiToken/regenerate', { method: 'POST' });
}

export function saveSettingInCache(queryClient: QueryClient, setting: TSetting): void {
  queryClient.setQueryData<TSetting[]>(settingsKey, (rows) => {
    if (!rows) return rows;
    return rows.some((row) => row.key === setting.key) ? rows.map((row) => (row.key === setting.key ? setting : row)) : [...rows, setting];
  });
}

export function applySettingsEvent(queryClient: QueryClient, payload: Parameters<ServerToClientEvents['settings']>[0]): void {
  saveSettingInCache(queryClient, payload.setting);
}
