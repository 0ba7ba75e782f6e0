/**
 * Dates in the interface's language: Portuguese and Spanish write the day first (22/11/2026, the
 * spec's dd/MM/yyyy), English the month first (11/22/2026). Times are HH:mm in every language.
 * All in the browser's time zone.
 */
import { currentLanguage, type Language } from '../../i18n/i18n';

const LOCALE: Record<Language, string> = { pt: 'pt-BR', en: 'en-US', es: 'es-ES' };
const formats = new Map<string, Intl.DateTimeFormat>();

function format(options: Intl.DateTimeFormatOptions, language: Language): Intl.DateTimeFormat {
  const key = `${language}:${JSON.stringify(options)}`;
  let formatter = formats.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(LOCALE[language], options);
    formats.set(key, formatter);
  }
  return formatter;
}

function valid(iso: string): Date | undefined {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };

/** dd/MM/yy HH:mm (en: MM/dd/yy HH:mm): the format of the spec's tables. */
export function formatShortDateTime(iso: string, language: Language = currentLanguage()): string {
  const date = valid(iso);
  if (!date) return '';
  return `${format({ day: '2-digit', month: '2-digit', year: '2-digit' }, language).format(date)} ${formatTime(iso)}`;
}

/** dd/MM/yyyy (en: MM/dd/yyyy): the chat's day separators. */
export function formatDay(iso: string, language: Language = currentLanguage()): string {
  const date = valid(iso);
  if (!date) return '';
  return format({ day: '2-digit', month: '2-digit', year: 'numeric' }, language).format(date);
}

/** dd/MM (en: MM/dd): the dashboard's days. */
export function formatDayMonth(iso: string, language: Language = currentLanguage()): string {
  const date = valid(iso);
  if (!date) return '';
  return format({ day: '2-digit', month: '2-digit' }, language).format(date);
}

/** HH:mm. */
export function formatTime(iso: string): string {
  const date = valid(iso);
  if (!date) return '';
  return format(TIME, 'pt').format(date);
}

/** HH:mm when the moment is today, else the day: the time of a ticket row. */
export function formatRecent(iso: string, now: Date = new Date(), language: Language = currentLanguage()): string {
  const date = valid(iso);
  if (!date) return '';
  const sameDay = date.getFullYear() === now.getFullYear() && date.getMonth() === now.getMonth() && date.getDate() === now.getDate();
  return sameDay ? formatTime(iso) : formatDay(iso, language);
}
