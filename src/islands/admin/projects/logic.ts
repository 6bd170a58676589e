/**
 * The pure rules behind the programme's admin screens: status words
 * and the project's status moves, completion, reordering a mission group's list, and the numbers
 * the survey results show. No React, no zod: unit-tested on their own.
 */
import type { EntryStatus } from '../../../shared/mission-entries.ts';
import type { ActivityStatus, ProjectStatus } from '../../../shared/projects.ts';

export const PROJECT_STATUS_LABELS: Readonly<Record<ProjectStatus, string>> = { draft: 'Draft', live: 'Live', closed: 'Closed', archived: 'Archived' };
export const ACTIVITY_STATUS_LABELS: Readonly<Record<ActivityStatus, string>> = { draft: 'Draft', live: 'Live', closed: 'Closed' };
export const ENTRY_STATUS_LABELS: Readonly<Record<EntryStatus, string>> = {
  draft: 'Draft',
  submitted: 'Submitted',
  approved: 'Approved',
  changes_requested: 'Changes requested',
  rejected: 'Rejected',
};

/** What each status means for members, said once beside the status. */
/**
 * What a survey's or mission's status badge adds when it is live in a draft project: members do
 * not see it yet (issue 17); null otherwise.
 */
export function hiddenLiveNote(status: ActivityStatus, projectStatus: ProjectStatus | undefined): string | null {
  return status === 'live' && projectStatus === 'draft' ? 'the project is a draft, members don’t see it yet' : null;
}

export const PROJECT_STATUS_HELP: Readonly<Record<ProjectStatus, string>> = {
  draft: 'Being prepared: members do not see it yet.',
  live: 'Members see its live surveys and missions.',
  closed: 'Members see its activities as closed (read-only).',
  archived: 'Hidden from everyone but admins.',
};

export interface StatusMove {
  to: ProjectStatus;
  /** The button's label. */
  label: string;
  /** What happens, for the confirmation. */
  effect: string;
}

/**
 * The status moves a project offers: draft → live → closed, a closed project can reopen, any
 * project can be archived, and an archived one comes back as a draft (hidden until it goes live
 * again).
 */
export function projectMoves(status: ProjectStatus): StatusMove[] {
  const archive: StatusMove = { to: 'archived', label: 'Archive', effect: 'The project disappears for members and leaves the default project list.' };
  switch (status) {
    case 'draft':
      return [{ to: 'live', label: 'Go live', effect: 'Members will see its live surveys and missions.' }, archive];
    case 'live':
      return [{ to: 'closed', label: 'Close', effect: 'Members will see its activities as closed; nothing more can be answered.' }, archive];
    case 'closed':
      return [{ to: 'live', label: 'Reopen', effect: 'Members will see its live surveys and missions again.' }, archive];
    case 'archived':
      return [{ to: 'draft', label: 'Restore as draft', effect: 'The project comes back as a draft; members see it once it goes live.' }];
  }
}

/** Submitted out of members as a whole percentage (0 when there are no members), for a completion bar. */
export function completionPercent(submitted: number, members: number): number {
  if (!(members > 0) || !(submitted > 0)) return 0;
  return Math.min(100, Math.round((submitted / members) * 100));
}

/** `items` with the one at `index` moved by `delta` places (kept inside the list); the same list when it cannot move. */
export function moveItem<T>(items: readonly T[], index: number, delta: number): T[] {
  const target = index + delta;
  if (index < 0 || index >= items.length || target < 0 || target >= items.length || delta === 0) return [...items];
  const next = [...items];
  const [item] = next.splice(index, 1);
  next.splice(target, 0, item as T);
  return next;
}

/** A share as a percentage with at most one decimal ("33.3"), 0 when there is no whole. */
export function percentOf(count: number, whole: number): number {
  if (!(whole > 0)) return 0;
  return Math.round((count / whole) * 1000) / 10;
}

/** A number as the results show it: at most two decimals ("3.67"), a dash when missing. */
export function formatAverage(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  return new Intl.NumberFormat('en', { maximumFractionDigits: 2 }).format(value);
}

/** "1 member" / "3 members". */
export function plural(count: number, one: string, many: string): string {
  return `${new Intl.NumberFormat('en').format(count)} ${count === 1 ? one : many}`;
}

/** A text field of a number: '' → null (not set), else the number (NaN when not one, which validation reports). */
export function numberOrNull(value: unknown): number | null {
  if (typeof value === 'number') return Number.isNaN(value) ? Number.NaN : value;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text === '' ? null : Number(text);
}

/** A required number field: '' and non-numbers are NaN (validation says "Required"). */
export function numberOrNaN(value: unknown): number {
  const parsed = numberOrNull(value);
  return parsed === null ? Number.NaN : parsed;
}
