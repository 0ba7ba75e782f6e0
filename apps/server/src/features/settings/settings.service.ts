import { createPrivateKey } from 'node:crypto';
import { isEmailList } from '@zapdesk/shared/email';
import { isCountryCode } from '@zapdesk/shared/phone-numbers';
import { MASKED_VALUE, SETTING_KEYS, SETTINGS, isSettingKey, type SettingKey } from '@zapdesk/shared/domain';
import type { TPublicSettings, TSetting } from '@zapdesk/shared/schemas';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { isSealed, seal, unseal } from '../../core/secret-box.js';
import { randomToken } from '../../core/secrets.js';
import { nowIso } from '../../core/time.js';
import * as repo from './settings.repository.js';

/** Settings marked `secret` (the one registry: add a key there) are sealed at rest and write-only. */
function isSecret(key: SettingKey): boolean {
  const def = SETTINGS[key];
  return 'secret' in def && def.secret === true;
}

function toSetting(row: repo.SettingRow & { key: SettingKey }): TSetting {
  const secret = isSecret(row.key);
  const isSet = row.value !== '';
  return { key: row.key, value: secret && isSet ? MASKED_VALUE : row.value, isSet, updatedAt: row.updatedAt };
}

/** Every key of the product gets a value on first start; userApiToken a fresh random one. */
export async function seedSettings(ctx: AppContext): Promise<void> {
  const values = Object.fromEntries(SETTING_KEYS.map((key) => [key, key === 'userApiToken' ? randomToken(24) : SETTINGS[key].default])) as Record<SettingKey, string>;
  // The install's language decides it (see config.ts); an existing install keeps what it has.
  values.defaultCountryCode = ctx.config.defaultCountryCode;
  await repo.insertMissingSettings(ctx.db, values, nowIso());
  // Secret values stored in clear by earlier versions are sealed now.
  for (const row of await repo.listSettingRows(ctx.db)) {
    if (isSettingKey(row.key) && isSecret(row.key) && row.value !== '' && !isSealed(row.value)) await repo.upsertSetting(ctx.db, row.key, seal(ctx.secrets.settingsKey, row.value), nowIso());
  }
}

/** The clear value of a secret setting, for the integration that needs it; '' when not set. */
export async function readSecretSetting(ctx: AppContext, key: SettingKey): Promise<string> {
  const stored = await repo.getSettingValue(ctx.db, key);
  if (stored === '' || !isSealed(stored)) return stored;
  try {
    return unseal(ctx.secrets.settingsKey, stored);
  } catch {
    throw new AppError('ERR_SECRET_UNREADABLE', { message: `${key} was sealed with another key (SECRETS_KEY or secrets.json changed): set it again.` });
  }
}

/** What the sign-in page may know without a session. */
export async function publicSettings(ctx: AppContext): Promise<TPublicSettings> {
  return { signupEnabled: (await repo.getSettingValue(ctx.db, 'userCreation')) === 'enabled' };
}

export async function listSettings(ctx: AppContext): Promise<TSetting[]> {
  const rows = await repo.listSettingRows(ctx.db);
  return rows.flatMap((row) => {
    const key = row.key;
    return isSettingKey(key) ? [toSetting({ ...row, key })] : [];
  });
}

function parseKey(key: string): SettingKey {
  if (!isSettingKey(key)) throw new AppError('ERR_NO_SETTING_FOUND');
  return key;
}

function checkValue(key: SettingKey, value: string): void {
  const def = SETTINGS[key];
  if (def.kind === 'readonly') throw new AppError('ERR_SETTING_READ_ONLY');
  const allowed: readonly string[] | undefined = def.kind === 'toggle' ? ['enabled', 'disabled'] : def.kind === 'select' && 'options' in def ? def.options : undefined;
  if (allowed && !allowed.includes(value)) {
    throw new AppError('ERR_VALIDATION', { message: `${key} must be one of: ${allowed.join(', ')}`, fields: { value: 'INVALID' } });
  }
  const rule = VALUE_RULES[key];
  if (rule && value !== '' && !rule.test(value)) throw new AppError('ERR_VALIDATION', { message: `${key}: ${rule.message}`, fields: { value: 'INVALID' } });
  if (SHOWN_TO_AGENTS.includes(key) && hasCredentials(value)) throw new AppError('ERR_URL_HAS_CREDENTIALS', { fields: { value: 'INVALID' } });
}

