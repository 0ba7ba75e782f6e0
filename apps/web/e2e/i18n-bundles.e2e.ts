/**
 * The three language bundles, checked as data (no browser): every key in every language, plural
 * forms complete, the same {{placeholders}}, and no English left in the Portuguese and Spanish
 * texts. English is found two ways: a text identical to the English one, and a text that contains
 * common English words. Both have a short allow list, each entry with its reason.
 */
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { withPluralForms } from '../src/i18n/i18n';
import { en } from '../src/i18n/locales/en';
import { es } from '../src/i18n/locales/es';
import { pt } from '../src/i18n/locales/pt';

type Tree = { [key: string]: string | Tree };

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

/** Keys with the plural suffix taken off: 'a.count_one' and 'a.count_other' are the one key 'a.count'. */
function baseKeys(flat: Map<string, string>): Set<string> {
  return new Set([...flat.keys()].map((key) => key.replace(PLURAL_SUFFIX, '')));
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]!).sort();
}

const bundles = { en: flatten(en), pt: flatten(pt), es: flatten(es) };

/**
 * Texts that read the same in every language: brands, product names, codes and technical terms
 * that Brazilian and Spanish-speaking users use as they are.
 */
const SAME_IN_EVERY_LANGUAGE = new Set([
  'ZapDesk',
  'WhatsApp',
  'Google Maps',
  'Typebot',
  'Instagram',
  'Direct IG',
  'Kanban',
  'Dashboard',
  'Bot',
  'Chatbot',
  'SMS',
  'CSV',
  'QR',
  'QR code',
  'OK',
  'E-mail',
  'Email',
  'Webhook',
  'Token',
  'Tags',
  'Tag',
  'Chat',
  'Status',
  'Online',
  'Offline',
  'Links',
  'Link',
  'Backup',
  'Login',
  'Logo',
  'Total',
  'Normal',
  'Local',
  'Global',
  'Menu',
  'Host',
  'SMTP',
  'IMAP',
  'URL',
  'API',
  'ID',
  'PIN',
  'Twilio',
  'Meta',
  'Redis',
  'English',
  'Português',
  'Español',
  'Admin',
]);

/** Words spelled alike in English and one of the other languages (Spanish 'Error', 'General', 'Roles'). */
const SAME_BY_LANGUAGE: Record<'pt' | 'es', Set<string>> = {
  pt: new Set([]),
  es: new Set(['Error', 'General', 'Roles', 'Audio', 'Video']),
};

/** Keys whose identical value is right for a reason the word list above cannot show. */
const SAME_BY_KEY: Record<string, string> = {
  'language.en': 'each language is named in its own language',
  'language.pt': 'each language is named in its own language',
  'language.es': 'each language is named in its own language',
};

/** A value made only of placeholders, numbers, punctuation, symbols and allowed words is not English. */
function sameIsFine(language: 'pt' | 'es', key: string, value: string): boolean {
  if (key in SAME_BY_KEY) return true;
  const stripped = withoutCode(value);
  // Numbers with units ('1 h', '< 1 min', '{{days}} d {{hours}} h') read the same in the three languages.
  if (!/\p{L}/u.test(stripped.replace(/\b\d*\s?(s|min|h|d)\b/g, ' '))) return true;
  if (SAME_IN_EVERY_LANGUAGE.has(value.trim())) return true;
  // Made only of allowed names, codes and words of this language (e.g. 'WhatsApp · QR', 'Error: {{message}}').
  const words = stripped.match(/[\p{L}][\p{L}\d-]*/gu) ?? [];
  return words.every((word) => SAME_IN_EVERY_LANGUAGE.has(word) || SAME_BY_LANGUAGE[language].has(word) || /^[A-Z\d-]{2,}$/.test(word) || FOREIGN_TERMS.has(word.toLowerCase()));
}

/** Words that are English and neither Portuguese nor Spanish ('no', 'a', 'de', 'son', 'come', 'final'… are left out). */
const ENGLISH_WORDS = new Set(
  `the and with your you this that these those from please click failed fail send sent save saved cancel
  delete deleted user users message messages connection connections settings setting select search loading
  close closed new name number numbers date time queue queues contact contacts group groups add added edit edited
  remove removed yes not will can cannot have been are is was were of to on at by all none any when which
  what who how there here after before now today yesterday week month year file files upload download export
  only more less show hide back next previous done start stop sending waiting pending enabled disabled default
  required optional invalid empty must should also than then them they their our we my it its be does did off
  out up down over into about just every each other some first last page copy copied paste reply forward
  forwarded image photo document location unknown members member agent agents answer answers quick
  schedule scheduled history import imported open opened resolved transfer transferred accept accepted
  return returned sign password passwords account profile role permission permissions audit log logs
  notification notifications minute minutes hour hours day days seconds second yet already again still without
  while until since per being here's don't can't won't isn't doesn't it's you're we're there's`
    .split(/\s+/)
    .filter(Boolean),
);

/** Loanwords Brazilians and Spanish speakers use as they are; never counted as English. */
const FOREIGN_TERMS = new Set(
  `whatsapp typebot instagram kanban dashboard bot bots chatbot sms csv qr ok e-mail email emails webhook webhooks token tokens
  tag tags chat chats status online offline link links backup login logout logo host smtp imap url api id pin
  twilio meta redis zapdesk ddd emoji emojis mp3 ogg mp4 pdf json http https tls ssl ip cpf cnpj nfc totp
  ticket tickets check-in download upload`
    .split(/\s+/)
    .filter(Boolean),
);

