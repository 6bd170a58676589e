/**
 * Mission entries, the admin screens' "submissions" (zod-free: participant screens import it): their
 * statuses and how the participant and the admin lists see them. Reviewing them: `review.ts`;
 * payload schemas: `schemas/mission-entries.ts`.
 */
import type { Answers, FormDefinition } from './forms/definition.ts';
import type { Language } from './languages.ts';
import type { MediaKind, MediaStatus } from './media.ts';
import type { UserRef } from './projects.ts';

/** A mission entry: a draft, then submitted, then reviewed: approved, changes requested or rejected (`services/review.ts`). */
export const ENTRY_STATUSES = ['draft', 'submitted', 'approved', 'changes_requested', 'rejected'] as const;

export type EntryStatus = (typeof ENTRY_STATUSES)[number];

/** A mission entry in the admin lists. */
export interface AdminSubmission {
  id: number;
  user: UserRef;
  status: EntryStatus;
  formVersion: number;
  answers: Answers;
  localDate: string | null;
  createdAt: string;
  submittedAt: string | null;
  /** How many entries this participant has in this mission. */
  entriesOfUser?: number;
}

export interface ParticipantEntry {
  id: number;
  status: EntryStatus;
  answers: Answers;
  localDate: string | null;
  createdAt: string;
  submittedAt: string | null;
  /** The renderer's seed for this entry. */
  seed: string;
  /** Bumped by every save and submit (0 before the first save); a save names the one it is based on. */
  revision: number;
  /** The form version the entry was made on (pinned). */
  formVersion?: number;
  /** The language the answers were last saved or submitted in (decision 035; the server always sends it). */
  language?: Language;
  /** That version's form, only when it is not the mission's current one (`form` of the mission). */
  form?: { version: number; definition: FormDefinition };
}

/** `GET /api/admin/missions/{id}/submissions`: one entry in the list. */
export interface AdminSubmissionListItem {
  id: number;
  user: UserRef;
  status: EntryStatus;
  submittedAt: string | null;
  /** True when the entry was sent again after changes were asked for (submitted two or more times). */
  resubmission: boolean;
  localDate: string | null;
  createdAt: string;
  /** How many entries (any status) this participant has in this mission. */
  entriesOfUser: number;
  /** The language the answers were last saved or submitted in (decision 035). */
  language: Language;
}

/**
 * A photo or video of a submission, as the admin screens show it. Photos are listed once stored;
 * videos always, with where they stand (`status`: a `processing` one has no size, video or poster yet).
 */
export interface SubmissionMedia {
  id: string;
  kind: MediaKind;
  status: MediaStatus;
  /** Why a `failed` video failed (for people); else null. */
  failureReason: string | null;
  /** A ready video's length (ms); null for photos and videos not ready. */
  durationMs: number | null;
  url: string;
  /** A photo's thumbnail, or a video's poster frame. */
  thumbnailUrl: string;
  /** Where a ready video plays from (`GET /api/media/{id}/video`, byte ranges) and its poster (WebP); null for photos and videos not ready. */
  videoUrl: string | null;
  posterUrl: string | null;
  /** 0 until stored. */
  width: number;
  height: number;
}

/** `GET /api/admin/submissions/{id}`: one entry with its answers and photos (the review's `ReviewSubmission` in `review.ts` adds its versions, notes and probes). */
export interface AdminSubmissionDetail {
  id: number;
  missionId: number;
  projectId: number;
  user: UserRef;
  status: EntryStatus;
  formVersion: number;
  /** The definition of the entry's own form version. */
  definition: FormDefinition | null;
  answers: Answers;
  /** The language the answers were last saved or submitted in (decision 035). */
  language: Language;
  /** The photos named in the entry's photo answers (those stored) and the videos of its video answers (any status), in answer order. */
  media: SubmissionMedia[];
  localDate: string | null;
  /** The time zone the entry's day (`localDate`) was taken in (IANA name). */
  timeZone: string;
  /** The zone of the participant's entry made just before this one in the mission, when it differs from this one's (they changed zone); else null. */
  timeZoneChangedFrom: string | null;
  createdAt: string;
  submittedAt: string | null;
  /** This participant's other entries in the mission, oldest first. */
  otherEntries: { id: number; status: EntryStatus; localDate: string | null; submittedAt: string | null }[];
}

/** The `entry` of a mission page's address (`?entry=12`), or null. */
export function entryParam(search: string): number | null {
  const raw = new URLSearchParams(search).get('entry');
  return raw !== null && /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null;
}

// ---------------------------------------------------------------------------------------------
// Diaries and entry counts (docs/decisions/018-first-use.md)

/** A mission's entry rules, as the participant's mission and home carry them. */
export interface EntryRules {
  min: number;
  max: number;
  perDay: number | null;
}

/**
 * A diary: a mission with a daily limit that takes more than one entry. It stays to do (home's
 * "To do") until its maximum is reached or it closes, not as soon as its minimum is met.
 */
export function isDiary(rules: EntryRules): boolean {
  return rules.perDay !== null && rules.max > 1;
}

/**
 * The number the entry count is said against, on every screen ("2 of 7 entries"): a diary's
 * maximum (what the participant can still do), else the mission's minimum (what it needs).
 */
export function entryGoal(rules: EntryRules): number {
  return Math.max(1, isDiary(rules) ? rules.max : rules.min);
}

/** The day before a `YYYY-MM-DD` calendar day. */
function dayBefore(day: string): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}

/**
 * A diary's streak: the consecutive calendar days, up to today, with a finished entry (submitted
 * or approved). A streak still counts when today's entry is not made yet (it ends yesterday); a
 * day missed before yesterday ends it (0).
 */
export function diaryStreak(finishedDays: Iterable<string>, today: string): number {
  const days = new Set(finishedDays);
  let day = days.has(today) ? today : dayBefore(today);
  let streak = 0;
  while (days.has(day)) {
    streak++;
    day = dayBefore(day);
  }
  return streak;
}
