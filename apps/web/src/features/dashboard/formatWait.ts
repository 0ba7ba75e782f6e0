/** A wait as a supervisor reads it, to the minute, in the interface's language: '< 1 min', '4 min', '1 h 12 min'. */
import type { TFunction } from 'i18next';

export function formatWait(ms: number, t: TFunction): string {
  const total = Math.round(ms / 60_000);
  if (total < 1) return t('dashboard.duration.underMinute');
  const hours = Math.floor(total / 60);
  const minutes = total % 60;
  if (hours === 0) return t('dashboard.duration.minutes', { minutes });
  return minutes === 0 ? t('dashboard.duration.hours', { hours }) : t('dashboard.duration.hoursMinutes', { hours, minutes });
}
