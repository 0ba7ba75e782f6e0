/**
 * One SMS or call of a campaign, exactly once. The recipient is claimed first ('sending',
 * committed), then Vonage is asked, then its id and the result are recorded. A crash between
 * the claim and the result leaves 'sending', which the next start turns into 'unknown' (Vonage
 * cannot be asked whether it took a message): resent only by the operator, never silently.
 */
import { CALL_LANGUAGES, type CallLanguage } from '@zapdesk/shared/vonage';
import { numberVariants } from '@zapdesk/shared/phone-numbers';
import { isErrorCode, type ErrorCode } from '@zapdesk/shared/errors';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import type { CampaignRow } from '../campaigns/campaigns.repository.js';
import { claimRecipient, retryRecipient, setRecipientStatus, type NextRecipient } from '../campaigns/recipients.repository.js';
import { findContactByAnyNumber, insertChatContactIfAbsent } from '../contacts/contacts.repository.js';
import { createCall, isPassingVonageError, sendSms } from './vonage.client.js';

/** A send Vonage could not take for a passing reason is tried this many times in all. */
export const PHONE_SEND_TRIES = 3;

/** The webhook paths Vonage reports to (under PUBLIC_URL). */
export const SMS_WEBHOOK_PATH = '/api/webhooks/vonage/sms';
export const CALL_WEBHOOK_PATH = '/api/webhooks/vonage/call';

/**
 * sent; retried (a passing failure: the recipient waits its turn again); failed; or paused: the
 * credentials are missing or refused, so every recipient would fail: the campaign waits for
 * the settings to be fixed and the operator to resume it (the recipient stays queued).
 */
export type PhoneOutcome = { status: 'sent' } | { status: 'retried' } | { status: 'failed'; error: ErrorCode } | { status: 'paused'; error: ErrorCode };

function languageOf(campaign: CampaignRow): CallLanguage {
  return Object.values(CALL_LANGUAGES).find((l) => l === campaign.language) ?? 'pt-BR';
}

/** Where Vonage reports back, when the server knows its public address. */
function webhookUrl(ctx: AppContext, path: string): string | undefined {
  return ctx.config.publicUrl ? new URL(path, ctx.config.publicUrl).toString() : undefined;
}

/** A person sent an SMS or called is a contact (named by the number until someone names them). */
async function ensureContact(ctx: AppContext, number: string): Promise<void> {
  if (await findContactByAnyNumber(ctx.db, numberVariants(number))) return;
  await insertChatContactIfAbsent(ctx.db, { name: number, number, isGroup: false }, nowIso());
}

/** Returns undefined when the claim was lost (a pause or a cancel came first): nothing was sent. */
export async function sendPhoneRecipient(ctx: AppContext, campaign: CampaignRow, recipient: NextRecipient): Promise<PhoneOutcome | undefined> {
  if (recipient.number === null) return undefined;
  if (!(await claimRecipient(ctx.db, recipient.id, null, nowIso()))) return undefined;
  const to = recipient.number;
  try {
    const from = campaign.sender ?? '';
    if (!from) throw new AppError('ERR_VONAGE_NO_SENDER');
    const providerId =
      campaign.kind === 'call'
        ? await createCall(ctx, { from, to, text: campaign.message, language: languageOf(campaign), eventUrl: webhookUrl(ctx, CALL_WEBHOOK_PATH) })
        : await sendSms(ctx, { from, to, text: campaign.message, callback: webhookUrl(ctx, SMS_WEBHOOK_PATH) });
    const now = nowIso();
    await setRecipientStatus(ctx.db, recipient.id, { status: 'sent', sentAt: now, error: null, providerId }, { from: ['sending'], now });
    await ensureContact(ctx, to);
    return { status: 'sent' };
  } catch (error) {
    const appError = error instanceof AppError ? error : new AppError('ERR_VONAGE_UNAVAILABLE');
    const code: ErrorCode = isErrorCode(appError.code) ? appError.code : 'ERR_VONAGE_UNAVAILABLE';
    const now = nowIso();
    if (code === 'ERR_VONAGE_NOT_CONFIGURED' || code === 'ERR_VONAGE_AUTH' || code === 'ERR_VONAGE_NO_SENDER' || code === 'ERR_SECRET_UNREADABLE') {
      await setRecipientStatus(ctx.db, recipient.id, { status: 'queued', error: code }, { from: ['sending'], now });
      return { status: 'paused', error: code };
    }
    if (isPassingVonageError(appError) && recipient.attempts + 1 < PHONE_SEND_TRIES) {
      await retryRecipient(ctx.db, recipient.id, code, now);
      return { status: 'retried' };
    }
    await setRecipientStatus(ctx.db, recipient.id, { status: 'failed', error: code }, { from: ['sending'], now });
    return { status: 'failed', error: code };
  }
}
