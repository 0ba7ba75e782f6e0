/**
 * What a contact was sent by SMS or call, shared by the contact's panel and the chat's timeline
 * (one query per contact). While a send has no final report yet, it is read again now and then:
 * Vonage's reports reach admins live, but agents only through this.
 */
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { phoneReport, type TPhoneSend } from '@zapdesk/shared/vonage';
import { fetchPhoneSends } from './phone.api';

const FINAL_REPORTS = new Set(['delivered', 'completed', 'machine', 'failed', 'rejected', 'expired', 'busy', 'cancelled', 'timeout', 'unanswered', 'unknown']);
const REFRESH_WHILE_PENDING_MS = 20_000;

export const phoneSendsKey = (contactId: number) => ['phone', 'sends', contactId] as const;

function pending(sends: TPhoneSend[] | undefined): boolean {
  return (sends ?? []).some((s) => s.status !== 'failed' && !(s.delivery && FINAL_REPORTS.has(phoneReport(s.delivery))));
}

export function usePhoneSends(contactId: number | undefined) {
  return useQuery({
    queryKey: phoneSendsKey(contactId ?? 0),
    queryFn: () => fetchPhoneSends(contactId ?? 0),
    enabled: contactId !== undefined && contactId > 0,
    refetchInterval: (query) => (pending(query.state.data?.sends) ? REFRESH_WHILE_PENDING_MS : false),
  });
}

/** When it went: sent, or else created (still waiting its turn). */
export function phoneSendTime(send: TPhoneSend): string {
  return send.sentAt ?? send.createdAt;
}

/** Its state in words: Vonage's last report, else where the send stands. */
export function phoneSendState(t: TFunction, send: TPhoneSend): string {
  if (send.delivery) return t(`phone.delivery.${phoneReport(send.delivery)}`);
  return t(`campaigns.recipientStatus.${send.status === 'sent' || send.status === 'failed' ? send.status : 'queued'}`);
}

/** A state the agent should notice: not delivered. */
export function phoneSendFailed(send: TPhoneSend): boolean {
  return send.status === 'failed';
}
