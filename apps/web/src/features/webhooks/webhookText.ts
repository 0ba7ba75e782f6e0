/** How the webhooks screens word things: event names by group, a delivery's answer, its duration and times. */
import { WEBHOOK_EVENTS, WEBHOOK_PING_EVENT, type TWebhookDelivery, type WebhookEvent } from '@zapdesk/shared/webhooks';
import { formatDay, formatTime } from '../../core/ui/formatDate';
import { currentLanguage, i18n } from '../../i18n/i18n';

export const EVENT_GROUPS = [
  { key: 'tickets', events: ['ticket.created', 'ticket.updated', 'ticket.closed'] },
  { key: 'messages', events: ['message.created', 'message.ack'] },
  { key: 'contacts', events: ['contact.created', 'contact.updated'] },
  { key: 'campaigns', events: ['campaign.finished'] },
  { key: 'connections', events: ['connection.status'] },
] as const satisfies readonly { key: string; events: readonly WebhookEvent[] }[];

function isWebhookEvent(event: string): event is WebhookEvent {
  return WEBHOOK_EVENTS.some((known) => known === event);
}

/** An event in the reader's language ('Ticket criado'); the test sent from the page is 'Teste'. */
export function eventName(event: string): string {
  if (event === WEBHOOK_PING_EVENT) return i18n.t('webhooks.eventNames.ping');
  return isWebhookEvent(event) ? i18n.t(`webhooks.eventNames.${event}`) : event;
}

export function eventHelp(event: WebhookEvent): string {
  return i18n.t(`webhooks.eventHelp.${event}`);
}

/** The events in the order of the groups, so a list reads the same everywhere. */
export function sortedEvents(events: readonly WebhookEvent[]): WebhookEvent[] {
  return WEBHOOK_EVENTS.filter((event) => events.includes(event));
}

/** The server's words for an attempt that got no answer (webhook-post.ts), in the reader's language. */
const ERRORS: [RegExp, 'timeout' | 'refused' | 'reset' | 'notFound' | 'forbidden' | 'invalid' | 'redirect'][] = [
  [/^timeout$/i, 'timeout'],
  [/^connection refused$/i, 'refused'],
  [/^connection reset$/i, 'reset'],
  [/^host not found$/i, 'notFound'],
  [/^address not allowed$/i, 'forbidden'],
  [/^invalid address$/i, 'invalid'],
  [/^redirect not followed$/i, 'redirect'],
];

/** Why the last attempt did not get through: a non-2xx answer, or the reason there was none. */
export function failureText(delivery: Pick<TWebhookDelivery, 'responseStatus' | 'error'>): string {
  const error = delivery.error ?? '';
  const known = ERRORS.find(([pattern]) => pattern.test(error.trim()));
  if (known) return i18n.t(`webhooks.errors.${known[1]}`);
  if (delivery.responseStatus !== null && (delivery.responseStatus < 200 || delivery.responseStatus >= 300)) return i18n.t('webhooks.errors.status', { status: delivery.responseStatus });
  return error ? i18n.t('webhooks.errors.unknown') : '';
}

/** The answer column: 'HTTP 200', or why there was none. */
export function answerText(delivery: Pick<TWebhookDelivery, 'responseStatus' | 'error' | 'attempts'>): string {
  if (delivery.responseStatus !== null) return i18n.t('webhooks.list.http', { status: delivery.responseStatus });
  if (delivery.error) return failureText(delivery);
  return i18n.t('webhooks.list.noAnswer');
}

const LOCALE = { pt: 'pt-BR', en: 'en-US', es: 'es-ES' } as const;

/** 120 ms, 1,5 s: how long the last attempt took. */
export function durationText(ms: number | null): string {
  if (ms === null) return '—';
  const locale = LOCALE[currentLanguage()];
  if (ms < 1000) return new Intl.NumberFormat(locale, { style: 'unit', unit: 'millisecond', maximumFractionDigits: 0 }).format(ms);
  return new Intl.NumberFormat(locale, { style: 'unit', unit: 'second', maximumFractionDigits: 1 }).format(ms / 1000);
}

/** dd/mm/aaaa HH:mm (en: mm/dd/yyyy HH:mm). */
export function dateTimeText(iso: string | null): string {
  return iso ? `${formatDay(iso)} ${formatTime(iso)}` : '—';
}

/** The toast after an action sent one delivery at once (a test, a resend), from the server's answer. */
export function outcomeToast(
  { delivery, settled }: { delivery: TWebhookDelivery; settled: boolean },
  keys: {
    delivered: 'webhooks.testDelivered' | 'webhooks.list.resendDelivered';
    failed: 'webhooks.testNotDelivered' | 'webhooks.list.resendNotDelivered';
    stored: 'webhooks.testStored' | 'webhooks.list.resendStored';
  },
) {
  if (delivery.status === 'delivered') return { kind: 'success' as const, text: i18n.t(keys.delivered, { status: delivery.responseStatus ?? 200 }) };
  const reason = failureText(delivery);
  if (!settled || reason === '') return { kind: 'info' as const, text: i18n.t(keys.stored) };
  return { kind: 'warning' as const, text: i18n.t(keys.failed, { reason }) };
}
