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
  pt: () => import('./locales/pt').then((m) => withZeroAsPlural(m.pt)),
  es: () => import('./locales/es').then((m) => m.es),
};

type Tree = { [key: string]: string | Tree };

/**
 * Brazilians write '0 números', but the plural rules of Portuguese put 0 with 1 ('0 número'):
 * each `_other` text also answers for zero, unless the bundle has a `_zero` of its own.
 */
export function withZeroAsPlural<T extends object>(bundle: T): T {
  const copy = (tree: Tree): Tree => {
    const out: Tree = {};
    for (const [key, value] of Object.entries(tree)) {
      out[key] = typeof value === 'string' ? value : copy(value);
      const base = key.endsWith('_other') ? key.slice(0, -'_other'.length) : undefined;
      if (base !== undefined && typeof value === 'string' && !(`${base}_zero` in tree)) out[`${base}_zero`] = value;
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
