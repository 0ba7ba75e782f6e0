/**
 * i18next set-up: pt, en, es. The first visit follows the browser's language; a choice made in
 * the UI is remembered in localStorage. Only the language in use is loaded (each is a chunk of
 * its own): every locale is typed against the English one, so none needs another as fallback.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Messages } from './locales/en';

export const LANGUAGES = ['pt', 'en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

const LOCALES: Record<Language, () => Promise<Messages>> = {
  en: () => import('./locales/en').then((m) => m.en),
  pt: () => import('./locales/pt').then((m) => withPluralForms(m.pt, ['zero', 'many'])),
  es: () => import('./locales/es').then((m) => withPluralForms(m.es, ['many'])),
};

type Tree = { [key: string]: string | Tree };

/**
 * The plural forms the bundles leave to `_other`. Portuguese and Spanish have a 'many' form for
 * millions (1.000.000 de números) that reads like `_other`. And Brazilians write '0 números', but
 * the plural rules of Portuguese put 0 with 1 ('0 número'): with `zero`, each `_other` text also
 * answers for zero. A form the bundle has of its own is kept.
 */
export function withPluralForms<T extends object>(bundle: T, forms: readonly ('zero' | 'many')[]): T {
  const copy = (tree: Tree): Tree => {
    const out: Tree = {};
    for (const [key, value] of Object.entries(tree)) {
      out[key] = typeof value === 'string' ? value : copy(value);
      if (typeof value !== 'string' || !key.endsWith('_other')) continue;
      const base = key.slice(0, -'_other'.length);
      for (const form of forms) if (!(`${base}_${form}` in tree)) out[`${base}_${form}`] = value;
    }
    return out;
  };
  return copy(bundle as Tree) as T;
}

const STORAGE_KEY = 'language';
const FALLBACK: Language = 'en';

function isLanguage(value: string | null | undefined): value is Language {
  return LANGUAGES.some((language) => language === value);
}

function detectLanguage(): Language {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (isLanguage(stored)) return stored;
  } catch {
    // Storage disabled: fall through to the browser's languages.
  }
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return FALLBACK;
}

export function currentLanguage(): Language {
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : FALLBACK;
}

async function ensureLoaded(language: Language): Promise<void> {
  if (!i18n.hasResourceBundle(language, 'translation')) i18n.addResourceBundle(language, 'translation', await LOCALES[language]());
}

export async function changeLanguage(language: Language): Promise<void> {
  await ensureLoaded(language);
  localStorage.setItem(STORAGE_KEY, language);
  await i18n.changeLanguage(language);
}

i18n.on('languageChanged', (language) => {
  document.documentElement.lang = language;
});

/** Resolves once the language in use is loaded; the app renders after it. */
export async function initI18n(): Promise<void> {
  const language = detectLanguage();
  await i18n.use(initReactI18next).init({
    resources: { [language]: { translation: await LOCALES[language]() } },
    lng: language,
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
    returnNull: false,
  });
}

export { i18n };
