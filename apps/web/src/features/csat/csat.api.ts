import type { TCsatSettings, TCsatSettingsInput, TTicketRating } from '@zapdesk/shared/csat';
import { request } from '../../core/api/client';

export const csatKeys = {
  settings: (whatsappId: number) => ['csatSettings', whatsappId] as const,
  ratings: (ticketId: number) => ['ticketRatings', ticketId] as const,
};

export function fetchCsatSettings(whatsappId: number) {
  return request<TCsatSettings>(`/whatsapp/${whatsappId}/csat`);
}

export function saveCsatSettings(whatsappId: number, input: TCsatSettingsInput) {
  return request<TCsatSettings>(`/whatsapp/${whatsappId}/csat`, { method: 'PUT', body: input });
}

export function fetchTicketRatings(ticketId: number) {
  return request<TTicketRating[]>(`/tickets/${ticketId}/ratings`);
}
