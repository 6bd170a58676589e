import { describe, expect, it } from 'vitest';
import {
  closesLabel,
  closesSoon,
  countsAsDone,
  entriesProgressLabel,
  localDateLabel,
  minutesLabel,
  percent,
  pointsLabel,
  stateLabel,
} from '../../src/lib/labels.ts';
import { diaryTodayLabel, streakLabel } from '../../src/islands/participant/diary-labels.ts';
import { diaryStreak, entryGoal, isDiary } from '../../src/shared/mission-entries.ts';

const now = new Date('2026-05-10T09:00:00');
const later = (ms: number) => new Date(now.getTime() + ms).toISOString();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('closing dates on cards', () => {
  it('counts minutes, hours, days, then names the date; past is closed; none is null', () => {
    expect(closesLabel(later(30 * 60_000), now)).toBe('Closes in 30 minutes');
    expect(closesLabel(later(60_000), now)).toBe('Closes in 1 minute');
    expect(closesLabel(later(5 * HOUR), now)).toBe('Closes in 5 hours');
    expect(closesLabel(later(DAY), now)).toBe('Closes tomorrow');
    expect(closesLabel(later(3 * DAY), now)).toBe('Closes in 3 days');
    expect(closesLabel(later(14 * DAY), now)).toBe('Closes in 14 days');
    expect(closesLabel(later(40 * DAY), now)).toMatch(/^Closes on \w{3}, \w{3} \d{1,2}$/);
    expect(closesLabel(later(-HOUR), now)).toBe('Closed');
    expect(closesLabel(null, now)).toBeNull();
    expect(closesLabel('not a date', now)).toBeNull();
  });

  it('warns within two days only', () => {
    expect(closesSoon(later(5 * HOUR), now)).toBe(true);
    expect(closesSoon(later(3 * DAY), now)).toBe(false);
    expect(closesSoon(later(-HOUR), now)).toBe(false);
    expect(closesSoon(null, now)).toBe(false);
  });
});

describe('words for numbers', () => {
  it('points, estimated time, progress and entries', () => {
    expect(pointsLabel(1)).toBe('1 point');
    expect(pointsLabel(1500)).toBe('1,500 points');
    expect(minutesLabel(5)).toBe('About 5 minutes');
    expect(minutesLabel(1)).toBe('About 1 minute');
    expect(minutesLabel(90)).toBe('About 1 hour 30 minutes');
    expect(minutesLabel(120)).toBe('About 2 hours');
    expect(minutesLabel(null)).toBeNull();
    expect(minutesLabel(0)).toBeNull();
    expect(percent(0.333)).toBe(33);
    expect(percent(1.4)).toBe(100);
    expect(percent(-1)).toBe(0);
    expect(percent(null)).toBeNull();
    expect(entriesProgressLabel(2, 5)).toBe('2 of 5 entries');
    expect(entriesProgressLabel(0, 1)).toBe('0 of 1 entry');
  });

  it('one wording for a mission’s points: "an entry" only where it takes several', () => {
    expect(pointsLabel(100)).toBe('100 points');
    expect(pointsLabel(100, true)).toBe('100 points an entry');
    expect(pointsLabel(1, true)).toBe('1 point an entry');
  });
});

describe('diaries', () => {
  const diary = { min: 1, max: 7, perDay: 1 };
  it('a diary is a mission with a daily limit taking more than one entry; its count is said against its maximum', () => {
    expect(isDiary(diary)).toBe(true);
    expect(isDiary({ min: 1, max: 1, perDay: 1 })).toBe(false);
    expect(isDiary({ min: 2, max: 5, perDay: null })).toBe(false);
    // The same goal on every screen: "1 of 7 entries", never "0 of 1 entry" beside "You can add up to 7".
    expect(entryGoal(diary)).toBe(7);
    expect(entryGoal({ min: 2, max: 5, perDay: null })).toBe(2);
    expect(entriesProgressLabel(1, entryGoal(diary))).toBe('1 of 7 entries');
  });

  it('what today offers, in words', () => {
    expect(diaryTodayLabel({ today: 'add', next: 1, max: 7 })).toBe('Add today’s entry');
    expect(diaryTodayLabel({ today: 'continue', next: 2, max: 7 })).toBe('Continue your entry');
    expect(diaryTodayLabel({ today: 'tomorrow', next: 2, max: 7 })).toBe('Come back tomorrow for entry 2 of 7');
  });

  it('the streak counts consecutive days up to today, or up to yesterday while today’s entry is not made', () => {
    expect(diaryStreak([], '2026-03-05')).toBe(0);
    expect(diaryStreak(['2026-03-05'], '2026-03-05')).toBe(1);
    expect(diaryStreak(['2026-03-03', '2026-03-04'], '2026-03-05')).toBe(2);
    expect(diaryStreak(['2026-03-03', '2026-03-05', '2026-03-04', '2026-03-01'], '2026-03-05')).toBe(3);
    expect(diaryStreak(['2026-03-03'], '2026-03-05')).toBe(0);
    // Across a month's end.
    expect(diaryStreak(['2026-02-28', '2026-03-01'], '2026-03-01')).toBe(2);
    expect(streakLabel(1)).toBeNull();
    expect(streakLabel(3)).toBe('3-day streak');
  });

  it('a calendar day reads the same in every time zone', () => {
    expect(localDateLabel('2026-03-05')).toBe('Mar 5, 2026');
    expect(localDateLabel('garbage')).toBe('garbage');
  });
});

describe('states', () => {
  it('known states in words, unknown ones readable, none null', () => {
    expect(stateLabel('in_progress')).toBe('In progress');
    expect(stateLabel('open')).toBe('New');
    expect(stateLabel('upcoming')).toBe('Upcoming');
    expect(stateLabel('changes_requested')).toBe('Changes requested');
    expect(stateLabel('waiting_for_something')).toBe('Waiting for something');
    expect(stateLabel('')).toBeNull();
    expect(stateLabel(undefined)).toBeNull();
    expect(stateLabel('constructor')).toBe('Constructor');
  });

  it('submitted and approved entries count as done; drafts and sent-back ones do not', () => {
    expect(countsAsDone('submitted')).toBe(true);
    expect(countsAsDone('approved')).toBe(true);
    expect(countsAsDone('draft')).toBe(false);
    expect(countsAsDone('changes_requested')).toBe(false);
    expect(countsAsDone('rejected')).toBe(false);
  });
});
