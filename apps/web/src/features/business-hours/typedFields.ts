/**
 * Times and dates typed as text, the same in every browser: 'HH:MM' on a 24-hour clock, and a
 * holiday as the screen's language writes dates (dd/mm/aaaa; mm/dd/yyyy in English).
 */
import type { Language } from '../../i18n/i18n';

/** What is typed in a time field, with the colon put in: '0830' → '08:30'. */
export function typedTime(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits;
}

/** What is typed in a date field, with the slashes put in: '25122026' → '25/12/2026'. */
export function typedDate(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 8);
  return [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4)].filter((part) => part !== '').join('/');
}

export const datePattern = (language: Language) => (language === 'en' ? 'mm/dd/yyyy' : language === 'es' ? 'dd/mm/aaaa' : 'dd/mm/aaaa');

/** The 'YYYY-MM-DD' of a typed date, or null when it is not a real date. */
export function isoOfTypedDate(text: string, language: Language): string | null {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  if (!match) return null;
  const [a, b, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const [day, month] = language === 'en' ? [b, a] : [a, b];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
