/**
 * Mission entries, the admin screens' "submissions" (zod-free: participant screens import it): their
 * statuses and how the participant and the admin lists see them. Reviewing them: `review.ts`;
 * payload schemas: `schemas/mission-entries.ts`.
 */
import type { Answers, FormDefinition } from './forms/definition.ts';
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
}

/** A photo of a submission, as the admin screens show it. */
export interface SubmissionMedia {
  id: string;
  url: string;
  thumbnailUrl: string;
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
  /** The photos named in the entry's photo answers (those that exist), in answer order. */
  media: SubmissionMedia[];
  localDate: string | null;
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
