/**
 * SMS and calls as campaigns: stored recipient by recipient, then sent by the campaign sender
 * on the telephony lane at about one every five seconds (PHONE_PACE_SECONDS). Vonage's
 * webhooks then say what became of each: delivered, answered, completed, failed...
 */
import type { TCampaign } from '@zapdesk/shared/campaigns';
import { PHONE_REPORTS, phoneReport, type CallLanguage, type PhoneReport, type TPhoneSend } from '@zapdesk/shared/vonage';
import { numberVariants } from '@zapdesk/shared/phone-numbers';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import { publishCampaign, storeCampaign, typedRecipients, type CampaignActor } from '../campaigns/campaigns.service.js';
import { findPhoneRecipient, phoneSendsTo, recordDelivery } from './phone-sends.repository.js';
import { getSettingValue } from '../settings/settings.repository.js';
import { typedNumberReader } from '../settings/typed-numbers.js';

export type PhoneCampaignInput = { kind: 'sms' | 'call'; from: string; numbers: string; text: string; language?: CallLanguage | undefined; scheduledAt?: string | undefined };

/** The sender typed, else the settings' default; a number loses its '+'. */
async function senderOf(ctx: AppContext, typed: string): Promise<string> {
  const from = typed.trim() || (await getSettingValue(ctx.db, 'vonageFrom')).trim();
  if (!from) throw new AppError('ERR_VONAGE_NO_SENDER', { fields: { from: 'REQUIRED' } });
  return /^\+?\d+$/.test(from) ? from.replace('+', '') : from;
}

export async function createPhoneCampaign(ctx: AppContext, actor: CampaignActor, input: PhoneCampaignInput): Promise<{ campaign: TCampaign; dropped: { blank: number; duplicates: number } }> {
  const sender = await senderOf(ctx, input.from);
  // 'Not a number' says it all: WhatsApp's error text would be wrong here.
  const typed = typedRecipients(input.numbers, { field: 'numbers', invalidError: null, read: await typedNumberReader(ctx, 'phone') });
  const campaign = await storeCampaign(ctx, actor, {
    kind: input.kind,
    audience: 'numbers',
    whatsappId: null,
    sender,
    language: input.kind === 'call' ? (input.language ?? 'pt-BR') : undefined,
    message: input.text,
    media: undefined,
    pace: ctx.config.phonePace,
    scheduledAt: input.scheduledAt,
    recipients: typed.recipients,
  });
  return { campaign, dropped: typed.dropped };
}

/**
 * How far along a report is: a later report never goes back to an earlier one (webhooks can
 * arrive out of order). Final reports are 3; the 'not delivered' ones among them fail the recipient.
 */
const REPORT_STAGE: Record<PhoneReport, number> = {
  submitted: 0,
  started: 1,
  ringing: 1,
  accepted: 1,
  buffered: 1,
  answered: 2,
  delivered: 3,
  completed: 3,
  machine: 3,
  failed: 3,
  rejected: 3,
  expired: 3,
  busy: 3,
  cancelled: 3,
  timeout: 3,
  unanswered: 3,
  unknown: 3,
};
const NOT_DELIVERED = new Set<PhoneReport>(['failed', 'rejected', 'expired', 'busy', 'cancelled', 'timeout', 'unanswered']);

/** A report from Vonage about a sent SMS or call. Unknown ids and statuses are ignored (answered 204 all the same). */
export async function applyReport(ctx: AppContext, kind: 'sms' | 'call', providerId: string, rawStatus: string): Promise<boolean> {
  const status = rawStatus.toLowerCase();
  if (!(PHONE_REPORTS as readonly string[]).includes(status)) return false;
  const report = phoneReport(status);
  const stage = REPORT_STAGE[report];
  const recipient = await findPhoneRecipient(ctx.db, kind, providerId);
  if (!recipient) return false;
  const before = recipient.delivery === null ? -1 : REPORT_STAGE[phoneReport(recipient.delivery)];
  if (stage < before || (stage === before && before === 3)) return false;
  const failed = NOT_DELIVERED.has(report) ? 'ERR_VONAGE_NOT_DELIVERED' : undefined;
  // A recipient the sender already gave up on keeps its failure; a report still shows.
  const moved = await recordDelivery(ctx.db, recipient.id, recipient.delivery, { delivery: report, failed }, nowIso());
  if (moved) await publishCampaign(ctx, recipient.campaignId);
  return moved;
}

/** What a contact was sent by SMS or call, newest first: for the contact's panel. */
export async function phoneSendsOfNumber(ctx: AppContext, number: string): Promise<TPhoneSend[]> {
  return phoneSendsTo(ctx.db, numberVariants(number), 20);
}
