/**
 * What home and the mission screen say of a diary. Kept out of `src/lib/labels.ts`, which every
 * participant screen loads (the survey screen's JavaScript budget): only these two use it.
 */
import type { HomeDiary } from '../../shared/projects.ts';

/** What a diary offers today, as home's card and the mission screen say it. */
export function diaryTodayLabel(diary: Pick<HomeDiary, 'today' | 'next' | 'max'>): string {
  if (diary.today === 'add') return 'Add today’s entry';
  if (diary.today === 'continue') return 'Continue your entry';
  return `Come back tomorrow for entry ${diary.next} of ${diary.max}`;
}

/** "3-day streak"; null below 2 days (one day is no streak yet). */
export function streakLabel(days: number): string | null {
  return days >= 2 ? `${days}-day streak` : null;
}
