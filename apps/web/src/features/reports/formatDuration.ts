/** A duration as a supervisor reads it, in the interface's language: '45 s', '4 min 05 s', '1 h 12 min', '2 d 3 h'. */
import type { TFunction } from 'i18next';

export function formatDuration(ms: number, t: TFunction): string {
  const totalSeconds = Math.round(ms / 1000);
  if (totalSeconds < 60) return t('reports.duration.seconds', { seconds: totalSeconds });
  const totalMinutes = Math.floor(totalSeconds / 60);
  if (totalMinutes < 60) {
    const seconds = totalSeconds % 60;
    return seconds === 0 ? t('reports.duration.minutes', { minutes: totalMinutes }) : t('reports.duration.minutesSeconds', { minutes: totalMinutes, seconds: String(seconds).padStart(2, '0') });
  }
  const totalHours = Math.floor(totalMinutes / 60);
  if (totalHours < 24) {
    const minutes = totalMinutes % 60;
    return minutes === 0 ? t('reports.duration.hours', { hours: totalHours }) : t('reports.duration.hoursMinutes', { hours: totalHours, minutes: String(minutes).padStart(2, '0') });
  }
  return t('reports.duration.days', { days: Math.floor(totalHours / 24), hours: totalHours % 24 });
}
