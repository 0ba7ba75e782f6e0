/** Bulk sends: the calls, the cache keys, and the live `campaign` event folded into the cache. */
import type { QueryClient } from '@tanstack/react-query';
import type { TCampaign, TCampaignCreate, TCampaignList, TCampaignUpdate, TRecipientList } from '@zapdesk/shared/campaigns';
import type { TLocalMediaFile, TLocalMediaList } from '@zapdesk/shared/media-library';
import type { ServerToClientEvents } from '@zapdesk/shared/realtime';
import { downloadFile, request, requestRaw, requestVoid } from '../../core/api/client';
import { csvWords, localizeCsv, type CsvColumn } from '../../core/ui/localizeCsv';
import { i18n } from '../../i18n/i18n';

export type CampaignFilters = { from?: string; to?: string; whatsappId?: number; status?: TCampaign['status']; number?: string; scheduled?: 'true' };

export const campaignsKeys = {
  all: ['campaigns'] as const,
  list: (filters: CampaignFilters) => ['campaigns', 'list', filters] as const,
  detail: (id: number) => ['campaigns', 'detail', id] as const,
  recipients: (id: number) => ['campaigns', 'recipients', id] as const,
  localMedia: ['campaigns', 'localMedia'] as const,
  connected: ['campaigns', 'connected'] as const,
};

export function createCampaign(input: TCampaignCreate) {
  return request<{ campaign: TCampaign; dropped: { blank: number; duplicates: number } }>('/campaigns', { method: 'POST', body: input });
}

export function fetchCampaigns(filters: CampaignFilters, pageNumber: number) {
  return request<TCampaignList>('/campaigns', { query: { ...filters, pageNumber } });
}

export function fetchCampaign(id: number) {
  return request<TCampaign>(`/campaigns/${id}`);
}

export function fetchRecipients(id: number, pageNumber: number) {
  return request<TRecipientList>(`/campaigns/${id}/recipients`, { query: { pageNumber } });
}

export type CampaignAction = 'pause' | 'resume' | 'cancel' | 'resend';

export function controlCampaign(id: number, action: CampaignAction) {
  return request<TCampaign>(`/campaigns/${id}/${action}`, { method: 'POST' });
}

export function updateCampaign(id: number, input: TCampaignUpdate) {
  return request<TCampaign>(`/campaigns/${id}`, { method: 'PUT', body: input });
}

export function fetchLocalMedia() {
  return request<TLocalMediaList>('/local-media');
}

/** Adds a file to the media library (the server's LOCAL_MEDIA_DIR); the answer is the file as listed. */
export function uploadLibraryFile(file: File) {
  const body = new FormData();
  body.append('file', file);
  return request<TLocalMediaFile>('/local-media', { method: 'POST', body });
}

export function deleteLibraryFile(path: string) {
  return requestVoid('/local-media', { method: 'DELETE', query: { path } });
}

/** A file of the library or a send's own file, fetched with the bearer token, as a Blob to preview. */
export async function fetchMediaBlob(source: { libraryPath: string } | { campaignId: number }): Promise<Blob> {
  const response = 'libraryPath' in source ? await requestRaw('/local-media/file', { query: { path: source.libraryPath } }) : await requestRaw(`/campaigns/${source.campaignId}/media`);
  return response.blob();
}

/** A voice note recorded in the browser, kept on the server: its path under the local media folder. */
export async function uploadRecording(file: File): Promise<string> {
  const body = new FormData();
  body.append('file', file);
  return (await request<{ path: string }>('/local-media/recordings', { method: 'POST', body })).path;
}

export function sendScheduledOfDay(day: string, whatsappId: number) {
  return request<{ started: number[] }>('/sendAgendamento', { method: 'POST', body: { dataEnvio: day, ticketwhatsappId: whatsappId } });
}

export function importConnectionHistory(whatsappId: number, limit: number) {
  return request<{ imported: number }>('/syncMessage', { method: 'POST', body: { limit, ticketwhatsappId: whatsappId } });
}

/** The history export's columns in the reader's language (the server writes codes and UTC dates). */
function historyColumns(): Record<string, CsvColumn> {
  const title = (key: 'campaign' | 'kind' | 'connection' | 'author' | 'created' | 'status' | 'numberTyped' | 'number' | 'group' | 'recipientStatus' | 'error' | 'sentAt') =>
    i18n.t(`exports.history.${key}`);
  return {
    campaign: { title: title('campaign') },
    kind: { title: title('kind'), value: csvWords('campaigns.kinds') },
    connection: { title: title('connection') },
    author: { title: title('author') },
    created: { title: title('created'), date: true },
    status: { title: title('status'), value: csvWords('campaigns.status') },
    number_typed: { title: title('numberTyped') },
    number: { title: title('number') },
    group: { title: title('group') },
    recipient_status: { title: title('recipientStatus'), value: csvWords('campaigns.recipientStatus') },
    error: { title: title('error'), value: csvWords('backendErrors') },
    sent_at: { title: title('sentAt'), date: true },
  };
}

/** zdg.csv of the history with these filters, downloaded with the bearer token. */
export function downloadHistoryCsv(filters: CampaignFilters): Promise<void> {
  const query = new URLSearchParams(Object.entries(filters).flatMap(([key, value]) => (value === undefined || value === '' ? [] : [[key, String(value)]])));
  return downloadFile(`/campaigns/export${query.size ? `?${query.toString()}` : ''}`, 'zdg.csv', (text) => localizeCsv(text, historyColumns()));
}

/** A campaign moved on: its detail is replaced, its recipients and the lists are read again when shown. */
export function applyCampaignEvent(queryClient: QueryClient, payload: Parameters<ServerToClientEvents['campaign']>[0]): void {
  queryClient.setQueryData(campaignsKeys.detail(payload.campaign.id), payload.campaign);
  void queryClient.invalidateQueries({ queryKey: campaignsKeys.recipients(payload.campaign.id) });
  void queryClient.invalidateQueries({ queryKey: ['campaigns', 'list'] });
  // An SMS or call moved on: the contact's panel and chat show its state.
  if (payload.campaign.kind === 'sms' || payload.campaign.kind === 'call') void queryClient.invalidateQueries({ queryKey: ['phone', 'sends'] });
}
