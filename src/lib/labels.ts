/**
 * Words for the participant screens: closing and opening dates ("Closes in 3 days"), points,
 * estimated time, entry counts and states, in the page's language (messages/common). Pure
 * functions (a `now` can be given), unit-tested.
 */
import type { EntryStatus } from '../shared/mission-entries.ts';
import type { GroupMissionState } from '../shared/mission-groups.ts';
import type { SurveyState } from '../shared/surveys.ts';
import { deviceDate } from '../shared/calendar-day.ts';
import { formatCalendarDay, formatDate, formatDateTime, formatTime, formatWeekdayDay } from '../shared/dates.ts';
import { formatCount, m } from '../shared/i18n.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function parse(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** True when both moments fall on the same local calendar day. */
function sameDay(a: Date, b: Date): boolean {
  return deviceDate(a) === deviceDate(b);
}

/**
 * When something closes, as a card says it: "Closes in 45 minutes", "Closes in 5 hours",
 * "Closes tomorrow", "Closes in 3 days", "Closes on Thu, Mar 5" (beyond two weeks), "Closed".
 * Null without a closing date.
 */
export function closesLabel(closesAt: string | null | undefined, now: Date = new Date()): string | null {
  const date = parse(closesAt);
  if (!date) return null;
  const left = date.getTime() - now.getTime();
  if (left <= 0) return m.common_closed();
  if (left < HOUR) return m.common_closes_in_minutes({ count: Math.max(1, Math.ceil(left / MINUTE)) });
  if (left < 12 * HOUR || (sameDay(date, now) && left < DAY)) return m.common_closes_in_hours({ count: Math.round(left / HOUR) });
  const days = Math.round(left / DAY);
  if (days <= 1) return m.common_closes_tomorrow();
  if (days <= 14) return m.common_closes_in_days({ count: days });
  return m.common_closes_on({ date: formatWeekdayDay(date) });
}

/** True when it closes within two days: the card shows the date in a warning colour. */
export function closesSoon(closesAt: string | null | undefined, now: Date = new Date()): boolean {
  const date = parse(closesAt);
  if (!date) return false;
  const left = date.getTime() - now.getTime();
  return left > 0 && left < 2 * DAY;
}

/** "Opens on Mar 5, 2026, 9:00 AM" (or "Opens today at 9:00 AM"). */
export function opensLabel(opensAt: string | null | undefined, now: Date = new Date()): string {
  const date = parse(opensAt);
  if (!date) return m.common_opens_soon();
  if (sameDay(date, now)) return m.common_opens_today_at({ time: formatTime(date) });
  return m.common_opens_on({ date: formatDateTime(date) });
}

/** "Closed on Mar 5, 2026" (or plain "Closed" without a date). */
export function closedLabel(closesAt: string | null | undefined): string {
  const date = parse(closesAt);
  return date ? m.common_closed_on({ date: formatDate(date) }) : m.common_closed();
}

/** A moment as a medium date ("Mar 5, 2026"). */
export function dateLabel(value: string | null | undefined): string {
  const date = parse(value);
  return date ? formatDate(date) : '';
}

/** A `YYYY-MM-DD` calendar day as written, whatever the time zone ("Mar 5, 2026"). */
export function localDateLabel(value: string): string {
  return formatCalendarDay(value);
}

/** The day of a mission entry: its diary day when it has one, else when it was submitted (or made). */
export function entryDateLabel(entry: { localDate: string | null; submittedAt: string | null; createdAt: string }): string {
  if (entry.localDate) return localDateLabel(entry.localDate);
  return dateLabel(entry.submittedAt ?? entry.createdAt);
}

/**
 * What something is worth, the one wording of every screen: "1 point", "250 points"; with
 * `perEntry` (a mission that takes more than one entry: each entry earns them) "250 points an entry".
 */
export function pointsLabel(points: number, perEntry = false): string {
  return perEntry ? m.common_points_per_entry({ count: points }) : m.common_points({ count: points });
}

/** "About 5 minutes", "About 1 hour 30 minutes"; null when unknown. */
export function minutesLabel(minutes: number | null | undefined): string | null {
  if (minutes === null || minutes === undefined || !Number.isFinite(minutes) || minutes <= 0) return null;
  const whole = Math.round(minutes);
  if (whole < 60) return m.common_duration_about({ duration: m.common_duration_minutes({ count: whole }) });
  const hours = m.common_duration_hours({ count: Math.floor(whole / 60) });
  const rest = whole % 60;
  if (rest === 0) return m.common_duration_about({ duration: hours });
  return m.common_duration_about_hours_minutes({ hours, minutes: m.common_duration_minutes({ count: rest }) });
}

/** A 0…1 progress as a whole percentage (clamped); null when there is none. */
export function percent(progress: number | null | undefined): number | null {
  if (progress === null || progress === undefined || !Number.isFinite(progress)) return null;
  return Math.round(Math.min(1, Math.max(0, progress)) * 100);
}

/** Entries that count as done: submitted, or reviewed and kept. */
export function countsAsDone(status: EntryStatus): boolean {
  return status === 'submitted' || status === 'approved';
}

/** "2 of 5 entries": entries done of the mission's goal (`entryGoal`: a diary's maximum, else its minimum), on every screen. */
export function entriesProgressLabel(done: number, goal: number): string {
  return m.common_entries_progress({ done: formatCount(done), count: goal });
}

/** A table of words read when shown: each property calls its message then, in that moment's language. */
function wordsOf<K extends string>(messages: Readonly<Record<K, () => string>>): Readonly<Record<K, string>> {
  const words = {} as Record<K, string>;
  for (const key of Object.keys(messages) as K[]) Object.defineProperty(words, key, { enumerable: true, get: messages[key] });
  return words;
}

/** What the entry list says of an entry's status. */
export const ENTRY_STATUS_LABELS: Readonly<Record<EntryStatus, string>> = wordsOf({
  draft: m.common_state_draft,
  submitted: m.common_state_submitted,
  approved: m.common_state_approved,
  changes_requested: m.common_state_changes_requested,
  rejected: m.common_state_not_accepted,
});

const GROUP_MISSION_STATE_MESSAGES: Readonly<Record<GroupMissionState, () => string>> = {
  locked: m.common_state_locked,
  open: m.common_state_open,
  in_progress: m.common_state_in_progress,
  submitted: m.common_state_submitted,
  approved: m.common_state_approved,
};

/** What the group screen says of each mission's state. */
export const GROUP_MISSION_STATE_LABELS: Readonly<Record<GroupMissionState, string>> = wordsOf(GROUP_MISSION_STATE_MESSAGES);

const STATE_MESSAGES: Readonly<Record<string, () => string>> = {
  ...GROUP_MISSION_STATE_MESSAGES,
  upcoming: m.common_state_upcoming,
  open: m.common_state_new,
  closed: m.common_closed,
  draft: m.common_state_draft,
  done: m.common_state_done,
  complete: m.common_state_done,
  changes_requested: m.common_state_changes_requested,
  rejected: m.common_state_not_accepted,
} satisfies Partial<Record<SurveyState | EntryStatus | GroupMissionState | 'done' | 'complete', () => string>>;

/**
 * The badge of a home card from the item's `state`: known states in words, anything else
 * (a summary the API may send) as it is, capitalised, underscores as spaces; null when empty.
 */
export function stateLabel(state: string | null | undefined): string | null {
  if (!state) return null;
  const known = Object.hasOwn(STATE_MESSAGES, state) ? STATE_MESSAGES[state] : undefined;
  if (known) return known();
  const words = state.replace(/_/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : null;
}
