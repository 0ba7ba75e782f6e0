/** One line that says a week of hours: 'Segunda a sexta 08:00–18:00 · Sábado 08:00–12:00'. */
import type { BusinessHours } from '@zapdesk/shared/business-hours';
import { weekdayName } from './WeekEditor';

const ORDER = [1, 2, 3, 4, 5, 6, 0] as const;
const rangesText = (ranges: BusinessHours['week'][number]) => ranges.map((r) => `${r.from}–${r.to}`).join(', ');

export function hoursSummary(hours: BusinessHours): string {
  const groups: { days: number[]; text: string }[] = [];
  for (const day of ORDER) {
    const text = rangesText(hours.week[day] ?? []);
    if (!text) continue;
    const last = groups[groups.length - 1];
    const previous = last?.days[last.days.length - 1];
    if (last && last.text === text && previous !== undefined && ORDER.indexOf(previous as (typeof ORDER)[number]) === ORDER.indexOf(day) - 1) last.days.push(day);
    else groups.push({ days: [day], text });
  }
  const parts = groups.map(({ days, text }) => {
    const first = days[0] ?? 0;
    const end = days[days.length - 1] ?? first;
    const name = days.length > 1 ? `${weekdayName(first)}–${weekdayName(end)}` : weekdayName(first);
    return `${name} ${text}`;
  });
  return [...parts, hours.timezone.replaceAll('_', ' ')].join(' · ');
}
