/** SMS and calls through Vonage: the two sends, the credentials test, and what a contact was sent. */
import type { TCampaign } from '@zapdesk/shared/campaigns';
import type { TCallCreate, TPhoneSend, TSmsCreate, TVonageBalance } from '@zapdesk/shared/vonage';
import { request } from '../../core/api/client';

type Created = { campaign: TCampaign; dropped: { blank: number; duplicates: number } };

export function sendSms(input: TSmsCreate) {
  return request<Created>('/sms', { method: 'POST', body: input });
}

export function placeCalls(input: TCallCreate) {
  return request<Created>('/calls', { method: 'POST', body: input });
}

export function testVonage() {
  return request<TVonageBalance>('/vonage/balance', { method: 'POST' });
}

export function fetchPhoneSends(contactId: number) {
  return request<{ sends: TPhoneSend[] }>(`/contacts/${contactId}/phone-sends`);
}