/** Keys where an English word is right; each with the reason. */
const ENGLISH_BY_KEY: Record<string, string> = {
  'language.en': "'English' is the language's own name",
};

/** Placeholders, addresses, settings written as code (SIMULATOR=on) and identifiers (snake_case) are not prose. */
function withoutCode(value: string): string {
  return value
    .replace(/\{\{[^}]*\}\}/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/`[^`]*`/g, ' ')
    .replace(/\b[\w.-]+@[\w.-]+\b/g, ' ')
    .replace(/\b[A-Z][A-Z\d_]*=\S+/g, ' ')
    .replace(/\b\w+_\w+\b/g, ' ');
}

function englishWords(value: string): string[] {
  const text = withoutCode(value);
  const words = text.match(/[\p{L}][\p{L}']*/gu) ?? [];
  return words.filter((word) => {
    const lower = word.toLowerCase();
    return ENGLISH_WORDS.has(lower) && !FOREIGN_TERMS.has(lower);
  });
}

describe('language bundles', () => {
  it('have the same keys in pt, en and es, plural forms counted as one key', () => {
    const keys = { en: baseKeys(bundles.en), pt: baseKeys(bundles.pt), es: baseKeys(bundles.es) };
    const all = new Set([...keys.en, ...keys.pt, ...keys.es]);
    const missing: string[] = [];
    for (const key of all) for (const language of ['en', 'pt', 'es'] as const) if (!keys[language].has(key)) missing.push(`${language}: ${key}`);
    expect(missing).toEqual([]);
  });

  it('give every plural both its _one and _other form in every language', () => {
    const problems: string[] = [];
    for (const [language, flat] of Object.entries(bundles)) {
      const plurals = new Set([...flat.keys()].filter((key) => PLURAL_SUFFIX.test(key)).map((key) => key.replace(PLURAL_SUFFIX, '')));
      for (const base of plurals) {
        for (const form of ['one', 'other']) if (!flat.has(`${base}_${form}`)) problems.push(`${language}: ${base}_${form}`);
        if (flat.has(base)) problems.push(`${language}: ${base} has plural forms and a plain form`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('use the same {{placeholders}} as the English text', () => {
    const problems: string[] = [];
    for (const language of ['pt', 'es'] as const) {
      for (const [key, value] of bundles[language]) {
        const english = bundles.en.get(key) ?? bundles.en.get(`${key.replace(PLURAL_SUFFIX, '')}_other`) ?? bundles.en.get(key.replace(PLURAL_SUFFIX, ''));
        if (english === undefined) continue;
        const mine = new Set(placeholders(value).filter((name) => name !== 'count'));
        const theirs = new Set(placeholders(english).filter((name) => name !== 'count'));
        for (const name of theirs) if (!mine.has(name)) problems.push(`${language}: ${key} lacks {{${name}}}`);
        for (const name of mine) if (!theirs.has(name)) problems.push(`${language}: ${key} has an unknown {{${name}}}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('leave no English text in Portuguese and Spanish', () => {
    const problems: string[] = [];
    for (const language of ['pt', 'es'] as const) {
      for (const [key, value] of bundles[language]) {
        const english = bundles.en.get(key);
        if (english !== undefined && english.trim() === value.trim() && !sameIsFine(language, key, value)) problems.push(`${language}: ${key} = ${JSON.stringify(value)} (same as English)`);
        else if (!(key in ENGLISH_BY_KEY)) {
          const found = englishWords(value);
          if (found.length > 0) problems.push(`${language}: ${key} = ${JSON.stringify(value)} (English: ${found.join(', ')})`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('count with plural forms, never with a (s) in the text', () => {
    const problems: string[] = [];
    for (const [language, flat] of Object.entries(bundles)) {
      for (const [key, value] of flat) if (/\p{L}\((s|es|ns|as|os)\)/u.test(value)) problems.push(`${language}: ${key} = ${JSON.stringify(value)}`);
    }
    expect(problems).toEqual([]);
  });

  it('count 0, 1, 2 and a million the way each language writes them', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({
      lng: 'pt',
      resources: {
        pt: { translation: withPluralForms(pt, ['zero', 'many']) },
        es: { translation: withPluralForms(es, ['many']) },
        en: { translation: en },
      },
      interpolation: { escapeValue: false },
    });
    const key = 'campaigns.form.started';
    const say = (lng: string, count: number) => i18n.t(key, { lng, count });
    expect([0, 1, 2, 1_000_000].map((count) => say('pt', count))).toEqual(['Enviando para 0 números.', 'Enviando para 1 número.', 'Enviando para 2 números.', 'Enviando para 1000000 números.']);
    expect([0, 1, 1_000_000].map((count) => say('es', count))).toEqual(['Enviando a 0 números.', 'Enviando a 1 número.', 'Enviando a 1000000 números.']);
    expect([0, 1].map((count) => say('en', count))).toEqual(['Sending to 0 numbers.', 'Sending to 1 number.']);
  });
});
