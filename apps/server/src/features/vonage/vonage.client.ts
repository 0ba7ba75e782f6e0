/**
 * Vonage through its official SDK: SMS (the SMS API), calls (the Voice API, text read by an NCCO
 * `talk` action) and the account balance. Credentials come from the settings on every call, so
 * a change there applies at once. Errors leave here as AppErrors carrying Vonage's status or
 * code only: the SDK's own errors hold the request, with its credentials, and are never logged.
 */
import type { Vonage } from '@vonage/server-sdk';
import type { CallLanguage } from '@zapdesk/shared/vonage';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { getSettingValue } from '../settings/settings.repository.js';
import { readSecretSetting } from '../settings/settings.service.js';

/** How long one request to Vonage may take. */
const REQUEST_TIMEOUT_MS = 15_000;

type Credentials = { apiKey: string; apiSecret: string; applicationId: string; privateKey: string };

async function readCredentials(ctx: AppContext): Promise<Credentials> {
  return {
    apiKey: (await getSettingValue(ctx.db, 'vonageApiKey')).trim(),
    apiSecret: await readSecretSetting(ctx, 'vonageApiSecret'),
    applicationId: (await getSettingValue(ctx.db, 'vonageApiId')).trim(),
    privateKey: await readSecretSetting(ctx, 'vonagePrivateKey'),
  };
}

/**
 * The SDK is loaded on the first call to Vonage: it brings every Vonage API (about 800 modules,
 * a third of what the server loads), and most servers never send an SMS.
 */
async function client(ctx: AppContext, credentials: Partial<Credentials>): Promise<Vonage> {
  const { Vonage } = await import('@vonage/server-sdk');
  return new Vonage(credentials, { restHost: ctx.config.vonageRestUrl, apiHost: ctx.config.vonageApiUrl, timeout: REQUEST_TIMEOUT_MS });
}

type SmsType = NonNullable<Parameters<Vonage['sms']['send']>[0]>['type'];

/** SMS API statuses that pass (throttled, Vonage's internal error): tried again later. */
const SMS_PASSING = new Set(['1', '5']);
/** SMS API statuses that mean the credentials are wrong. */
const SMS_AUTH = new Set(['4', '14', '32']);

/**
 * What a failed call to Vonage means for us. HTTP 401/403: the credentials; 429 and 5xx, a
 * timeout or no answer at all: passing (tried again); any other 4xx: this message is refused.
 */
function classify(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const failure = error as { name?: string; response?: { status?: number; messages?: { status?: string; errorText?: string }[] } };
  const smsMessage = failure.response?.messages?.find((m) => m.status !== '0');
  if (smsMessage?.status !== undefined) {
    const detail = `Vonage SMS status ${smsMessage.status}${smsMessage.errorText ? `: ${smsMessage.errorText.slice(0, 200)}` : ''}`;
    if (SMS_AUTH.has(smsMessage.status)) return new AppError('ERR_VONAGE_AUTH', { message: detail });
    if (SMS_PASSING.has(smsMessage.status)) return new AppError('ERR_VONAGE_UNAVAILABLE', { message: detail });
    return new AppError('ERR_VONAGE_REFUSED', { message: detail });
  }
  const status = failure.response?.status;
  if (status === 401 || status === 403) return new AppError('ERR_VONAGE_AUTH', { message: `Vonage answered ${status}.` });
  if (status !== undefined && status !== 429 && status < 500) return new AppError('ERR_VONAGE_REFUSED', { message: `Vonage answered ${status}.` });
  return new AppError('ERR_VONAGE_UNAVAILABLE', { message: status !== undefined ? `Vonage answered ${status}.` : 'Vonage could not be reached.' });
}

export function isPassingVonageError(error: AppError): boolean {
  return error.code === 'ERR_VONAGE_UNAVAILABLE';
}

/** The account balance: the settings page's credentials test. */
export async function getBalance(ctx: AppContext): Promise<{ value: number; autoReload: boolean }> {
  const { apiKey, apiSecret } = await readCredentials(ctx);
  if (!apiKey || !apiSecret) throw new AppError('ERR_VONAGE_NOT_CONFIGURED');
  try {
    const vonage = await client(ctx, { apiKey, apiSecret });
    const balance = await vonage.accounts.getBalance();
    return { value: Number(balance.value), autoReload: Boolean(balance.autoReload) };
  } catch (error) {
    throw classify(error);
  }
}

/** Sends one SMS; Vonage's message id. `callback`: where its delivery receipt goes. */
export async function sendSms(ctx: AppContext, sms: { from: string; to: string; text: string; callback?: string | undefined }): Promise<string> {
  const { apiKey, apiSecret } = await readCredentials(ctx);
  if (!apiKey || !apiSecret) throw new AppError('ERR_VONAGE_NOT_CONFIGURED');
  try {
    const vonage = await client(ctx, { apiKey, apiSecret });
    const answer = await vonage.sms.send({
      from: sms.from,
      to: sms.to,
      text: sms.text,
      // The SDK sends 'text' as GSM-7 unless told: Vonage needs 'unicode' for anything else.
      type: (/^[\x20-\x7E\n\r]*$/.test(sms.text) ? 'text' : 'unicode') as SmsType,
      ...(sms.callback ? { callback: sms.callback } : {}),
    });
    const id = answer.messages[0]?.messageId;
    if (!id) throw new AppError('ERR_VONAGE_UNAVAILABLE', { message: 'Vonage answered without a message id.' });
    return id;
  } catch (error) {
    throw classify(error);
  }
}

/** Places one call that reads `text` in `language`; Vonage's call id. `eventUrl`: where its status events go. */
export async function createCall(ctx: AppContext, call: { from: string; to: string; text: string; language: CallLanguage; eventUrl?: string | undefined }): Promise<string> {
  const { applicationId, privateKey } = await readCredentials(ctx);
  if (!applicationId || !privateKey) throw new AppError('ERR_VONAGE_NOT_CONFIGURED');
  try {
    const vonage = await client(ctx, { applicationId, privateKey });
    const answer = await vonage.voice.createOutboundCall({
      to: [{ type: 'phone', number: call.to }],
      from: { type: 'phone', number: call.from },
      ncco: [{ action: 'talk', text: call.text, language: call.language }],
      ...(call.eventUrl ? { eventUrl: [call.eventUrl], eventMethod: 'POST' } : {}),
    } as Parameters<Vonage['voice']['createOutboundCall']>[0]);
    if (!answer.uuid) throw new AppError('ERR_VONAGE_UNAVAILABLE', { message: 'Vonage answered without a call id.' });
    return answer.uuid;
  } catch (error) {
    throw classify(error);
  }
}
