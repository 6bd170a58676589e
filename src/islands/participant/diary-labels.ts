/**
 * What home and the mission screen say of a diary. Kept out of `src/lib/labels.ts`, which every
 * participant screen loads (the survey screen's JavaScript budget): only these two use it.
 */
import type { HomeDiary } from '../../shared/projects.ts';
import { formatCount, m } from '../../shared/i18n.ts';

/** What a diary offers today, as home's card and the mission screen say it. */
export function diaryTodayLabel(diary: Pick<HomeDiary, 'today' | 'next' | 'max'>): string {
  if (diary.today === 'add') return m.participant_diary_add_today();
  if (diary.today === 'continue') return m.participant_diary_continue();
  return m.participant_diary_tomorrow({ next: formatCount(diary.next), max: formatCount(diary.max) });
}

/** "3-day streak"; null below 2 days (one day is no streak yet). */
export function streakLabel(days: number): string | null {
  return days >= 2 ? m.participant_diary_streak({ days }) : null;
}
