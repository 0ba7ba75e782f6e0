import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { SettingKey } from '@zapdesk/shared/domain';
import type { ServerToClientEvents } from '@zapdesk/shared/realtime';
import type { TSetting } from '@zapdesk/shared/schemas';
import type { TEmail, TEmailList } from '@zapdesk/shared/email';
import { request } from '../../core/api/client';

export const settingsKey = ['settings'] as const;

/** `enabled`: false for someone who may not read the settings (a page that only hints at them). */
export function useSettings(enabled = true) {
  return useQuery({ queryKey: settingsKey, queryFn: () => request<TSetting[]>('/settings'), enabled });
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

/**
 * Saves a setting and shows it at once: the list holds the new value while it is saved (never a
 * secret's), and the value from before again if the save is refused (the error is thrown).
 */
export async function saveSetting(queryClient: QueryClient, key: SettingKey, value: string, options: { secret?: boolean } = {}): Promise<TSetting> {
  // A read of the list already under way would bring back the value from before the change.
  await queryClient.cancelQueries({ queryKey: settingsKey });
  const previous = queryClient.getQueryData<TSetting[]>(settingsKey);
  if (!options.secret) queryClient.setQueryData<TSetting[]>(settingsKey, (rows) => rows?.map((row) => (row.key === key ? { ...row, value } : row)));
  try {
    const saved = await updateSetting(key, value);
    saveSettingInCache(queryClient, saved);
    return saved;
  } catch (error) {
    queryClient.setQueryData(settingsKey, previous);
    throw error;
  }
}

export function applySettingsEvent(queryClient: QueryClient, payload: Parameters<ServerToClientEvents['settings']>[0]): void {
  saveSettingInCache(queryClient, payload.setting);
}

export const emailsKey = ['emails'] as const;

export function fetchEmails() {
  return request<TEmailList>('/emails');
}

export function sendTestEmail(to: string | undefined) {
  return request<{ to: string; messageId: string }>('/emails/test', { method: 'POST', body: to ? { to } : {} });
}

export function retryEmail(id: number) {
  return request<TEmail>(`/emails/${id}/retry`, { method: 'POST' });
}