/** Addresses every signed-in user reads (the ChatBOT page frames the Typebot server). */
const SHOWN_TO_AGENTS: readonly SettingKey[] = ['typebotUrl'];

function hasCredentials(value: string): boolean {
  try {
    const url = new URL(value);
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
}

/** Text settings with a shape: checked here, so a typo is refused instead of failing later. */
const VALUE_RULES: Partial<Record<SettingKey, { test: (value: string) => boolean; message: string }>> = {
  defaultCountryCode: { test: (v) => isCountryCode(v), message: 'a country code, 1 to 3 digits (55 for Brazil), or empty for none' },
  emailPort: { test: (v) => /^\d{1,5}$/.test(v) && Number(v) >= 1 && Number(v) <= 65535, message: 'a port number, 1 to 65535' },
  emailHost: { test: (v) => /^[A-Za-z0-9.-]{1,253}$|^\[[0-9A-Fa-f:.]+\]$/.test(v), message: 'a host name or an IP address' },
  emailFrom: { test: (v) => isEmailList(v, 1), message: 'one e-mail address' },
  emailTo: { test: (v) => isEmailList(v, 20), message: 'e-mail addresses separated by commas' },
  typebotTime: { test: (v) => /^\d{1,5}$/.test(v) && Number(v) >= 1, message: 'minutes, 1 or more' },
  typebotDebounce: { test: (v) => /^\d{1,2}$/.test(v) && Number(v) <= 60, message: 'seconds, 0 to 60' },
  vonageApiKey: { test: (v) => /^[A-Za-z0-9]{4,40}$/.test(v), message: 'letters and digits, as the Vonage dashboard shows it' },
  vonageApiId: { test: (v) => /^[0-9a-f-]{36}$/i.test(v), message: 'an application id (a UUID)' },
  vonagePrivateKey: { test: (v) => /-----BEGIN (RSA )?PRIVATE KEY-----[\s\S]+-----END (RSA )?PRIVATE KEY-----/.test(v), message: 'the PEM private key of the Vonage application' },
  vonageFrom: { test: (v) => /^\+?\d{3,15}$/.test(v) || /^[A-Za-z0-9 ]{1,11}$/.test(v), message: 'a number or a sender name of up to 11 letters and digits' },
  typebotUrl: { test: (v) => /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/i.test(v), message: 'the address of the Typebot server, http(s)://host' },
};

/**
 * A PEM key pasted into a one-line field loses its line breaks: it is put back in shape (and
 * must then be a private key Node can read).
 */
function normalizePrivateKey(value: string): string {
  const match = /-----BEGIN ((?:RSA )?PRIVATE KEY)-----([\s\S]+?)-----END \1-----/.exec(value);
  if (!match) return value;
  const body = (match[2] ?? '').replace(/\s+/g, '').match(/.{1,64}/g) ?? [];
  const pem = `-----BEGIN ${match[1]}-----\n${body.join('\n')}\n-----END ${match[1]}-----\n`;
  try {
    createPrivateKey(pem);
  } catch {
    throw new AppError('ERR_VALIDATION', { message: 'vonagePrivateKey: not a private key Node can read', fields: { value: 'INVALID' } });
  }
  return pem;
}

export async function updateSetting(ctx: AppContext, rawKey: string, rawValue: string): Promise<TSetting> {
  const key = parseKey(rawKey);
  const value = key === 'vonagePrivateKey' && rawValue !== '' && rawValue !== MASKED_VALUE ? normalizePrivateKey(rawValue) : rawValue;
  checkValue(key, value);
  const secret = isSecret(key);
  // The mask sent back (a form saved without touching the field) keeps what is stored.
  if (secret && value === MASKED_VALUE) return (await listSettings(ctx)).find((s) => s.key === key) ?? toSetting({ key, value: '', updatedAt: nowIso() });
  const stored = secret && value !== '' ? seal(ctx.secrets.settingsKey, value) : value;
  const row = await repo.upsertSetting(ctx.db, key, stored, nowIso());
  const setting = toSetting({ ...row, key });
  ctx.events.publish('setting.updated', { setting });
  return setting;
}

export async function regenerateApiToken(ctx: AppContext): Promise<TSetting> {
  const row = await repo.upsertSetting(ctx.db, 'userApiToken', randomToken(24), nowIso());
  const setting = toSetting({ ...row, key: 'userApiToken' });
  ctx.events.publish('setting.updated', { setting });
  return setting;
}
