/**
 * Words for the participant screens: closing and opening dates ("Closes in 3 days"), points,
 * estimated time, entry counts and states. Pure functions (a `now` can be given), unit-tested.
 */
import type { EntryStatus } from '../shared/mission-entries.ts';
import type { GroupMissionState } from '../shared/mission-groups.ts';
import type { SurveyState } from '../shared/surveys.ts';
import { deviceDate } from '../shared/calendar-day.ts';
import { formatCalendarDay, formatDate, formatDateTime, formatTime, formatWeekdayDay } from '../shared/dates.ts';
import { pointsText } from '../shared/points.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function parse(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function plural(count: number, unit: string, units = `${unit}s`): string {
  return `${count} ${count === 1 ? unit : units}`;
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
  if (left <= 0) return 'Closed';
  if (left < HOUR) return `Closes in ${plural(Math.max(1, Math.ceil(left / MINUTE)), 'minute')}`;
  if (left < 12 * HOUR || (sameDay(date, now) && left < DAY)) return `Closes in ${plural(Math.round(left / HOUR), 'hour')}`;
  const days = Math.round(left / DAY);
  if (days <= 1) return 'Closes tomorrow';
  if (days <= 14) return `Closes in ${days} days`;
  return `Closes on ${formatWeekdayDay(date)}`;
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
  if (!date) return 'Opens soon';
  if (sameDay(date, now)) return `Opens today at ${formatTime(date)}`;
  return `Opens on ${formatDateTime(date)}`;
}

/** "Closed on Mar 5, 2026" (or plain "Closed" without a date). */
export function closedLabel(closesAt: string | null | undefined): string {
  const date = parse(closesAt);
  return date ? `Closed on ${formatDate(date)}` : 'Closed';
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
  return `${pointsText(points)}${perEntry ? ' an entry' : ''}`;
}

/** "About 5 minutes", "About 1 hour 30 minutes"; null when unknown. */
export function minutesLabel(minutes: number | null | undefined): string | null {
  if (minutes === null || minutes === undefined || !Number.isFinite(minutes) || minutes <= 0) return null;
  const whole = Math.round(minutes);
  if (whole < 60) return `About ${plural(whole, 'minute')}`;
  const hours = Math.floor(whole / 60);
  const rest = whole % 60;
  return `About ${plural(hours, 'hour')}${rest > 0 ? ` ${plural(rest, 'minute')}` : ''}`;
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
  return `${done} of ${plural(goal, 'entry', 'entries')}`;
}

/** What the entry list says of an entry's status. */
export const ENTRY_STATUS_LABELS: Readonly<Record<EntryStatus, string>> = {
  draft: 'Draft',
  submitted: 'Submitted',
  approved: 'Approved',
  changes_requested: 'Changes requested',
  rejected: 'Not accepted',
};

/** What the group screen says of each mission's state. */
export const GROUP_MISSION_STATE_LABELS: Readonly<Record<GroupMissionState, string>> = {
  locked: 'Locked',
  open: 'Open',
  in_progress: 'In progress',
  submitted: 'Submitted',
  approved: 'Approved',
};

const STATE_LABELS: Readonly<Record<string, string>> = {
  ...GROUP_MISSION_STATE_LABELS,
  upcoming: 'Upcoming',
  open: 'New',
  closed: 'Closed',
  draft: 'Draft',
  done: 'Done',
  complete: 'Done',
  changes_requested: 'Changes requested',
  rejected: 'Not accepted',
} satisfies Partial<Record<SurveyState | EntryStatus | GroupMissionState | 'done' | 'complete', string>>;

/**
 * The badge of a home card from the item's `state`: known states in words, anything else
 * (a summary the API may send) as it is, capitalised, underscores as spaces; null when empty.
 */
export function stateLabel(state: string | null | undefined): string | null {
  if (!state) return null;
  const known = Object.hasOwn(STATE_LABELS, state) ? STATE_LABELS[state] : undefined;
  if (known) return known;
  const words = state.replace(/_/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : null;
}
